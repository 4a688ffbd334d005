#pragma once
// The server's own words from an HTTP error body, whatever the API's shape
// (reference/llm-http-apis.md §3–4): Ollama {"error":"str"}, Anthropic
// {"type":"error","error":{type,message}}, OpenAI / vLLM / llama.cpp
// {"error":{message,type,code}}, old vLLM flat {"message":...}; anything else
// (an HTML page from a proxy, plain text) becomes a short, printable excerpt.
#include <cstddef>
#include <string>

namespace ij {

struct api_error {
  std::string message;  // never empty: at worst "(empty body)"
  std::string type;     // e.g. "rate_limit_error"; may be empty
};

api_error parse_api_error(const std::string& body);

/// A single-line excerpt of at most `max_chars` characters: HTML tags
/// dropped, whitespace collapsed, control bytes replaced.
std::string body_excerpt(const std::string& body, std::size_t max_chars = 160);

} // namespace ij
