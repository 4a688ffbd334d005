#pragma once
// Anthropic's Messages API (reference/llm-http-apis.md §2): POST
// /v1/messages with x-api-key and anthropic-version; max_tokens is
// required; the reply's text blocks are joined, other blocks ignored.
// Anthropic has no seed parameter.
#include <memory>
#include <string>

#include "adapters/http_judge.hpp"

namespace ij {

class anthropic_adapter final : public http_judge {
public:
  anthropic_adapter(std::string api_key, std::unique_ptr<http_client> client);

  static std::string request_body(const std::string& prompt,
                                  const call_options& opts);

  static const http_protocol protocol;

  bool supports_seed() const override {
    return false;
  }

protected:
  http_post make_request(const std::string& prompt,
                         const call_options& opts) const override;
};

} // namespace ij
