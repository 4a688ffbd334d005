#include "adapters/batch_protocol.hpp"

#include <charconv>
#include <cstring>
#include <limits>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "adapters/api_error.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

// What surrounds the requests of each document.
constexpr std::string_view anthropic_head = R"({"requests":[)";
constexpr std::string_view anthropic_tail = "]}";
constexpr std::string_view openai_line_head = R"({"custom_id":")";
constexpr std::string_view openai_line_mid =
  R"(","method":"POST","url":"/v1/chat/completions","body":)";

using value = rapidjson::Value;

const value* member(const value& obj, const char* name) {
  if (!obj.IsObject())
    return nullptr;
  auto it = obj.FindMember(name);
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

std::string string_of(const value& obj, const char* name) {
  auto v = member(obj, name);
  return v && v->IsString() ? std::string{v->GetString(), v->GetStringLength()}
                            : std::string{};
}

std::uint64_t count_of(const value& obj, const char* name) {
  auto v = member(obj, name);
  return v && v->IsUint64() ? v->GetUint64() : 0;
}

std::string json_text(const value& v) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  v.Accept(w);
  return {buf.GetString(), buf.GetSize()};
}

caf::expected<rapidjson::Document> parse_object(std::string_view text,
                                                const char* what) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError())
    return make_error(errc::bad_reply,
                      std::string{what} + ": malformed JSON ("
                        + rapidjson::GetParseError_En(doc.GetParseError())
                        + "): " + body_excerpt(std::string{text}));
  if (!doc.IsObject())
    return make_error(errc::bad_reply, std::string{what}
                                         + ": not a JSON object: "
                                         + body_excerpt(std::string{text}));
  return doc;
}

/// The reply of a succeeded request, read like a synchronous one. The one
/// call of read_chat_reply in the batch code.
caf::expected<adapter_reply> read_reply(batch_api api,
                                        const std::string& body) {
  auto out = read_chat_reply(protocol_of(api), body);
  if (out)
    out->ok = true;
  return out;
}

/// Fills `r` from the inner reply body: succeeded, or errored when it cannot
/// be read (one bad reply is that vote's fault, not the file's).
void take_reply(batch_api api, const value& body, batch_result& r) {
  auto reply = read_reply(api, json_text(body));
  if (reply) {
    r.kind = result_kind::succeeded;
    r.reply = std::move(*reply);
    return;
  }
  r.kind = result_kind::errored;
  r.error = "unreadable reply: " + context_of(reply.error());
  r.error_type = "unreadable_reply";
}

std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  // H. Hinnant's algorithm: days since 1970-01-01 of a proleptic Gregorian
  // date.
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

caf::expected<std::int64_t> time_of(batch_api api, const value& obj,
                                    const char* name) {
  auto v = member(obj, name);
  if (!v || v->IsNull())
    return std::int64_t{0};
  if (api == batch_api::openai) {
    if (v->IsInt64())
      return v->GetInt64();
  } else if (v->IsString()) {
    return parse_rfc3339({v->GetString(), v->GetStringLength()});
  }
  return make_error(errc::bad_reply,
                    std::string{"\""} + name + "\" is not a time");
}

caf::expected<batch_state> state_of(batch_api api, const std::string& s) {
  if (api == batch_api::anthropic) {
    if (s == "in_progress")
      return batch_state::in_progress;
    if (s == "canceling")
      return batch_state::cancelling;
    if (s == "ended")
      return batch_state::ended;
  } else {
    static const std::pair<const char*, batch_state> names[] = {
      {"validating", batch_state::validating},
      {"in_progress", batch_state::in_progress},
      {"finalizing", batch_state::finalizing},
      {"completed", batch_state::ended},
      {"failed", batch_state::failed},
      {"expired", batch_state::expired},
      {"cancelling", batch_state::cancelling},
      {"cancelled", batch_state::cancelled}};
    for (auto& [name, state] : names)
      if (s == name)
        return state;
  }
  return make_error(errc::bad_reply,
                    std::string{"unknown batch status \""} + s + "\"");
}

