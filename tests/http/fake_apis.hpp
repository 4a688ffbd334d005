#pragma once
// Protocol-faithful fakes of the three judge APIs (reference/
// llm-http-apis.md): each checks a request as the real API would (method,
// path, headers, required fields and their types; a faithful Ollama streams
// NDJSON when "stream" is absent) and answers with the documented success
// and error shapes. A test scripts the next replies (rate limits, overload,
// HTML pages, resets, ...); after the script, every call succeeds.
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "tests/http/fake_server.hpp"
#include "tests/http/fake_verdicts.hpp"
#include "tests/http/prompt_models.hpp"

namespace ij::test {

enum class api_kind { ollama, anthropic, openai };

struct fake_api_options {
  api_kind kind = api_kind::openai;
  /// The model the server serves; Ollama answers 404 for any other.
  std::string model = "judge-model";
  /// Anthropic: the key x-api-key must carry. OpenAI: if set, the bearer
  /// token required.
  std::string api_key;
  /// Put the key the client sent into authentication errors (a careless
  /// server), to show the client redacts it.
  bool echo_key_in_errors = false;
  std::string reply_text = "EQUIVALENT";
  std::uint64_t input_tokens = 42;
  std::uint64_t output_tokens = 7;
  std::chrono::milliseconds latency{0};
  unsigned threads = 1;
  /// Keep every prompt and body for inspection (off in the benchmark).
  bool record_requests = true;
  std::shared_ptr<boost::asio::ssl::context> tls;

  // Issue 16: the "model" behind the API (tests/http/fake_verdicts.hpp).
  /// Replies hold the verdict: under a constraint the request asked for it
  /// is held to the format; without one it misses the format (a chatty
  /// model) when `sloppy_unless_constrained`, else it is the four lines.
  /// Off: `reply_text` / the script, as before.
  bool model_replies = false;
  fake_verdict verdict;
  bool sloppy_unless_constrained = false;
  /// The OpenAI-compatible server's grammar field: "structured_outputs"
  /// (vLLM, a regex) or "grammar" (llama.cpp, GBNF); it ignores the other.
  std::string grammar_field = "structured_outputs";
  /// A server refusing constraints: 400 naming the field.
  bool rejects_constraints = false;
  /// Log-probabilities: returned when asked (Ollama >= 0.12.11, OpenAI-
  /// compatible servers); false is an older server that ignores the field.
  bool supports_logprobs = true;
  /// The decision token's top alternatives (letters only, logprob).
  std::vector<std::pair<std::string, double>> decision_alternatives{
    {"EQUIV", -0.105}, {"DIFF", -2.4}, {"ABST", -4.6}, {"NOT", -5.0}};
  /// A model deciding per request (calibration_bench's noisy judge): given
  /// the request body, it sets the verdict and the decision token's
  /// alternatives (handed `verdict` and `decision_alternatives` to start
  /// from). Called on the server's threads: it must be thread-safe.
  std::function<void(const rapidjson::Document& request, fake_verdict& verdict,
                     std::vector<std::pair<std::string, double>>& alternatives)>
    decide;
  /// A model that reads the prompt (issue 29, tests/http/prompt_models):
  /// its reply text for the request's prompt, after the script and before
  /// model_replies. Thread-safe.
  std::function<std::string(const std::string& prompt)> reads_prompt;
};

class fake_api {
public:
  explicit fake_api(fake_api_options options);

  std::string base_url() const;
  fake_server& server() { return *server_; }

  /// The replies to the next requests, in order (valid requests only).
  void script(std::vector<planned_reply> replies);

  /// This fake's answer to `req`, for a server of the test's own that puts
  /// several fakes behind one address (a chat API and a batch API).
  planned_reply respond(const fake_request& req) { return handle(req); }

  // Replies in this API's documented shapes.
  planned_reply success(const std::string& text) const;
  /// A success carrying `tokens` as the API's log-probabilities (none when
  /// null) and, for Anthropic, `tool_input` (JSON) as a verdict tool_use
  /// block instead of text.
  planned_reply success_with(const std::string& text,
                             const std::vector<fake_token>* tokens,
                             const std::string& tool_input = {}) const;
  planned_reply error(unsigned status, const std::string& type,
                      const std::string& message) const;
  /// A proxy's HTML error page.
  static planned_reply html_page(unsigned status, const std::string& title);
  /// A success whose content is empty (Anthropic: no blocks; OpenAI: null).
  planned_reply empty_content() const;

  /// The prompt texts of the valid requests, in arrival order.
  std::vector<std::string> prompts() const;
  /// Every way a request broke the protocol (empty for a correct client).
  std::vector<std::string> violations() const;
  /// The raw request bodies received.
  std::vector<std::string> bodies() const;

private:
  planned_reply handle(const fake_request& req);
  bool validate(const fake_request& req, std::string& prompt,
                planned_reply& rejection, bool& stream_absent);
  planned_reply reject(unsigned status, const std::string& type,
                       const std::string& message);
  /// The constraint and log-probability fields of a valid request: a
  /// rejection when they break the API's rules (or the server refuses
  /// constraints), else the model's reply.
  planned_reply model_reply(const rapidjson::Document& doc);
  asked_constraint constraint_of(const rapidjson::Document& doc,
                                 std::string& field);

  std::uint64_t unconstrained_ = 0;

  fake_api_options opt_;
  mutable std::mutex mtx_;
  std::deque<planned_reply> script_;
  std::vector<std::string> prompts_;
  std::vector<std::string> violations_;
  std::vector<std::string> bodies_;
  std::unique_ptr<fake_server> server_;
};

} // namespace ij::test
