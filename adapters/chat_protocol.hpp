#pragma once
// The three chat APIs the HTTP judges speak (reference/llm-http-apis.md), as
// data: where the request goes, which headers and fields it carries, where
// the reply's text and token counts are. One request writer and one reply
// reader serve all three, so a field handled for one API is handled for all.
//
//   Ollama native  POST {base}/api/chat       "stream": false always (Ollama
//                  streams NDJSON when it is absent); temperature, seed and
//                  num_predict inside "options"; counts at the top level.
//   Anthropic      POST {base}/v1/messages    x-api-key, anthropic-version;
//                  max_tokens required; no seed; the text is every "text"
//                  block of "content" joined (thinking and tool blocks are
//                  not the answer).
//   OpenAI-compat. POST {base}/chat/completions  optional bearer key; the
//                  text is choices[0].message.content (null: empty).
//
// Issue 16 (reference/llm-batch-logprobs-constraints.md §3, §4):
//   logprobs   Ollama and OpenAI-compatible: "logprobs": true,
//              "top_logprobs": K at the top level; the tokens come back in
//              "/logprobs" (Ollama >= 0.12.11) or choices[0].logprobs.content
//              (each {token, logprob, top_logprobs: [{token, logprob}]});
//              their absence (an older server, a null) reads as none.
//   grammar    OpenAI-compatible only: vLLM's structured_outputs.regex and
//              llama.cpp's GBNF "grammar", both sent (each server ignores
//              the other's field) for the canonical four lines.
//   json       Ollama "format": schema; OpenAI-compatible response_format
//              json_schema strict; Anthropic forced tool use (tool
//              "judge_verdict", whose tool_use input becomes the text).
#include <cstdint>
#include <string>
#include <string_view>

#include <caf/expected.hpp>

#include "adapters/api_error.hpp"
#include "adapters/http_client.hpp"
#include "adapters/judge_adapter.hpp"

namespace ij {

struct chat_protocol {
  /// How a reply holds its text.
  enum class content_shape {
    /// "content" is a string or null (absent or null: empty text).
    text_or_null,
    /// "content" is an array of blocks; the "text" blocks are joined.
    text_blocks,
  };

  /// The adapter type, also the prefix of adapter ids: "ollama", ...
  const char* kind;
  /// Appended to the base URL's path.
  const char* path;

  // The request.
  /// The header that carries the key (sent only with a key), and what
  /// precedes the key in it ("Bearer ").
  const char* key_header;
  const char* key_prefix;
  /// A header every request carries, or null (the API version).
  const char* fixed_header;
  const char* fixed_header_value;
  /// The object that holds temperature, seed and the token cap ("options"),
  /// or null for the top level.
  const char* sampling_object;
  /// The token cap's field: "num_predict" or "max_tokens".
  const char* max_tokens_field;
  /// Whether the API takes a seed (a judge without one warns on votes > 1
  /// at temperature 0).
  bool sends_seed;
  /// Whether "stream": false is sent.
  bool sends_stream_false;

  // The reply (JSON pointers into a 2xx body).
  /// How "constrain": "json" is asked.
  enum class json_style {
    /// Ollama: "format": the schema.
    format_schema,
    /// OpenAI-compatible: "response_format": {"type": "json_schema", ...}.
    response_format,
    /// Anthropic: one tool with the schema as input, forced by tool_choice.
    forced_tool,
  };
  json_style json_constraint;
  /// Whether "constrain": "grammar" can be asked (vLLM, llama.cpp).
  bool accepts_grammar;
  /// Where the reply's token log-probabilities are, or null (none exist).
  const char* logprobs_pointer;

  /// The object holding "content": "/message", "" (the root),
  /// "/choices/0/message".
  const char* message_pointer;
  content_shape content;
  /// Token counts; a missing count reads as 0 (Ollama's are omitempty).
  const char* input_tokens_pointer;
  const char* output_tokens_pointer;

  /// Extra advice for an error status (e.g. "run `ollama pull x`"); null or
  /// returning "" for none.
  std::string (*advise)(unsigned status, const api_error& err,
                        const std::string& model);
};

/// The canonical four lines as a regular expression (vLLM
/// structured_outputs.regex); REASON and the numerics are bounded so that
/// generation ends.
std::string_view verdict_regex();
/// The same as a GBNF grammar (llama.cpp "grammar").
std::string_view verdict_gbnf();
/// The four fields as a JSON schema: decision one of the three words,
/// reason a string, numeric_a / numeric_b a string or null.
std::string_view verdict_json_schema();
/// The forced tool's name (Anthropic "constrain": "json").
constexpr const char* verdict_tool_name = "judge_verdict";

/// The protocol of an HTTP judge type ("ollama", "anthropic", "openai"), or
/// null for any other type.
const chat_protocol* chat_protocol_for(const std::string& type);

/// The JSON body of one call.
std::string chat_request_body(const chat_protocol& protocol,
                              const std::string& prompt,
                              const call_options& opts);

/// The whole request of one call: target under `base_path`, the key's
/// header (when `key` is set), the fixed header, the body.
http_post chat_request(const chat_protocol& protocol,
                       const std::string& base_path, const std::string& key,
                       const std::string& prompt, const call_options& opts);

/// Reads a 2xx body: a reply with its text, token counts, and
/// decision_probs when the body carries token log-probabilities (the call's
/// other fields, ok and attempts, are the caller's). Fails with bad_reply
/// when the body is not the API's reply: malformed JSON, the API's error
/// shape, or no text where the API puts it.
caf::expected<adapter_reply> read_chat_reply(const chat_protocol& protocol,
                                             const std::string& body);

} // namespace ij
