#pragma once
// What the three HTTP judge backends share: one http_client per adapter,
// the judge_adapter contract on top of it, and the mapping of an HTTP
// outcome to an adapter_reply — transport failures and error statuses
// become ok=false with the server's own message; a 2xx body is parsed by
// the protocol. Every text leaving here has the API key redacted.
#include <cstdint>
#include <memory>
#include <string>

#include "adapters/api_error.hpp"
#include "adapters/http_client.hpp"
#include "adapters/judge_adapter.hpp"

namespace ij {

/// What a protocol does with the bodies of its API.
struct http_protocol {
  /// Parses a 2xx body into `out` (text, token counts); returns false and
  /// sets `error` if the body is not the API's success shape.
  bool (*parse_success)(const std::string& body, adapter_reply& out,
                        std::string& error) = nullptr;
  /// Extra advice for an error status (e.g. "run `ollama pull x`"); may
  /// return "".
  std::string (*advise)(unsigned status, const api_error& err,
                        const std::string& model) = nullptr;
};

class http_judge : public judge_adapter {
public:
  std::string id() const override {
    return id_;
  }

  void call(const std::string& prompt, const call_options& opts,
            reply_handler done) override;

  std::uint32_t current_concurrency() const override {
    return client_->current_concurrency();
  }

  /// Connections this adapter has opened (keep-alive reuse keeps it low).
  std::uint64_t connections_opened() const {
    return client_->connections_opened();
  }

protected:
  http_judge(std::string kind, http_protocol protocol, std::string secret,
             std::unique_ptr<http_client> client);

  /// The request for one call: target, protocol headers, JSON body.
  virtual http_post make_request(const std::string& prompt,
                                 const call_options& opts) const = 0;

  const url& base() const {
    return client_->base();
  }

  /// The key, for request headers only.
  const std::string& secret() const {
    return *secret_;
  }

private:
  std::string id_;
  http_protocol protocol_;
  std::shared_ptr<const std::string> secret_;
  // Last, so it is destroyed first: its destructor finishes every pending
  // call while the rest of the adapter still exists.
  std::unique_ptr<http_client> client_;
};

/// Maps one HTTP outcome to a reply (exposed for tests).
adapter_reply to_adapter_reply(const http_result& result,
                               const http_protocol& protocol,
                               const std::string& model,
                               const std::string& secret);

} // namespace ij
