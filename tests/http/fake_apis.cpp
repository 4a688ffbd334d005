#include "tests/http/fake_apis.hpp"

#include <regex>

#include <boost/beast/http.hpp>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace ij::test {

namespace http = boost::beast::http;

namespace {

using writer = rapidjson::Writer<rapidjson::StringBuffer>;

template <class F>
std::string json(F&& build) {
  rapidjson::StringBuffer buf;
  writer w(buf);
  build(w);
  return {buf.GetString(), buf.GetSize()};
}

std::string header(const fake_request& req, const char* name) {
  auto it = req.find(name);
  return it == req.end() ? std::string{} : std::string(it->value());
}

bool is_number(const rapidjson::Value& v) {
  return v.IsNumber();
}

} // namespace

fake_api::fake_api(fake_api_options options) : opt_(std::move(options)) {
  server_ = std::make_unique<fake_server>(
    [this](const fake_request& req, const request_context&) {
      return handle(req);
    },
    opt_.threads, opt_.tls);
}

std::string fake_api::base_url() const {
  return server_->base_url();
}

void fake_api::script(std::vector<planned_reply> replies) {
  std::lock_guard<std::mutex> guard(mtx_);
  for (auto& r : replies)
    script_.push_back(std::move(r));
}

std::vector<std::string> fake_api::prompts() const {
  std::lock_guard<std::mutex> guard(mtx_);
  return prompts_;
}

std::vector<std::string> fake_api::violations() const {
  std::lock_guard<std::mutex> guard(mtx_);
  return violations_;
}

std::vector<std::string> fake_api::bodies() const {
  std::lock_guard<std::mutex> guard(mtx_);
  return bodies_;
}

planned_reply fake_api::success(const std::string& text) const {
  return success_with(text, nullptr);
}

planned_reply fake_api::success_with(const std::string& text,
                                     const std::vector<fake_token>* tokens,
                                     const std::string& tool_input) const {
  planned_reply r;
  switch (opt_.kind) {
    case api_kind::ollama:
      r.body = json([&](writer& w) {
        w.StartObject();
        w.Key("model");
        w.String(opt_.model);
        w.Key("created_at");
        w.String("2026-12-02T13:00:00.000000Z");
        w.Key("message");
        w.StartObject();
        w.Key("role");
        w.String("assistant");
        w.Key("content");
        w.String(text);
        w.EndObject();
        w.Key("done_reason");
        w.String("stop");
        w.Key("done");
        w.Bool(true);
        w.Key("total_duration");
        w.Uint64(123456789);
        w.Key("prompt_eval_count");
        w.Uint64(opt_.input_tokens);
        w.Key("eval_count");
        w.Uint64(opt_.output_tokens);
        if (tokens) {
          w.Key("logprobs");
          write_tokens(w, *tokens, false);
        }
        w.EndObject();
      });
      break;
    case api_kind::anthropic:
      r.headers = {{"request-id", "req_011CTestRequest"}};
      r.body = json([&](writer& w) {
        w.StartObject();
        w.Key("id");
        w.String("msg_01Test");
        w.Key("type");
        w.String("message");
        w.Key("role");
        w.String("assistant");
        w.Key("model");
        w.String(opt_.model);
        w.Key("content");
        w.StartArray();
        if (!text.empty()) {
          w.StartObject();
          w.Key("type");
          w.String("text");
          w.Key("text");
          w.String(text);
          w.EndObject();
        }
        if (!tool_input.empty()) {
          w.StartObject();
          w.Key("type");
          w.String("tool_use");
          w.Key("id");
          w.String("toolu_01Test");
          w.Key("name");
          w.String("judge_verdict");
          w.Key("input");
          w.RawValue(tool_input.data(), tool_input.size(),
                     rapidjson::kObjectType);
          w.EndObject();
        }
        w.EndArray();
        w.Key("stop_reason");
        w.String(tool_input.empty() ? "end_turn" : "tool_use");
        w.Key("stop_sequence");
        w.Null();
        w.Key("usage");
        w.StartObject();
        w.Key("input_tokens");
        w.Uint64(opt_.input_tokens);
        w.Key("output_tokens");
        w.Uint64(opt_.output_tokens);
        w.Key("cache_read_input_tokens");
        w.Uint64(0);
        w.EndObject();
        w.EndObject();
      });
      break;
    case api_kind::openai:
      r.body = json([&](writer& w) {
        w.StartObject();
        w.Key("id");
        w.String("chatcmpl-test");
        w.Key("object");
        w.String("chat.completion");
        w.Key("created");
        w.Uint64(1764680400);
        w.Key("model");
        w.String(opt_.model);
        w.Key("choices");
        w.StartArray();
        w.StartObject();
        w.Key("index");
        w.Uint(0);
        w.Key("message");
        w.StartObject();
        w.Key("role");
        w.String("assistant");
        w.Key("content");
        w.String(text);
        w.Key("reasoning_content");
        w.Null();
        w.EndObject();
        w.Key("logprobs");
        if (tokens) {
          w.StartObject();
          w.Key("content");
          // llama.cpp adds each token's id; a vLLM-like fake does not.
          write_tokens(w, *tokens, opt_.grammar_field == "grammar");
          w.Key("refusal");
          w.Null();
          w.EndObject();
        } else {
          w.Null();
        }
        w.Key("finish_reason");
        w.String("stop");
        w.EndObject();
        w.EndArray();
        w.Key("usage");
        w.StartObject();
        w.Key("prompt_tokens");
        w.Uint64(opt_.input_tokens);
        w.Key("completion_tokens");
        w.Uint64(opt_.output_tokens);
        w.Key("total_tokens");
        w.Uint64(opt_.input_tokens + opt_.output_tokens);
        w.EndObject();
        w.EndObject();
      });
      break;
  }
  return r;
}

