#include "tests/http/fake_batches.hpp"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <random>
#include <regex>
#include <set>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "tests/http/multipart_form.hpp"

namespace ij::test {

namespace http = boost::beast::http;

namespace {

constexpr const char* default_text =
  "DECISION: EQUIVALENT\nREASON: fake batch\nNUMERIC_A: 1\nNUMERIC_B: 1";

std::string json_string(const std::string& s) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  return {buf.GetString(), buf.GetSize()};
}

std::string compact(const rapidjson::Value& v) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  v.Accept(w);
  return {buf.GetString(), buf.GetSize()};
}

std::string rfc3339(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

bool valid_custom_id(const std::string& id) {
  static const std::regex syntax("^[a-zA-Z0-9_-]{1,64}$");
  return std::regex_match(id, syntax);
}

bool terminal(api_kind kind, const std::string& status) {
  if (kind == api_kind::anthropic)
    return status == "ended";
  return status == "completed" || status == "failed" || status == "expired"
         || status == "cancelled";
}

std::string header(const fake_request& req, const char* name) {
  auto it = req.find(name);
  return it == req.end() ? std::string{} : std::string(it->value());
}

} // namespace

struct fake_batches::batch {
  std::string id;
  std::vector<std::string> ids; // custom_ids in input order
  std::vector<std::string> path;
  std::size_t step = 0;
  std::string status;
  std::time_t created = 0;
  std::time_t ended = 0;
  bool cancel_initiated = false;
  /// OpenAI validation errors (a failed batch).
  std::string invalid_code, invalid_message;
  // Made when the batch ends.
  std::size_t succeeded = 0, errored = 0, canceled = 0, expired = 0;
  std::string results; // Anthropic
  std::string output_file_id, error_file_id;
  /// OpenAI: metadata.ij_batch_key as created (empty: metadata null).
  std::string key;
};

fake_batches::fake_batches(fake_batch_options options)
    : opt_(std::move(options)) {
  if (opt_.path.empty())
    opt_.path = opt_.kind == api_kind::anthropic
                  ? std::vector<std::string>{"in_progress", "ended"}
                  : std::vector<std::string>{"validating", "in_progress",
                                             "finalizing", "completed"};
  reply_ = [](const std::string&) { return std::string{default_text}; };
  server_ = std::make_unique<fake_server>(
    [this](const fake_request& req, const request_context&) {
      return handle(req);
    },
    1, opt_.tls);
}

fake_batches::~fake_batches() {
  // The server's thread calls handle(): it stops before the state goes.
  server_.reset();
}

std::string fake_batches::base_url() const {
  return server_->base_url() + (opt_.kind == api_kind::openai ? "/v1" : "");
}

void fake_batches::set_reply(
  std::function<std::string(const std::string&)> reply) {
  std::lock_guard<std::mutex> g(mtx_);
  reply_ = std::move(reply);
}

void fake_batches::fail_request(const std::string& custom_id, unsigned status,
                                const std::string& message) {
  std::lock_guard<std::mutex> g(mtx_);
  failing_[custom_id] = {status, message};
}

void fake_batches::reject_next_batch(unsigned status,
                                     const std::string& message) {
  std::lock_guard<std::mutex> g(mtx_);
  next_rejections_.emplace_back(status, message);
}

void fake_batches::fail_next_request(unsigned status,
                                     const std::string& message) {
  std::lock_guard<std::mutex> g(mtx_);
  next_errors_.emplace_back(status, message);
}

void fake_batches::fail_next_validation(const std::string& code,
                                        const std::string& message) {
  std::lock_guard<std::mutex> g(mtx_);
  next_invalid_.emplace_back(code, message);
}

void fake_batches::hold(bool held) {
  std::lock_guard<std::mutex> g(mtx_);
  held_ = held;
}

void fake_batches::advance(const std::string& id) {
  std::lock_guard<std::mutex> g(mtx_);
  if (auto b = find(id))
    step(*b);
}

void fake_batches::expire(const std::string& id, std::size_t done) {
  std::lock_guard<std::mutex> g(mtx_);
  if (auto b = find(id); b && !terminal(opt_.kind, b->status))
    end(*b, opt_.kind == api_kind::anthropic ? "ended" : "expired", done, true);
}

