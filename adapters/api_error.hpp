#pragma once
// The server's own words from an HTTP error body, whatever the API's shape
// (reference/llm-http-apis.md §3–4): Ollama {"error":"str"}, Anthropic
// {"type":"error","error":{type,message}}, OpenAI / vLLM / llama.cpp
// {"error":{message,type,code}}, old vLLM flat {"message":...}; anything else
// (an HTML page from a proxy, plain text) becomes a short, printable excerpt.
#include <cstddef>
#include <string>

#include "messages/fault_kind.hpp"

namespace ij {

struct api_error {
  std::string message; // never empty: at worst "(empty body)"
  std::string type;    // e.g. "rate_limit_error"; may be empty
};

api_error parse_api_error(const std::string& body);

/// What an error status means for the judge record: 401/403 auth, 408
/// timeout, 429/529 rate limited, other 5xx server error, any other status
/// (other 4xx, or a redirect to where the API is not) bad request.
fault_kind fault_of_status(unsigned status);

/// A single-line excerpt of at most `max_chars` characters: HTML tags
/// dropped, whitespace collapsed, control bytes replaced.
std::string body_excerpt(const std::string& body, std::size_t max_chars = 160);

} // namespace ij