planned_reply fake_api::empty_content() const {
  if (opt_.kind != api_kind::openai)
    return success("");
  auto r = success("");
  // OpenAI-compatible servers send null content (e.g. after tool calls).
  auto pos = r.body.find("\"content\":\"\"");
  r.body.replace(pos, 12, "\"content\":null");
  return r;
}

planned_reply fake_api::error(unsigned status, const std::string& type,
                              const std::string& message) const {
  planned_reply r;
  r.status = status;
  switch (opt_.kind) {
    case api_kind::ollama:
      r.body = json([&](writer& w) {
        w.StartObject();
        w.Key("error");
        w.String(message);
        w.EndObject();
      });
      break;
    case api_kind::anthropic:
      r.headers = {{"request-id", "req_011CTestError"}};
      r.body = json([&](writer& w) {
        w.StartObject();
        w.Key("type");
        w.String("error");
        w.Key("error");
        w.StartObject();
        w.Key("type");
        w.String(type);
        w.Key("message");
        w.String(message);
        w.EndObject();
        w.Key("request_id");
        w.String("req_011CTestError");
        w.EndObject();
      });
      break;
    case api_kind::openai:
      r.body = json([&](writer& w) {
        w.StartObject();
        w.Key("error");
        w.StartObject();
        w.Key("message");
        w.String(message);
        w.Key("type");
        w.String(type);
        w.Key("param");
        w.Null();
        w.Key("code");
        w.Uint(status);
        w.EndObject();
        w.EndObject();
      });
      break;
  }
  return r;
}

planned_reply fake_api::html_page(unsigned status, const std::string& title) {
  planned_reply r;
  r.status = status;
  r.content_type = "text/html";
  r.body =
    "<html>\r\n<head><title>" + title
    + "</title></head>\r\n<body>\r\n<center><h1>" + title
    + "</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";
  return r;
}

planned_reply fake_api::reject(unsigned status, const std::string& type,
                               const std::string& message) {
  violations_.push_back(message);
  return error(status, type, message);
}