void fake_batches::set_done_at_cancel(std::size_t done) {
  std::lock_guard<std::mutex> g(mtx_);
  done_at_cancel_ = done;
}

std::size_t fake_batches::times_sent(const std::string& custom_id) const {
  std::lock_guard<std::mutex> g(mtx_);
  auto it = sent_.find(custom_id);
  return it == sent_.end() ? 0 : it->second;
}

std::string fake_batches::request_body(const std::string& custom_id) const {
  std::lock_guard<std::mutex> g(mtx_);
  auto it = bodies_.find(custom_id);
  return it == bodies_.end() ? std::string{} : it->second;
}

std::size_t fake_batches::batches_created() const {
  std::lock_guard<std::mutex> g(mtx_);
  return batches_.size();
}

std::vector<std::size_t> fake_batches::batch_sizes() const {
  std::lock_guard<std::mutex> g(mtx_);
  std::vector<std::size_t> out;
  for (auto& b : batches_)
    out.push_back(b->ids.size());
  return out;
}

std::size_t fake_batches::files_uploaded() const {
  std::lock_guard<std::mutex> g(mtx_);
  return files_uploaded_;
}

std::size_t fake_batches::cancels() const {
  std::lock_guard<std::mutex> g(mtx_);
  return cancels_;
}

std::size_t fake_batches::polls() const {
  std::lock_guard<std::mutex> g(mtx_);
  return polls_;
}

std::vector<std::string> fake_batches::batch_ids() const {
  std::lock_guard<std::mutex> g(mtx_);
  std::vector<std::string> out;
  for (auto& b : batches_)
    out.push_back(b->id);
  return out;
}

std::string fake_batches::status_of(const std::string& id) const {
  std::lock_guard<std::mutex> g(mtx_);
  for (auto& b : batches_)
    if (b->id == id)
      return b->status;
  return {};
}

std::vector<std::string> fake_batches::violations() const {
  std::lock_guard<std::mutex> g(mtx_);
  return violations_;
}

fake_batches::batch* fake_batches::find(const std::string& id) {
  for (auto& b : batches_)
    if (b->id == id)
      return b.get();
  return nullptr;
}

planned_reply fake_batches::error(unsigned status, const std::string& type,
                                  const std::string& message) {
  planned_reply r;
  r.status = status;
  if (opt_.kind == api_kind::anthropic)
    r.body = R"({"type":"error","error":{"type":")" + type + R"(","message":)"
             + json_string(message) + "}}";
  else
    r.body = R"({"error":{"message":)" + json_string(message) + R"(,"type":")"
             + type + R"(","param":null,"code":null}})";
  return r;
}

planned_reply fake_batches::reject(unsigned status, const std::string& type,
                                   const std::string& message) {
  violations_.push_back(message);
  return error(status, type, message);
}

planned_reply fake_batches::handle(const fake_request& req) {
  std::lock_guard<std::mutex> g(mtx_);
  if (!next_errors_.empty()) {
    auto [status, message] = next_errors_.front();
    next_errors_.pop_front();
    return error(status, status == 429 ? "rate_limit_error" : "api_error",
                 message);
  }
  // Authentication, as each API checks it.
  if (opt_.kind == api_kind::anthropic) {
    auto key = header(req, "x-api-key");
    if (key.empty() || (!opt_.api_key.empty() && key != opt_.api_key))
      return reject(401, "authentication_error",
                    "invalid x-api-key"
                      + (opt_.echo_key_in_errors ? ": " + key : ""));
    if (header(req, "anthropic-version") != "2023-06-01")
      return reject(400, "invalid_request_error",
                    "anthropic-version header is required");
  } else if (!opt_.api_key.empty()
             && header(req, "authorization") != "Bearer " + opt_.api_key) {
    return reject(
      401, "invalid_request_error",
      "Incorrect API key provided"
        + (opt_.echo_key_in_errors ? ": " + header(req, "authorization") : ""));
  }
  std::string target(req.target());
  return opt_.kind == api_kind::anthropic ? handle_anthropic(req, target)
                                          : handle_openai(req, target);
}