caf::expected<batch_result> anthropic_result(const value& line) {
  batch_result r;
  r.custom_id = string_of(line, "custom_id");
  auto result = member(line, "result");
  if (r.custom_id.empty() || !result || !result->IsObject())
    return make_error(errc::bad_reply,
                      "a result line without custom_id and result");
  auto type = string_of(*result, "type");
  if (type == "succeeded") {
    auto message = member(*result, "message");
    if (!message || !message->IsObject())
      return make_error(errc::bad_reply,
                        "a succeeded result without message: " + r.custom_id);
    take_reply(batch_api::anthropic, *message, r);
  } else if (type == "errored") {
    // {"type":"error","error":{"type":..,"message":..},"request_id":..}
    r.kind = result_kind::errored;
    auto outer = member(*result, "error");
    auto inner = outer ? member(*outer, "error") : nullptr;
    if (inner) {
      r.error = string_of(*inner, "message");
      r.error_type = string_of(*inner, "type");
    }
    if (r.error.empty())
      r.error =
        outer ? body_excerpt(json_text(*outer)) : "errored (no error given)";
  } else if (type == "expired") {
    r.kind = result_kind::expired;
    r.error = "the batch expired before the request was processed";
  } else if (type == "canceled") {
    r.kind = result_kind::canceled;
    r.error = "the batch was canceled before the request was processed";
  } else {
    return make_error(errc::bad_reply, "unknown result type \"" + type
                                         + "\" for " + r.custom_id);
  }
  return r;
}

caf::expected<batch_result> openai_result(const value& line) {
  batch_result r;
  r.custom_id = string_of(line, "custom_id");
  if (r.custom_id.empty())
    return make_error(errc::bad_reply, "a result line without custom_id");
  auto error = member(line, "error");
  if (error && error->IsObject()) {
    // A non-HTTP failure: batch_expired, batch_cancelled, ...
    r.error_type = string_of(*error, "code");
    r.error = string_of(*error, "message");
    if (r.error_type == "batch_expired")
      r.kind = result_kind::expired;
    else if (r.error_type == "batch_cancelled")
      r.kind = result_kind::canceled;
    else
      r.kind = result_kind::errored;
    if (r.error.empty())
      r.error =
        r.error_type.empty() ? "errored (no message given)" : r.error_type;
    return r;
  }
  auto response = member(line, "response");
  if (!response || !response->IsObject())
    return make_error(errc::bad_reply,
                      "a result line with neither response nor error: "
                        + r.custom_id);
  auto code = member(*response, "status_code");
  auto body = member(*response, "body");
  r.status = code && code->IsUint() ? code->GetUint() : 0;
  if (r.status >= 200 && r.status < 300) {
    if (!body || !body->IsObject())
      return make_error(errc::bad_reply,
                        "a response without body: " + r.custom_id);
    take_reply(batch_api::openai, *body, r);
    return r;
  }
  // An error status: whatever its body, the request failed.
  r.kind = result_kind::errored;
  auto err = parse_api_error(body ? json_text(*body) : std::string{});
  r.error = "HTTP " + std::to_string(r.status) + ": " + err.message;
  r.error_type = err.type;
  return r;
}

} // namespace

const char* to_string(batch_api api) {
  return api == batch_api::anthropic ? "anthropic" : "openai";
}

caf::expected<batch_api> batch_api_for(const std::string& type) {
  for (auto api : {batch_api::anthropic, batch_api::openai})
    if (type == to_string(api))
      return api;
  return make_error(errc::bad_config,
                    "judge type \"" + type
                      + "\" has no batch API (anthropic, openai)");
}

const chat_protocol& protocol_of(batch_api api) {
  return *chat_protocol_for(to_string(api));
}

bool valid_custom_id(std::string_view id) {
  if (id.empty() || id.size() > max_custom_id_length)
    return false;
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return false;
  return true;
}

bool valid_run_tag(std::string_view tag) {
  if (tag.empty() || tag.size() > max_run_tag_length)
    return false;
  for (char c : tag)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
      return false;
  return true;
}

std::string make_custom_id(const vote_key& key) {
  return key.tag + "-p" + std::to_string(key.seq) + "-v"
         + std::to_string(key.vote);
}