bool fake_api::validate(const fake_request& req, std::string& prompt,
                        planned_reply& rejection, bool& stream_absent) {
  std::string path;
  switch (opt_.kind) {
    case api_kind::ollama: path = "/api/chat"; break;
    case api_kind::anthropic: path = "/v1/messages"; break;
    case api_kind::openai: path = "/v1/chat/completions"; break;
  }
  if (req.target() != path) {
    rejection = reject(404, "not_found_error",
                       "no route for " + std::string(req.target()));
    return false;
  }
  if (req.method() != http::verb::post) {
    rejection = reject(405, "invalid_request_error", "method not allowed");
    return false;
  }
  if (header(req, "content-type").rfind("application/json", 0) != 0) {
    rejection = reject(400, "invalid_request_error",
                       "content-type must be application/json");
    return false;
  }
  if (opt_.kind == api_kind::anthropic) {
    auto key = header(req, "x-api-key");
    if (key != opt_.api_key) {
      std::string msg = "invalid x-api-key";
      if (opt_.echo_key_in_errors)
        msg += " '" + key + "'";
      rejection = error(401, "authentication_error", msg);
      return false;
    }
    if (header(req, "anthropic-version") != "2023-06-01") {
      rejection = reject(400, "invalid_request_error",
                         "anthropic-version: header is required");
      return false;
    }
  }
  if (opt_.kind == api_kind::openai && !opt_.api_key.empty()
      && header(req, "authorization") != "Bearer " + opt_.api_key) {
    std::string msg = "Incorrect API key provided";
    if (opt_.echo_key_in_errors)
      msg += ": " + header(req, "authorization");
    rejection = error(401, "authentication_error", msg);
    return false;
  }
  if (opt_.kind == api_kind::openai && opt_.api_key.empty()
      && req.find("authorization") != req.end()) {
    rejection = reject(400, "invalid_request_error",
                       "unexpected authorization header for a keyless server");
    return false;
  }
  rapidjson::Document doc;
  doc.Parse(req.body().data(), req.body().size());
  if (doc.HasParseError() || !doc.IsObject()) {
    rejection = reject(400, "invalid_request_error", "malformed JSON body");
    return false;
  }
  auto model = doc.FindMember("model");
  if (model == doc.MemberEnd() || !model->value.IsString()) {
    rejection =
      reject(400, "invalid_request_error", "model: field required (string)");
    return false;
  }
  auto messages = doc.FindMember("messages");
  if (messages == doc.MemberEnd() || !messages->value.IsArray()
      || messages->value.Empty()) {
    rejection = reject(400, "invalid_request_error",
                       "messages: non-empty array required");
    return false;
  }
  for (auto& m : messages->value.GetArray()) {
    if (!m.IsObject() || !m.HasMember("role") || !m["role"].IsString()
        || !m.HasMember("content") || !m["content"].IsString()) {
      rejection = reject(400, "invalid_request_error",
                         "messages: each needs role and content strings");
      return false;
    }
    std::string role = m["role"].GetString();
    if (role == "system" && opt_.kind == api_kind::anthropic) {
      rejection = reject(400, "invalid_request_error",
                         "messages: system is a top-level field, not a role");
      return false;
    }
  }
  auto& last = messages->value[messages->value.Size() - 1];
  prompt.assign(last["content"].GetString(), last["content"].GetStringLength());
  auto check_number = [&](const rapidjson::Value& obj, const char* name,
                          bool integer, bool required) {
    auto it = obj.FindMember(name);
    if (it == obj.MemberEnd())
      return !required;
    return integer ? (it->value.IsInt64() || it->value.IsUint64())
                   : is_number(it->value);
  };
  switch (opt_.kind) {
    case api_kind::ollama: {
      auto stream = doc.FindMember("stream");
      stream_absent = stream == doc.MemberEnd();
      if (!stream_absent && !stream->value.IsBool()) {
        rejection =
          reject(400, "invalid_request_error", "stream: bool expected");
        return false;
      }
      if (stream_absent || stream->value.GetBool())
        violations_.push_back("stream not false: the reply streams NDJSON");
      auto options = doc.FindMember("options");
      if (options != doc.MemberEnd()) {
        if (!options->value.IsObject()
            || !check_number(options->value, "temperature", false, false)
            || !check_number(options->value, "seed", true, false)
            || !check_number(options->value, "num_predict", true, false)) {
          rejection =
            reject(400, "invalid_request_error", "options: bad types");
          return false;
        }
      }
      if (model->value.GetString() != opt_.model) {
        rejection = error(404, "not_found_error",
                          "model '" + std::string(model->value.GetString())
                            + "' not found");
        return false;
      }
      break;
    }
    case api_kind::anthropic: {
      if (!check_number(doc, "max_tokens", true, true)) {
        rejection =
          reject(400, "invalid_request_error", "max_tokens: Field required");
        return false;
      }
      if (!check_number(doc, "temperature", false, false)) {
        rejection =
          reject(400, "invalid_request_error", "temperature: number expected");
        return false;
      }
      if (doc.HasMember("seed")) {
        rejection = reject(400, "invalid_request_error",
                           "seed: Extra inputs are not permitted");
        return false;
      }
      break;
    }
    case api_kind::openai: {
      if (!check_number(doc, "temperature", false, false)
          || !check_number(doc, "max_tokens", true, false)
          || !check_number(doc, "seed", true, false)) {
        rejection = reject(400, "invalid_request_error", "bad parameter types");
        return false;
      }
      auto stream = doc.FindMember("stream");
      if (stream != doc.MemberEnd()
          && !(stream->value.IsBool() && !stream->value.GetBool()))
        violations_.push_back("stream requested: the reply would be SSE");
      break;
    }
  }
  return true;
}

