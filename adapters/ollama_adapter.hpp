#pragma once
// Ollama's native chat API (reference/llm-http-apis.md §1): POST /api/chat
// with "stream": false always (Ollama streams NDJSON when it is absent),
// temperature / seed / num_predict sent explicitly in `options`.
#include <memory>
#include <string>

#include "adapters/http_judge.hpp"

namespace ij {

class ollama_adapter final : public http_judge {
public:
  explicit ollama_adapter(std::unique_ptr<http_client> client);

  /// The JSON body for one call (exposed for tests).
  static std::string request_body(const std::string& prompt,
                                  const call_options& opts);

  static const http_protocol protocol;

protected:
  http_post make_request(const std::string& prompt,
                         const call_options& opts) const override;
};

} // namespace ij
