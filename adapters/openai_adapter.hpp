#pragma once
// OpenAI-compatible chat completions (vLLM, llama.cpp server, LM Studio,
// Ollama /v1; reference/llm-http-apis.md §3): POST {base}/chat/completions,
// optional bearer key; `message.content` may be null.
#include <memory>
#include <string>

#include "adapters/http_judge.hpp"

namespace ij {

class openai_adapter final : public http_judge {
public:
  /// `api_key` may be empty: local servers usually run without one.
  openai_adapter(std::string api_key, std::unique_ptr<http_client> client);

  static std::string request_body(const std::string& prompt,
                                  const call_options& opts);

  static const http_protocol protocol;

protected:
  http_post make_request(const std::string& prompt,
                         const call_options& opts) const override;
};

} // namespace ij