planned_reply fake_api::handle(const fake_request& req) {
  std::lock_guard<std::mutex> guard(mtx_);
  if (opt_.record_requests)
    bodies_.push_back(req.body());
  std::string prompt;
  planned_reply rejection;
  bool stream_absent = false;
  if (!validate(req, prompt, rejection, stream_absent)) {
    // A request that is not a call (an HTTP judge's round-trip probe, a
    // GET) is refused at once, as a real server's router does.
    if (req.method() == http::verb::post)
      rejection.delay = opt_.latency;
    return rejection;
  }
  if (opt_.record_requests)
    prompts_.push_back(prompt);
  if (stream_absent) {
    // What the real Ollama does without "stream": false.
    planned_reply r;
    r.content_type = "application/x-ndjson";
    r.body = "{\"model\":\"" + opt_.model
             + "\",\"message\":{\"role\":\"assistant\",\"content\":\"EQUI\"},"
               "\"done\":false}\n"
               "{\"model\":\""
             + opt_.model
             + "\",\"message\":{\"role\":\"assistant\",\"content\":\"VALENT\"},"
               "\"done\":false}\n"
               "{\"model\":\""
             + opt_.model
             + "\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},"
               "\"done\":true,"
               "\"done_reason\":\"stop\",\"eval_count\":2}\n";
    return r;
  }
  planned_reply r;
  if (!script_.empty()) {
    r = std::move(script_.front());
    script_.pop_front();
  } else if (opt_.reads_prompt) {
    r = success(opt_.reads_prompt(prompt));
  } else if (opt_.model_replies) {
    rapidjson::Document doc;
    doc.Parse(req.body().data(), req.body().size());
    r = model_reply(doc);
  } else {
    r = success(opt_.reply_text);
  }
  if (r.delay.count() == 0)
    r.delay = opt_.latency;
  return r;
}