planned_reply fake_batches::handle_anthropic(const fake_request& req,
                                             const std::string& target) {
  const std::string root = "/v1/messages/batches";
  if (target == root && req.method() == http::verb::post)
    return create_anthropic(req);
  if (target.rfind(root + "?", 0) == 0 && req.method() == http::verb::get)
    return list(target);
  if (target.rfind(root + "/", 0) != 0)
    return reject(404, "not_found_error", "no route " + target);
  auto rest = target.substr(root.size() + 1);
  auto slash = rest.find('/');
  auto id = rest.substr(0, slash);
  auto action =
    slash == std::string::npos ? std::string{} : rest.substr(slash + 1);
  auto b = find(id);
  if (!b)
    return error(404, "not_found_error", "no batch " + id);
  if (action.empty() && req.method() == http::verb::get) {
    ++polls_;
    if (!held_)
      step(*b);
    return batch_reply(*b);
  }
  if (action == "cancel" && req.method() == http::verb::post) {
    ++cancels_;
    if (!terminal(opt_.kind, b->status)) {
      b->status = "canceling";
      b->cancel_initiated = true;
    }
    return batch_reply(*b);
  }
  if (action == "results" && req.method() == http::verb::get) {
    if (b->status != "ended")
      return reject(400, "invalid_request_error",
                    "batch " + id + " is still processing: no results yet");
    planned_reply r;
    r.content_type = "application/binary";
    r.body = b->results;
    return r;
  }
  return reject(405, "invalid_request_error",
                "no " + std::string(req.method_string()) + " " + target);
}

planned_reply fake_batches::create_anthropic(const fake_request& req) {
  if (header(req, "content-type").rfind("application/json", 0) != 0)
    return reject(400, "invalid_request_error",
                  "content-type must be application/json");
  rapidjson::Document doc;
  doc.Parse(req.body().data(), req.body().size());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("requests")
      || !doc["requests"].IsArray() || doc["requests"].Empty())
    return reject(400, "invalid_request_error",
                  "requests: a non-empty array is required");
  auto b = std::make_unique<batch>();
  std::set<std::string> seen;
  std::vector<std::string> bodies;
  for (auto& r : doc["requests"].GetArray()) {
    if (!r.IsObject() || !r.HasMember("custom_id") || !r["custom_id"].IsString()
        || !r.HasMember("params") || !r["params"].IsObject()
        || r.MemberCount() != 2)
      return reject(400, "invalid_request_error",
                    "requests: each is {custom_id, params}");
    std::string id = r["custom_id"].GetString();
    if (!valid_custom_id(id))
      return reject(400, "invalid_request_error",
                    "requests.custom_id: \"" + id
                      + "\" does not match ^[a-zA-Z0-9_-]{1,64}$");
    if (!seen.insert(id).second)
      return reject(400, "invalid_request_error",
                    "requests: duplicate custom_id " + id);
    auto& p = r["params"];
    if (!p.HasMember("model") || !p.HasMember("max_tokens")
        || !p["max_tokens"].IsUint() || !p.HasMember("messages")
        || !p["messages"].IsArray())
      return reject(400, "invalid_request_error",
                    "params: model, max_tokens and messages are required");
    if (p.HasMember("stream"))
      return reject(400, "invalid_request_error",
                    "params: stream is not allowed in batches");
    b->ids.push_back(id);
    if (opt_.keep_documents)
      bodies.push_back(compact(p));
  }
  if (!next_rejections_.empty()) {
    auto [status, message] = next_rejections_.front();
    next_rejections_.pop_front();
    return error(status, "invalid_request_error", message);
  }
  for (std::size_t i = 0; i < b->ids.size(); ++i) {
    ++sent_[b->ids[i]];
    if (opt_.keep_documents)
      bodies_[b->ids[i]] = std::move(bodies[i]);
  }
  b->id = "msgbatch_" + std::to_string(next_id_++);
  start(*b);
  batches_.push_back(std::move(b));
  return batch_reply(*batches_.back());
}

