#include "adapters/http_judge.hpp"

#include "adapters/redaction.hpp"

namespace ij {

namespace {

std::string attempts_note(const http_result& result) {
  return result.attempts > 1
           ? " (gave up after " + std::to_string(result.attempts) + " attempts)"
           : std::string{};
}

// An error status: the server's words, its error type, advice, the request
// id for a support request, and why no further attempt was made.
std::string status_error(const http_result& result, const chat_protocol& protocol,
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

} // namespace

adapter_reply to_adapter_reply(const http_result& result,
                               const chat_protocol& protocol,
                               const std::string& model,
                               const std::string& secret) {
  adapter_reply reply;
  reply.attempts = result.attempts;
  if (!result.responded) {
    reply.error = result.error;
    if (result.attempts > 1 && result.error.find("attempt") == std::string::npos)
      reply.error += attempts_note(result);
    reply.fault = result.fault == fault_kind::none ? fault_kind::connection : result.fault;
  } else if (result.status < 200 || result.status >= 300) {
    reply.error = status_error(result, protocol, model);
    reply.fault = fault_of_status(result.status);
  } else {
    std::string error;
    if (read_chat_reply(protocol, result.body, reply, error)) {
      reply.ok = true;
    } else {
      reply.text.clear();
      reply.error = "HTTP " + std::to_string(result.status)
                    + " with a body that is not the API's reply: " + error;
      reply.fault = fault_kind::unreadable_reply;
    }
  }
  reply.error = redact(std::move(reply.error), secret);
  reply.text = redact(std::move(reply.text), secret);
  return reply;
}

http_judge::http_judge(const chat_protocol& protocol, std::string secret,
                       std::unique_ptr<http_client> client)
  : protocol_(&protocol),
    secret_(std::make_shared<const std::string>(std::move(secret))),
    client_(std::move(client)) {
  id_ = std::string{protocol.kind} + "@" + client_->base().to_string();
}

void http_judge::call(const std::string& prompt, const call_options& opts,
                      reply_handler done) {
  auto request = chat_request(*protocol_, client_->base().path, *secret_, prompt, opts);
  // The handler may run after this adapter is gone (destroyed from inside
  // a handler), so it holds copies, never `this`.
  client_->post(std::move(request),
                [protocol = protocol_, secret = secret_, model = opts.model,
                 done = std::move(done)](http_result result) {
                  done(to_adapter_reply(result, *protocol, model, *secret));
                });
}

} // namespace ij