caf::expected<vote_key> parse_custom_id(std::string_view id) {
  auto bad = [&] {
    return make_error(errc::bad_input,
                      "custom_id \"" + body_excerpt(std::string{id}, 80)
                        + "\" is not <run tag>-p<sequence>-v<vote>");
  };
  // A canonical decimal: digits only, no leading zero (one id per vote).
  auto number = [](std::string_view text, auto& out) {
    if (text.empty() || (text.size() > 1 && text[0] == '0'))
      return false;
    auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc{} && end == text.data() + text.size();
  };
  auto tag_end = id.find('-');
  if (tag_end == std::string_view::npos
      || !valid_run_tag(id.substr(0, tag_end)))
    return bad();
  vote_key key;
  key.tag = std::string{id.substr(0, tag_end)};
  id = id.substr(tag_end + 1);
  if (id.size() < 4 || id[0] != 'p')
    return bad();
  auto dash = id.find("-v");
  if (dash == std::string_view::npos)
    return bad();
  if (!number(id.substr(1, dash - 1), key.seq)
      || !number(id.substr(dash + 2), key.vote))
    return bad();
  return key;
}

batch_limits limits_of(batch_api api) {
  return api == batch_api::anthropic ? anthropic_batch_limits
                                     : openai_batch_limits;
}

caf::error check_batch(batch_api api, std::size_t requests, std::size_t bytes) {
  auto lim = limits_of(api);
  std::string name = to_string(api);
  if (requests == 0)
    return make_error(errc::bad_input,
                      "an empty " + name + " batch: at least one request");
  if (requests > lim.max_requests)
    return make_error(errc::bad_input, name + " batch of "
                                         + std::to_string(requests)
                                         + " requests exceeds the limit of "
                                         + std::to_string(lim.max_requests)
                                         + " requests per batch");
  if (bytes > lim.max_bytes)
    return make_error(errc::bad_input,
                      name + " batch of " + std::to_string(bytes)
                        + " bytes exceeds the limit of "
                        + std::to_string(lim.max_bytes) + " bytes per batch");
  return {};
}

batch_document::batch_document(batch_api api) : api_(api) {}

std::size_t batch_document::bytes() const {
  if (api_ == batch_api::openai)
    return buf_.size();
  // The head is written with the first request; the tail by finish().
  return (buf_.empty() ? anthropic_head.size() : buf_.size())
         + anthropic_tail.size();
}

caf::error batch_document::add(const std::string& custom_id,
                               const std::string& prompt,
                               const call_options& opts) {
  return add_body(custom_id,
                  chat_request_body(protocol_of(api_), prompt, opts));
}

caf::error batch_document::add_body(const std::string& custom_id,
                                    std::string_view body) {
  if (!valid_custom_id(custom_id))
    return make_error(
      errc::bad_input,
      "custom_id \"" + body_excerpt(custom_id, 80)
        + "\" is not 1-64 characters of a-z, A-Z, 0-9, _ and -");
  if (seen_.count(custom_id))
    return make_error(errc::bad_input, "custom_id \"" + custom_id
                                         + "\" is already in the batch");
  // The custom_id needs no escaping: its characters are plain.
  std::size_t added = api_ == batch_api::openai
                        ? openai_line_head.size() + custom_id.size()
                            + openai_line_mid.size() + body.size() + 2
                        : std::strlen(R"({"custom_id":"","params":})")
                            + custom_id.size() + body.size()
                            + (ids_.empty() ? 0 : 1);
  if (auto err = check_batch(api_, ids_.size() + 1, bytes() + added))
    return err;
  if (api_ == batch_api::openai) {
    buf_.append(openai_line_head).append(custom_id).append(openai_line_mid);
    buf_.append(body).append("}\n");
  } else {
    if (buf_.empty())
      buf_.append(anthropic_head);
    else
      buf_ += ',';
    buf_.append(R"({"custom_id":")").append(custom_id).append(R"(","params":)");
    buf_.append(body) += '}';
  }
  ids_.push_back(custom_id);
  seen_.insert(custom_id);
  return {};
}