planned_reply fake_batches::handle_openai(const fake_request& req,
                                          const std::string& target) {
  if (target == "/v1/files" && req.method() == http::verb::post)
    return upload_file(req);
  if (target == "/v1/batches" && req.method() == http::verb::post)
    return create_openai(req);
  if ((target == "/v1/batches" || target.rfind("/v1/batches?", 0) == 0)
      && req.method() == http::verb::get)
    return list(target);
  const std::string files = "/v1/files/";
  if (target.rfind(files, 0) == 0 && req.method() == http::verb::get) {
    auto rest = target.substr(files.size());
    auto slash = rest.find('/');
    if (slash == std::string::npos || rest.substr(slash) != "/content")
      return reject(404, "invalid_request_error", "no route " + target);
    auto it = files_.find(rest.substr(0, slash));
    if (it == files_.end())
      return error(404, "invalid_request_error",
                   "No such File object: " + rest.substr(0, slash));
    planned_reply r;
    r.content_type = "application/octet-stream";
    r.body = it->second;
    return r;
  }
  const std::string root = "/v1/batches/";
  if (target.rfind(root, 0) != 0)
    return reject(404, "invalid_request_error", "no route " + target);
  auto rest = target.substr(root.size());
  auto slash = rest.find('/');
  auto id = rest.substr(0, slash);
  auto action =
    slash == std::string::npos ? std::string{} : rest.substr(slash + 1);
  auto b = find(id);
  if (!b)
    return error(404, "invalid_request_error",
                 "No batch found with id '" + id + "'.");
  if (action.empty() && req.method() == http::verb::get) {
    ++polls_;
    if (!held_)
      step(*b);
    return batch_reply(*b);
  }
  if (action == "cancel" && req.method() == http::verb::post) {
    ++cancels_;
    if (terminal(opt_.kind, b->status))
      return error(409, "invalid_request_error",
                   "Cannot cancel a batch with status '" + b->status + "'.");
    b->status = "cancelling";
    b->cancel_initiated = true;
    return batch_reply(*b);
  }
  return reject(405, "invalid_request_error",
                "no " + std::string(req.method_string()) + " " + target);
}

planned_reply fake_batches::upload_file(const fake_request& req) {
  auto form = parse_multipart(header(req, "content-type"), req.body());
  if (!form)
    return reject(400, "invalid_request_error",
                  "the body is not multipart/form-data");
  auto& parts = form->parts;
  auto& filename = form->filename;
  if (parts["purpose"] != "batch")
    return reject(400, "invalid_request_error", "purpose must be batch here");
  if (!parts.count("file") || filename.empty())
    return reject(400, "invalid_request_error",
                  "file: a file part with a filename is required");
  if (filename.size() < 6 || filename.substr(filename.size() - 6) != ".jsonl")
    return reject(400, "invalid_request_error",
                  "the Batch API takes .jsonl files only");
  auto id = "file-" + std::to_string(next_id_++);
  auto bytes = parts["file"].size();
  files_[id] = std::move(parts["file"]);
  ++files_uploaded_;
  planned_reply r;
  r.body = R"({"id":")" + id + R"(","object":"file","bytes":)"
           + std::to_string(bytes) + R"(,"created_at":)"
           + std::to_string(std::time(nullptr)) + R"(,"filename":)"
           + json_string(filename)
           + R"(,"purpose":"batch","status":"processed"})";
  return r;
}

