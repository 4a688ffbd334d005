#include "adapters/http_judge.hpp"

#include "adapters/redaction.hpp"

namespace ij {

adapter_reply to_adapter_reply(const http_result& result,
                               const http_protocol& protocol,
                               const std::string& model,
                               const std::string& secret) {
  adapter_reply reply;
  reply.attempts = result.attempts;
  auto attempts_note = [&] {
    return result.attempts > 1
             ? " (gave up after " + std::to_string(result.attempts) + " attempts)"
             : std::string{};
  };
  if (!result.responded) {
    reply.error = result.error;
    if (result.attempts > 1 && result.error.find("attempt") == std::string::npos)
      reply.error += attempts_note();
  } else if (result.status < 200 || result.status >= 300) {
    auto err = parse_api_error(result.body);
    reply.error = "HTTP " + std::to_string(result.status);
    if (!err.type.empty())
      reply.error += " " + err.type;
    reply.error += ": " + err.message;
    if (protocol.advise) {
      auto advice = protocol.advise(result.status, err, model);
      if (!advice.empty())
        reply.error += " — " + advice;
    }
    if (!result.request_id.empty())
      reply.error += " [request-id " + result.request_id + "]";
    reply.error += attempts_note();
    if (!result.error.empty())
      reply.error += "; " + result.error;
  } else {
    std::string error;
    if (protocol.parse_success(result.body, reply, error)) {
      reply.ok = true;
    } else {
      reply.ok = false;
      reply.text.clear();
      reply.error = "HTTP " + std::to_string(result.status) +
                    " with a body that is not the API's reply: " + error;
    }
  }
  reply.error = redact(std::move(reply.error), secret);
  reply.text = redact(std::move(reply.text), secret);
  return reply;
}

http_judge::http_judge(std::string kind, http_protocol protocol,
                       std::string secret, std::unique_ptr<http_client> client)
  : protocol_(protocol),
    secret_(std::make_shared<const std::string>(std::move(secret))),
    client_(std::move(client)) {
  id_ = kind + "@" + client_->base().to_string();
}

void http_judge::call(const std::string& prompt, const call_options& opts,
                      reply_handler done) {
  auto request = make_request(prompt, opts);
  request.timeout = opts.timeout;
  // The handler may run after this adapter is gone (destroyed from inside
  // a handler), so it holds copies, never `this`.
  client_->post(std::move(request),
                [protocol = protocol_, secret = secret_, model = opts.model,
                 done = std::move(done)](http_result result) {
                  done(to_adapter_reply(result, protocol, model, *secret));
                });
}

} // namespace ij
