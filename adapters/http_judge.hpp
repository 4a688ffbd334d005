#pragma once
// An HTTP judge: one adapter type for the three chat APIs, each described by
// its chat_protocol (adapters/chat_protocol.hpp), over one http_client per
// adapter. An HTTP outcome becomes an adapter_reply: transport failures and
// error statuses become ok=false with the server's own message and a
// classified fault kind; a 2xx body is read by the protocol. Every text
// leaving here has the API key redacted.
//
// A backend that refuses the judge's "constrain" or "logprobs" setting
// (HTTP 400/422 whose error names the field) is a configuration fault named
// once: that reply says which setting and why, and every later call of this
// adapter is answered at once, not sent (a fault, never a PARSE_ERROR).
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "adapters/chat_protocol.hpp"
#include "adapters/http_client.hpp"
#include "adapters/judge_adapter.hpp"

namespace ij {

class http_judge final : public judge_adapter {
public:
  /// `secret`: the API key ("" for none), sent as the protocol says.
  http_judge(const chat_protocol& protocol, std::string secret,
             std::unique_ptr<http_client> client);

  /// "<kind>@<base URL>", e.g. "ollama@http://127.0.0.1:11434".
  std::string id() const override { return id_; }

  void call(const std::string& prompt, const call_options& opts,
            reply_handler done) override;

  /// Aborts the call through the HTTP client (its connection is closed).
  void abort(std::uint64_t call_id) override;

  bool supports_seed() const override { return protocol_->sends_seed; }

  std::uint32_t current_concurrency() const override {
    return client_->current_concurrency();
  }

  std::uint32_t calls_ahead() const override { return client_->calls_ahead(); }

  /// Connections this adapter has opened (keep-alive reuse keeps it low).
  std::uint64_t connections_opened() const {
    return client_->connections_opened();
  }

  /// What a backend's refusal of a setting stops (shared with the reply
  /// handlers, which may outlive the adapter).
  struct refused_setting {
    std::mutex mutex;
    /// The first refusal's words; empty while none.
    std::string text;
  };

private:
  std::string id_;
  std::shared_ptr<refused_setting> refused_;
  const chat_protocol* protocol_;
  std::shared_ptr<const std::string> secret_;
  // Last, so it is destroyed first: its destructor finishes every pending
  // call while the rest of the adapter still exists.
  std::unique_ptr<http_client> client_;
};

/// The setting a refusal names ("\"constrain\": \"json\"", "\"logprobs\""),
/// or empty: an HTTP 400/422 whose error text mentions a field the setting
/// sent (exposed for tests).
std::string refused_setting_of(const http_result& result,
                               const call_options& opts);

/// Maps one HTTP outcome to a reply (exposed for tests).
adapter_reply to_adapter_reply(const http_result& result,
                               const chat_protocol& protocol,
                               const std::string& model,
                               const std::string& secret);

} // namespace ij