planned_reply fake_batches::create_openai(const fake_request& req) {
  rapidjson::Document doc;
  doc.Parse(req.body().data(), req.body().size());
  if (doc.HasParseError() || !doc.IsObject())
    return reject(400, "invalid_request_error",
                  "the body is not a JSON object");
  auto str = [&](const char* name) {
    return doc.HasMember(name) && doc[name].IsString()
             ? std::string{doc[name].GetString()}
             : std::string{};
  };
  if (str("endpoint") != "/v1/chat/completions")
    return reject(400, "invalid_request_error",
                  "endpoint: /v1/chat/completions expected");
  if (str("completion_window") != "24h")
    return reject(400, "invalid_request_error",
                  "completion_window: only 24h is supported");
  auto file = files_.find(str("input_file_id"));
  if (file == files_.end())
    return reject(400, "invalid_request_error", "input_file_id: no such file");
  if (!next_rejections_.empty()) {
    auto [status, message] = next_rejections_.front();
    next_rejections_.pop_front();
    return error(status, "invalid_request_error", message);
  }
  auto b = std::make_unique<batch>();
  b->id = "batch_" + std::to_string(next_id_++);
  if (doc.HasMember("metadata") && !doc["metadata"].IsNull()) {
    auto& meta = doc["metadata"];
    if (!meta.IsObject() || meta.MemberCount() > 16)
      return reject(400, "invalid_request_error",
                    "metadata: at most 16 string pairs");
    for (auto& m : meta.GetObject())
      if (!m.value.IsString() || m.name.GetStringLength() > 64
          || m.value.GetStringLength() > 512)
        return reject(400, "invalid_request_error",
                      "metadata: keys of at most 64 and string values of at "
                      "most 512 characters");
    if (meta.HasMember("ij_batch_key"))
      b->key = meta["ij_batch_key"].GetString();
  }
  // Validation, as the API does it after accepting the batch: a bad line
  // fails the whole batch (status "failed", errors.data).
  std::set<std::string> seen;
  std::vector<std::string> bodies;
  std::size_t line_no = 0;
  const auto& text = file->second;
  for (std::size_t at = 0; at < text.size() && b->invalid_code.empty();) {
    auto end = text.find('\n', at);
    if (end == std::string::npos)
      end = text.size();
    ++line_no;
    rapidjson::Document line;
    line.Parse(text.data() + at, end - at);
    at = end + 1;
    auto fail = [&](const char* code, const std::string& message) {
      b->invalid_code = code;
      b->invalid_message = "line " + std::to_string(line_no) + ": " + message;
      violations_.push_back(b->invalid_message);
    };
    if (line.HasParseError() || !line.IsObject() || !line.HasMember("custom_id")
        || !line["custom_id"].IsString() || !line.HasMember("body")
        || !line["body"].IsObject()) {
      fail("invalid_json_line", "not {custom_id, method, url, body}");
      break;
    }
    std::string id = line["custom_id"].GetString();
    auto is = [&](const char* name, const char* want) {
      return line.HasMember(name) && line[name].IsString()
             && std::string{line[name].GetString()} == want;
    };
    if (!is("method", "POST") || !is("url", "/v1/chat/completions"))
      fail("invalid_request",
           "method POST and url /v1/chat/completions expected");
    else if (!seen.insert(id).second)
      fail("duplicate_custom_id", "custom_id " + id + " is not unique");
    else if (!line["body"].HasMember("model")
             || !line["body"].HasMember("messages"))
      fail("missing_required_parameter",
           "body: model and messages are required");
    b->ids.push_back(id);
    if (opt_.keep_documents)
      bodies.push_back(compact(line["body"]));
  }
  if (b->ids.empty() && b->invalid_code.empty()) {
    b->invalid_code = "empty_file";
    b->invalid_message = "the input file has no requests";
  }
  if (!next_invalid_.empty()) {
    std::tie(b->invalid_code, b->invalid_message) = next_invalid_.front();
    next_invalid_.pop_front();
  }
  if (b->invalid_code.empty())
    for (std::size_t i = 0; i < b->ids.size(); ++i) {
      ++sent_[b->ids[i]];
      if (opt_.keep_documents)
        bodies_[b->ids[i]] = std::move(bodies[i]);
    }
  if (!opt_.keep_documents)
    files_.erase(file);
  start(*b);
  batches_.push_back(std::move(b));
  return batch_reply(*batches_.back());
}

void fake_batches::start(batch& b) {
  b.path = opt_.path;
  b.step = 0;
  b.status = b.path.front();
  b.created = std::time(nullptr);
}

void fake_batches::step(batch& b) {
  if (terminal(opt_.kind, b.status))
    return;
  if (b.cancel_initiated)
    return end(b, opt_.kind == api_kind::anthropic ? "ended" : "cancelled",
               std::min(done_at_cancel_, b.ids.size()), false);
  if (!b.invalid_code.empty())
    return end(b, "failed", 0, false);
  if (b.step + 1 >= b.path.size())
    return;
  b.status = b.path[++b.step];
  if (terminal(opt_.kind, b.status)) {
    auto status = b.status;
    end(b, status, b.ids.size(), status == "expired");
  }
}