caf::expected<std::string> batch_document::finish() {
  if (ids_.empty())
    return check_batch(api_, 0, 0);
  if (api_ == batch_api::anthropic)
    buf_.append(anthropic_tail);
  std::string out = std::move(buf_);
  buf_.clear();
  ids_.clear();
  seen_.clear();
  return out;
}

const char* to_string(batch_state state) {
  switch (state) {
    case batch_state::validating: return "validating";
    case batch_state::in_progress: return "in_progress";
    case batch_state::finalizing: return "finalizing";
    case batch_state::ended: return "ended";
    case batch_state::failed: return "failed";
    case batch_state::expired: return "expired";
    case batch_state::cancelling: return "cancelling";
    case batch_state::cancelled: return "cancelled";
  }
  return "unknown";
}

bool is_terminal(batch_state state) {
  return state == batch_state::ended || state == batch_state::failed
         || state == batch_state::expired || state == batch_state::cancelled;
}

caf::expected<std::int64_t> parse_rfc3339(std::string_view t) {
  auto bad = [&] {
    return make_error(errc::bad_reply, "\"" + body_excerpt(std::string{t}, 40)
                                         + "\" is not an RFC 3339 time");
  };
  auto digits = [&](std::size_t at, std::size_t n, int& out) {
    if (at + n > t.size())
      return false;
    out = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (t[i] < '0' || t[i] > '9')
        return false;
      out = out * 10 + (t[i] - '0');
    }
    return true;
  };
  int y, mo, d, h, mi, s;
  if (!digits(0, 4, y) || t.size() < 20 || t[4] != '-' || !digits(5, 2, mo)
      || t[7] != '-' || !digits(8, 2, d)
      || (t[10] != 'T' && t[10] != 't' && t[10] != ' ') || !digits(11, 2, h)
      || t[13] != ':' || !digits(14, 2, mi) || t[16] != ':'
      || !digits(17, 2, s))
    return bad();
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
    return bad();
  std::size_t at = 19;
  if (at < t.size() && t[at] == '.') {
    ++at;
    std::size_t start = at;
    while (at < t.size() && t[at] >= '0' && t[at] <= '9')
      ++at;
    if (at == start)
      return bad();
  }
  std::int64_t offset = 0;
  if (at < t.size() && (t[at] == 'Z' || t[at] == 'z')) {
    ++at;
  } else if (at < t.size() && (t[at] == '+' || t[at] == '-')) {
    int oh, om;
    if (!digits(at + 1, 2, oh) || at + 3 >= t.size() || t[at + 3] != ':'
        || !digits(at + 4, 2, om))
      return bad();
    offset = (oh * 3600 + om * 60) * (t[at] == '-' ? -1 : 1);
    at += 6;
  } else {
    return bad();
  }
  if (at != t.size())
    return bad();
  return days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d))
           * 86400
         + h * 3600 + mi * 60 + s - offset;
}