asked_constraint fake_api::constraint_of(const rapidjson::Document& doc,
                                         std::string& field) {
  auto obj = [&](const rapidjson::Value& v,
                 const char* name) -> const rapidjson::Value* {
    auto it = v.FindMember(name);
    return it != v.MemberEnd() && it->value.IsObject() ? &it->value : nullptr;
  };
  auto str = [&](const rapidjson::Value& v, const char* name) -> std::string {
    auto it = v.FindMember(name);
    return it != v.MemberEnd() && it->value.IsString() ? it->value.GetString()
                                                       : "";
  };
  // A schema of the four fields, all required (strict mode requires it).
  auto verdict_schema = [&](const rapidjson::Value* schema) {
    if (!schema)
      return false;
    auto props = obj(*schema, "properties");
    auto req = schema->FindMember("required");
    return props && props->HasMember("decision") && req != schema->MemberEnd()
           && req->value.IsArray() && req->value.Size() == 4;
  };
  switch (opt_.kind) {
    case api_kind::openai: {
      if (doc.HasMember("guided_regex") || doc.HasMember("guided_grammar"))
        violations_.push_back(
          "guided_* fields: removed in vLLM 0.12 (ignored, unconstrained)");
      if (opt_.grammar_field == "structured_outputs") {
        if (auto so = obj(doc, "structured_outputs");
            so && !str(*so, "regex").empty()) {
          field = "structured_outputs";
          std::regex re(str(*so, "regex"));
          if (!std::regex_match(verdict_lines(opt_.verdict), re))
            violations_.push_back(
              "structured_outputs.regex does not match the four lines");
          return asked_constraint::grammar;
        }
      } else if (str(doc, "grammar").find("root ::=") != std::string::npos) {
        field = "grammar";
        return asked_constraint::grammar;
      }
      if (auto rf = obj(doc, "response_format")) {
        auto js = obj(*rf, "json_schema");
        auto strict = js ? js->FindMember("strict")
                         : rapidjson::Value::ConstMemberIterator{};
        if (str(*rf, "type") != "json_schema" || !js || str(*js, "name").empty()
            || strict == js->MemberEnd() || !strict->value.IsTrue()
            || !verdict_schema(obj(*js, "schema")))
          violations_.push_back(
            "response_format is not a strict json_schema of the verdict");
        field = "response_format";
        return asked_constraint::json;
      }
      return asked_constraint::none;
    }
    case api_kind::ollama: {
      auto it = doc.FindMember("format");
      if (it == doc.MemberEnd())
        return asked_constraint::none;
      field = "format";
      if (!it->value.IsObject() || !verdict_schema(&it->value))
        violations_.push_back("format is not the verdict's JSON schema");
      return asked_constraint::json;
    }
    case api_kind::anthropic: {
      auto choice = obj(doc, "tool_choice");
      if (!choice)
        return asked_constraint::none;
      field = "tool_choice";
      bool found = false;
      auto tools = doc.FindMember("tools");
      if (tools != doc.MemberEnd() && tools->value.IsArray())
        for (auto& t : tools->value.GetArray())
          found = found
                  || (t.IsObject() && str(t, "name") == str(*choice, "name")
                      && verdict_schema(obj(t, "input_schema")));
      if (str(*choice, "type") != "tool" || !found)
        violations_.push_back(
          "tool_choice does not force a verdict tool of the tools given");
      return asked_constraint::json;
    }
  }
  return asked_constraint::none;
}

planned_reply fake_api::model_reply(const rapidjson::Document& doc) {
  std::string field;
  auto constraint = constraint_of(doc, field);
  if (constraint != asked_constraint::none && opt_.rejects_constraints)
    return error(400, "invalid_request_error",
                 field + ": structured output is not supported by this server");
  bool want_logprobs = false;
  if (opt_.supports_logprobs && opt_.kind != api_kind::anthropic) {
    auto lp = doc.FindMember("logprobs");
    auto top = doc.FindMember("top_logprobs");
    want_logprobs = lp != doc.MemberEnd() && lp->value.IsTrue();
    if (top != doc.MemberEnd()) {
      if (!top->value.IsInt())
        return error(400, "invalid_request_error",
                     "top_logprobs: integer expected");
      if (opt_.kind == api_kind::openai && !want_logprobs)
        return error(
          400, "BadRequestError",
          "when using `top_logprobs`, `logprobs` must be set to true.");
      int k = top->value.GetInt();
      if (k < 0 || k > 20)
        return error(400, "invalid_request_error",
                     opt_.kind == api_kind::ollama
                       ? std::string{"top_logprobs must be between 0 and 20"}
                       : "Requested sample logprobs of " + std::to_string(k)
                           + ", which is greater than max allowed: 20");
    }
  }
  auto verdict = opt_.verdict;
  auto alternatives = opt_.decision_alternatives;
  if (opt_.decide)
    opt_.decide(doc, verdict, alternatives);
  std::string text;
  switch (constraint) {
    case asked_constraint::grammar: text = verdict_lines(verdict); break;
    case asked_constraint::json: text = verdict_json(verdict); break;
    case asked_constraint::none:
      text = opt_.sloppy_unless_constrained
               ? sloppy_reply(verdict, unconstrained_++)
               : verdict_lines(verdict);
      break;
  }
  if (opt_.kind == api_kind::anthropic && constraint == asked_constraint::json)
    return success_with("", nullptr, text);
  if (!want_logprobs)
    return success_with(text, nullptr);
  auto tokens = fake_tokens(text, alternatives);
  return success_with(text, &tokens);
}

} // namespace ij::test