std::string fake_batches::success_line(const batch& b,
                                       const std::string& custom_id,
                                       const std::string& text) {
  if (opt_.kind == api_kind::anthropic)
    return R"({"custom_id":")" + custom_id
           + R"(","result":{"type":"succeeded","message":{"id":"msg_)"
           + custom_id
           + R"(","type":"message","role":"assistant","model":"judge-model",)"
           + R"("content":[{"type":"text","text":)" + json_string(text)
           + R"(}],"stop_reason":"end_turn","stop_sequence":null,)"
           + R"("usage":{"input_tokens":42,"output_tokens":7}}}})";
  return R"({"id":"batch_req_)" + custom_id + R"(","custom_id":")" + custom_id
         + R"(","response":{"status_code":200,"request_id":"req_)" + custom_id
         + R"(","body":{"id":"chatcmpl-)" + custom_id
         + R"(","object":"chat.completion","created":)"
         + std::to_string(b.created)
         + R"(,"model":"judge-model","choices":[{"index":0,"message":{"role":"assistant",)"
         + R"("content":)" + json_string(text)
         + R"(,"refusal":null},"logprobs":null,"finish_reason":"stop"}],)"
         + R"("usage":{"prompt_tokens":42,"completion_tokens":7,"total_tokens":49}}},)"
         + R"("error":null})";
}

void fake_batches::end(batch& b, const std::string& status, std::size_t done,
                       bool expired) {
  b.status = status;
  b.ended = std::time(nullptr);
  if (status == "failed")
    return; // validation failed: no requests ran
  bool anthropic = opt_.kind == api_kind::anthropic;
  std::vector<std::string> output, errors;
  for (std::size_t i = 0; i < b.ids.size(); ++i) {
    const auto& id = b.ids[i];
    if (i < done) {
      auto failing = failing_.find(id);
      if (failing == failing_.end()) {
        ++b.succeeded;
        output.push_back(success_line(b, id, reply_(id)));
        continue;
      }
      ++b.errored;
      auto [code, message] = failing->second;
      if (anthropic)
        output.push_back(
          R"({"custom_id":")" + id
          + R"(","result":{"type":"errored","error":{"type":"error","error":)"
          + R"({"type":"invalid_request_error","message":)"
          + json_string(message) + R"(},"request_id":"req_)" + id + R"("}}})");
      else
        errors.push_back(
          R"({"id":"batch_req_)" + id + R"(","custom_id":")" + id
          + R"(","response":{"status_code":)" + std::to_string(code)
          + R"(,"request_id":"req_)" + id + R"(","body":{"error":{"message":)"
          + json_string(message)
          + R"(,"type":"invalid_request_error","param":null,"code":null}}},)"
          + R"("error":null})");
    } else if (expired) {
      ++b.expired;
      if (anthropic)
        output.push_back(R"({"custom_id":")" + id
                         + R"(","result":{"type":"expired"}})");
      else
        errors.push_back(
          R"({"id":"batch_req_)" + id + R"(","custom_id":")" + id
          + R"(","response":null,"error":{"code":"batch_expired","message":)"
          + R"("This request could not be executed before the completion )"
          + R"(window expired."}})");
    } else {
      ++b.canceled;
      if (anthropic)
        output.push_back(R"({"custom_id":")" + id
                         + R"(","result":{"type":"canceled"}})");
    }
  }
  // Results come in any order: the client must match them by custom_id.
  std::mt19937 rng(opt_.shuffle_seed);
  std::shuffle(output.begin(), output.end(), rng);
  std::shuffle(errors.begin(), errors.end(), rng);
  auto join = [](const std::vector<std::string>& lines) {
    std::string out;
    for (auto& l : lines)
      out.append(l).append("\n");
    return out;
  };
  if (anthropic) {
    b.results = join(output);
    return;
  }
  if (!output.empty()) {
    b.output_file_id = "file-" + std::to_string(next_id_++);
    files_[b.output_file_id] = join(output);
  }
  if (!errors.empty()) {
    b.error_file_id = "file-" + std::to_string(next_id_++);
    files_[b.error_file_id] = join(errors);
  }
}