caf::expected<batch_status> parse_batch_status(batch_api api,
                                               std::string_view body) {
  auto doc = parse_object(body, "batch object");
  if (!doc)
    return doc.error();
  batch_status st;
  st.id = string_of(*doc, "id");
  auto kind = string_of(*doc, api == batch_api::anthropic ? "type" : "object");
  auto status = string_of(
    *doc, api == batch_api::anthropic ? "processing_status" : "status");
  const char* expected_kind =
    api == batch_api::anthropic ? "message_batch" : "batch";
  if (st.id.empty() || kind != expected_kind || status.empty())
    return make_error(errc::bad_reply,
                      std::string{"not a "} + to_string(api)
                        + " batch object: " + body_excerpt(std::string{body}));
  auto state = state_of(api, status);
  if (!state)
    return state.error();
  st.state = *state;
  auto created = time_of(api, *doc, "created_at");
  auto expires = time_of(api, *doc, "expires_at");
  if (!created)
    return created.error();
  if (!expires)
    return expires.error();
  st.created_at = *created;
  st.expires_at = *expires;
  auto counts = member(*doc, "request_counts");
  auto& c = st.counts;
  if (counts && counts->IsObject()) {
    if (api == batch_api::anthropic) {
      c.processing = count_of(*counts, "processing");
      c.succeeded = count_of(*counts, "succeeded");
      c.errored = count_of(*counts, "errored");
      c.canceled = count_of(*counts, "canceled");
      c.expired = count_of(*counts, "expired");
      c.total = c.processing + c.succeeded + c.errored + c.canceled + c.expired;
    } else {
      c.total = count_of(*counts, "total");
      c.succeeded = count_of(*counts, "completed");
      c.errored = count_of(*counts, "failed");
      auto done = c.succeeded + c.errored;
      c.processing =
        !is_terminal(st.state) && c.total > done ? c.total - done : 0;
    }
  }
  if (api == batch_api::anthropic) {
    st.results_url = string_of(*doc, "results_url");
    return st;
  }
  st.output_file_id = string_of(*doc, "output_file_id");
  st.error_file_id = string_of(*doc, "error_file_id");
  if (auto meta = member(*doc, "metadata"); meta && meta->IsObject())
    st.batch_key = string_of(*meta, "ij_batch_key");
  auto errors = member(*doc, "errors");
  auto data = errors ? member(*errors, "data") : nullptr;
  if (data && data->IsArray())
    for (auto& e : data->GetArray()) {
      std::string text;
      auto line = member(e, "line");
      if (line && line->IsUint64())
        text = "line " + std::to_string(line->GetUint64()) + ": ";
      auto code = string_of(e, "code");
      if (!code.empty())
        text += code + ": ";
      text += string_of(e, "message");
      st.errors.push_back(std::move(text));
    }
  return st;
}

caf::expected<std::vector<batch_status>>
parse_batch_list(batch_api api, std::string_view body) {
  auto doc = parse_object(body, "batch list");
  if (!doc)
    return doc.error();
  auto data = member(*doc, "data");
  if (!data || !data->IsArray())
    return make_error(errc::bad_reply,
                      std::string{"not a "} + to_string(api)
                        + " batch list: " + body_excerpt(std::string{body}));
  std::vector<batch_status> out;
  for (auto& item : data->GetArray()) {
    // Each item is a batch object: read it as one.
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    item.Accept(w);
    auto st =
      parse_batch_status(api, std::string_view{buf.GetString(), buf.GetSize()});
    if (!st)
      return st.error();
    out.push_back(std::move(*st));
  }
  return out;
}

const char* to_string(result_kind kind) {
  switch (kind) {
    case result_kind::succeeded: return "succeeded";
    case result_kind::errored: return "errored";
    case result_kind::expired: return "expired";
    case result_kind::canceled: return "canceled";
  }
  return "unknown";
}

caf::expected<batch_result> parse_result_line(batch_api api,
                                              std::string_view line) {
  auto doc = parse_object(line, "result line");
  if (!doc)
    return doc.error();
  return api == batch_api::anthropic ? anthropic_result(*doc)
                                     : openai_result(*doc);
}

std::vector<std::string>
missing_results(const std::vector<std::string>& sent,
                const std::vector<batch_result>& results) {
  std::unordered_set<std::string_view> answered;
  answered.reserve(results.size());
  for (auto& r : results)
    answered.insert(r.custom_id);
  std::vector<std::string> out;
  for (auto& id : sent)
    if (!answered.count(id))
      out.push_back(id);
  return out;
}

caf::expected<std::vector<batch_result>>
parse_result_lines(batch_api api, std::string_view jsonl) {
  std::vector<batch_result> out;
  std::size_t number = 0;
  std::size_t at = 0;
  while (at < jsonl.size()) {
    auto end = jsonl.find_first_of("\r\n", at);
    if (end == std::string_view::npos)
      end = jsonl.size();
    auto line = jsonl.substr(at, end - at);
    // \r\n counts as one line break.
    if (end < jsonl.size() && jsonl[end] == '\r' && end + 1 < jsonl.size()
        && jsonl[end + 1] == '\n')
      ++end;
    at = end + 1;
    ++number;
    if (line.find_first_not_of(" \t") == std::string_view::npos)
      continue;
    auto r = parse_result_line(api, line);
    if (!r)
      return make_error(errc::bad_reply, "results line "
                                           + std::to_string(number) + ": "
                                           + context_of(r.error()));
    out.push_back(std::move(*r));
  }
  return out;
}

} // namespace ij
