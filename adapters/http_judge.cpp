#include "adapters/http_judge.hpp"

#include <initializer_list>

#include "adapters/redaction.hpp"
#include "core/text.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

std::string attempts_note(const http_result& result) {
  return result.attempts > 1
           ? " (gave up after " + std::to_string(result.attempts) + " attempts)"
           : std::string{};
}

// An error status: the server's words, its error type, advice, the request
// id for a support request, and why no further attempt was made.
std::string status_error(const http_result& result,
                         const chat_protocol& protocol,
                         const std::string& model) {
  auto err = parse_api_error(result.body);
  std::string text = "HTTP " + std::to_string(result.status);
  if (!err.type.empty())
    text += " " + err.type;
  text += ": " + err.message;
  if (protocol.advise) {
    auto advice = protocol.advise(result.status, err, model);
    if (!advice.empty())
      text += " — " + advice;
  }
  if (!result.request_id.empty())
    text += " [request-id " + result.request_id + "]";
  text += attempts_note(result);
  if (!result.error.empty())
    text += "; " + result.error;
  return text;
}

bool mentions_any(const std::string& lowered,
                  std::initializer_list<const char*> words) {
  for (auto w : words)
    if (lowered.find(w) != std::string::npos)
      return true;
  return false;
}

} // namespace

std::string refused_setting_of(const http_result& result,
                               const call_options& opts) {
  if (!result.responded || (result.status != 400 && result.status != 422))
    return {};
  auto err = parse_api_error(result.body);
  auto text = err.message + " " + result.body;
  for (auto& c : text)
    c = text::lower(c);
  if (opts.constrain == reply_constraint::grammar
      && mentions_any(text,
                      {"structured_outputs", "grammar", "regex", "guided"}))
    return "\"constrain\": \"grammar\"";
  if (opts.constrain == reply_constraint::json
      && mentions_any(text, {"response_format", "json_schema", "format",
                             "tool_choice", "tools", "schema"}))
    return "\"constrain\": \"json\"";
  if (opts.logprobs && mentions_any(text, {"logprobs"}))
    return "\"logprobs\"";
  return {};
}

adapter_reply to_adapter_reply(const http_result& result,
                               const chat_protocol& protocol,
                               const std::string& model,
                               const std::string& secret) {
  adapter_reply reply;
  reply.attempts = result.attempts;
  if (!result.responded) {
    reply.error = result.error;
    if (result.attempts > 1
        && result.error.find("attempt") == std::string::npos)
      reply.error += attempts_note(result);
    reply.fault =
      result.fault == fault_kind::none ? fault_kind::connection : result.fault;
    // An aborted call says whether the backend saw it (judge_adapter.hpp).
    if (reply.fault == fault_kind::aborted)
      reply.attempts = result.requests_sent;
  } else if (result.status < 200 || result.status >= 300) {
    reply.error = status_error(result, protocol, model);
    reply.fault = fault_of_status(result.status);
  } else {
    if (auto read = read_chat_reply(protocol, result.body)) {
      read->ok = true;
      read->attempts = reply.attempts;
      reply = std::move(*read);
    } else {
      reply.text.clear();
      reply.error = "HTTP " + std::to_string(result.status)
                    + " with a body that is not the API's reply: "
                    + context_of(read.error());
      reply.fault = fault_kind::unreadable_reply;
    }
  }
  reply.error = redact(std::move(reply.error), secret);
  reply.text = redact(std::move(reply.text), secret);
  return reply;
}

http_judge::http_judge(const chat_protocol& protocol, std::string secret,
                       std::unique_ptr<http_client> client)
    : refused_(std::make_shared<refused_setting>()), protocol_(&protocol),
      secret_(std::make_shared<const std::string>(std::move(secret))),
      client_(std::move(client)) {
  id_ = std::string{protocol.kind} + "@" + client_->base().to_string();
}

void http_judge::abort(std::uint64_t call_id) {
  client_->abort(call_id);
}

void http_judge::call(const std::string& prompt, const call_options& opts,
                      reply_handler done) {
  {
    std::unique_lock<std::mutex> lock(refused_->mutex);
    if (!refused_->text.empty()) {
      adapter_reply r;
      r.attempts = 0;
      r.fault = fault_kind::bad_request;
      r.error = "not sent: " + refused_->text;
      lock.unlock();
      done(std::move(r));
      return;
    }
  }
  auto request =
    chat_request(*protocol_, client_->base().path, *secret_, prompt, opts);
  request.call_id = opts.call_id;
  // The handler may run after this adapter is gone (destroyed from inside
  // a handler), so it holds copies, never `this`.
  client_->post(std::move(request), [protocol = protocol_, secret = secret_,
                                     refused = refused_, opts,
                                     done =
                                       std::move(done)](http_result result) {
    auto reply = to_adapter_reply(result, *protocol, opts.model, *secret);
    auto setting = refused_setting_of(result, opts);
    if (!setting.empty()) {
      std::lock_guard<std::mutex> lock(refused->mutex);
      bool first = refused->text.empty();
      if (first)
        refused->text = "the backend rejects this judge's " + setting + " ("
                        + reply.error + ")";
      reply.error = redact(refused->text, *secret)
                    + " — a configuration problem: change or remove " + setting
                    + " in the judge's configuration"
                    + (first ? "; no further call is made to this judge" : "");
      reply.fault = fault_kind::bad_request;
    }
    done(std::move(reply));
  });
}

} // namespace ij