std::string fake_batches::batch_json(const batch& b) {
  auto n = std::to_string(b.ids.size());
  bool ended = terminal(opt_.kind, b.status);
  if (opt_.kind == api_kind::anthropic) {
    auto time_or_null = [](std::time_t t, bool set) {
      return set ? "\"" + rfc3339(t) + "\"" : std::string{"null"};
    };
    std::string processing = ended ? "0" : n;
    // Counts other than processing stay 0 until the batch ends.
    return R"({"id":")" + b.id
           + R"(","type":"message_batch","processing_status":")" + b.status
           + R"(","request_counts":{"processing":)" + processing
           + R"(,"succeeded":)" + std::to_string(ended ? b.succeeded : 0)
           + R"(,"errored":)" + std::to_string(ended ? b.errored : 0)
           + R"(,"canceled":)" + std::to_string(ended ? b.canceled : 0)
           + R"(,"expired":)" + std::to_string(ended ? b.expired : 0)
           + R"(},"ended_at":)" + time_or_null(b.ended, ended)
           + R"(,"created_at":")" + rfc3339(b.created) + R"(","expires_at":")"
           + rfc3339(b.created + 86400)
           + R"(","archived_at":null,"cancel_initiated_at":)"
           + time_or_null(b.created, b.cancel_initiated) + R"(,"results_url":)"
           + (ended ? "\"" + server_->base_url() + "/v1/messages/batches/"
                        + b.id + "/results\""
                    : std::string{"null"})
           + "}";
  }
  auto id_or_null = [](const std::string& id) {
    return id.empty() ? std::string{"null"} : "\"" + id + "\"";
  };
  bool validating = b.status == "validating";
  std::string counts = validating
                         ? R"({"total":0,"completed":0,"failed":0})"
                         : R"({"total":)" + n + R"(,"completed":)"
                             + std::to_string(b.succeeded) + R"(,"failed":)"
                             + std::to_string(b.errored + b.expired) + "}";
  std::string errors = "null";
  if (b.status == "failed")
    errors = R"({"object":"list","data":[{"code":)"
             + json_string(b.invalid_code) + R"(,"line":1,"message":)"
             + json_string(b.invalid_message) + R"(,"param":null}]})";
  return R"({"id":")" + b.id
         + R"(","object":"batch","endpoint":"/v1/chat/completions",)"
         + R"("errors":)" + errors
         + R"(,"input_file_id":"file-in","completion_window":"24h",)"
         + R"("status":")" + b.status + R"(","output_file_id":)"
         + id_or_null(b.output_file_id) + R"(,"error_file_id":)"
         + id_or_null(b.error_file_id) + R"(,"created_at":)"
         + std::to_string(b.created) + R"(,"expires_at":)"
         + std::to_string(b.created + 86400) + R"(,"request_counts":)" + counts
         + R"(,"metadata":)"
         + (b.key.empty() ? std::string{"null"}
                          : R"({"ij_batch_key":)" + json_string(b.key) + "}")
         + "}";
}

planned_reply fake_batches::list(const std::string& target) {
  // limit=1..100 (OpenAI) or 1..1000 (Anthropic), default 20; newest first.
  std::size_t limit = 20;
  auto at = target.find("limit=");
  if (at != std::string::npos) {
    auto text = target.substr(at + 6, target.find('&', at) - at - 6);
    std::size_t max = opt_.kind == api_kind::anthropic ? 1000 : 100;
    char* end = nullptr;
    auto n = std::strtoul(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || n < 1 || n > max)
      return reject(400, "invalid_request_error",
                    "limit: an integer from 1 to " + std::to_string(max));
    limit = n;
  }
  ++lists_;
  std::string data;
  std::string first, last;
  std::size_t listed = 0;
  for (auto it = batches_.rbegin(); it != batches_.rend() && listed < limit;
       ++it, ++listed) {
    data += (data.empty() ? "" : ",") + batch_json(**it);
    if (first.empty())
      first = (*it)->id;
    last = (*it)->id;
  }
  bool more = listed < batches_.size();
  auto id_or_null = [](const std::string& id) {
    return id.empty() ? std::string{"null"} : "\"" + id + "\"";
  };
  planned_reply r;
  r.body =
    std::string{opt_.kind == api_kind::openai ? R"({"object":"list",)" : "{"}
    + R"("data":[)" + data + R"(],"has_more":)" + (more ? "true" : "false")
    + R"(,"first_id":)" + id_or_null(first) + R"(,"last_id":)"
    + id_or_null(last) + "}";
  return r;
}

std::size_t fake_batches::lists() const {
  std::lock_guard<std::mutex> g(mtx_);
  return lists_;
}

planned_reply fake_batches::batch_reply(batch& b) {
  planned_reply r;
  r.body = batch_json(b);
  return r;
}

} // namespace ij::test
