#pragma once
// What configuration says about one judge, and the short judge names of the
// command line ("rules:math", "stub:numeric", "ollama:qwen2.5:7b",
// "anthropic:claude-haiku-4-5", "openai:MODEL@http://127.0.0.1:8000").
// Pure data and parsing: adapters/adapter_factory.hpp builds the adapter.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <caf/error.hpp>
#include <caf/expected.hpp>

#include "core/budgets/judge_budget.hpp"
#include "core/config/batch_settings.hpp"
#include "core/numbers/answer_policy.hpp"
#include "core/prompts/prompt_choice.hpp"
#include "core/prompts/reply_constraint.hpp"
#include "messages/error.hpp"

namespace ij {

/// When an HTTP judge stops calling its backend for a while
/// (adapters/circuit_breaker.hpp): after `failures` connection failures in a
/// row, or at once on HTTP 401/403, for `cooldown`; then one trial call.
struct breaker_settings {
  bool enabled = true;
  std::uint32_t failures = 5;
  std::chrono::milliseconds cooldown{30000};
};

inline bool operator==(const breaker_settings& x, const breaker_settings& y) {
  return x.enabled == y.enabled && x.failures == y.failures
         && x.cooldown == y.cooldown;
}

struct judge_spec {
  /// Display name used in records and summaries (defaults to type:model).
  std::string name;
  /// A kind of core/config/backend_kinds: "stub", "rules" (rules:math, the
  /// embedded rule judge), "ollama", "anthropic", "openai", or one added.
  std::string type;
  /// For stubs, the stub kind (stub_kinds()). For backends, the model.
  std::string model;
  /// Empty: from the ecosystem's environment variable, else public default.
  std::string base_url;
  double temperature = 0.0;
  std::optional<std::int64_t> seed; // base seed; vote i uses seed + i
  std::uint32_t max_tokens = 256;
  std::chrono::milliseconds timeout{60000};
  std::uint32_t max_in_flight = 4;
  /// HTTP judges (issue 31): requests sent ahead beyond max_in_flight to
  /// cover the round trip to a far endpoint (its server queues them), sized
  /// to the measured round trip times the call rate, at most this many; 0
  /// (the default): none, max_in_flight is all the server ever sees.
  std::uint32_t queue_max = 0;
  /// Name of the environment variable holding the key (never the key).
  std::string api_key_env;
  /// CA bundle for private TLS deployments; empty: the system store.
  std::string ca_file;
  std::uint32_t max_attempts = 3;
  std::size_t max_response_bytes = 1 << 20;
  /// The run's limits on this judge (core/budgets/judge_budget.hpp); none by
  /// default.
  judge_budget budget;
  /// Declared prices per million tokens, for cost and max_cost.
  std::optional<token_prices> prices;
  /// HTTP judges only; stubs and rule judges never fail to connect.
  breaker_settings breaker;
  /// Rule judges only (rules:math, stub:numeric): the run's declared
  /// answer_policy, set by the configuration (run_config's
  /// apply_answer_policy); part of the judge id when not the default.
  answer_policy policy;
  /// Ask the backend for the reply tokens' log-probabilities and record the
  /// decision's probabilities (core/calibration/decision_probs.hpp). Ollama and
  /// OpenAI-compatible judges only (Anthropic's API returns none).
  bool logprobs = false;
  /// How the reply is held to the format (core/prompts/reply_constraint.hpp).
  reply_constraint constrain = reply_constraint::none;
  /// Votes through the provider's batch API (anthropic, openai; issue 17).
  batch_settings batch;
  /// The prompt of every call (issue 29); the canonical one by default.
  prompt_choice prompt;
  /// The prompt of a cascade's calls on pairs whose answers the rule judge
  /// did not read as numbers; nullopt: the built-in non-numeric prompt when
  /// `prompt` is the canonical one (which asks for numbers only), else
  /// `prompt` itself.
  std::optional<prompt_choice> non_numeric_prompt;
};

/// The two prompts a judge calls with (issue 29): the same template twice
/// when it has one for every pair.
struct judge_prompts {
  prompt_ptr numeric;
  prompt_ptr non_numeric;
};

/// The non-numeric prompt in effect (the default pairing when not given).
prompt_choice non_numeric_choice(const judge_spec& spec);

/// The judge's prompts: the one function every caller asks (the worker's
/// calls, its description, the judge id, the manifest). A declared
/// template not read yet is null (adapters refuse to build such a judge).
judge_prompts prompts_of(const judge_spec& spec);

/// The ids and SHA-256s of the judge's two prompts: what describes a
/// worker (judge_info), keys the workers runs may share and is compared
/// with a judge host's.
struct judge_prompt_ids {
  prompt_identity numeric;
  prompt_identity non_numeric;
};

judge_prompt_ids prompt_ids_of(const judge_spec& spec);

/// Whether the judge reads its answers out of the prompt by rule
/// (rules:math, stub:numeric) rather than being a model: a planted verdict
/// cannot talk it into anything, so the planted-verdict defence leaves it
/// alone.
bool reads_answers_by_rule(const judge_spec& spec);

/// A judge whose replies the answer policy changes: rules:math and the
/// numeric stub.
bool follows_answer_policy(const judge_spec& spec);

/// Gives every judge that follows it the run's answer policy.
void set_answer_policy(std::vector<judge_spec>& judges,
                       const answer_policy& policy);

/// Alternatives asked per token with `logprobs` ("top_logprobs"): within
/// every API's cap (OpenAI and Ollama 0..20, vLLM --max-logprobs 20).
constexpr unsigned decision_top_logprobs = 10;

/// Why a judge type cannot take its `logprobs` / `constrain` setting
/// (errc::bad_config), or no error when it can: Anthropic returns no
/// log-probabilities; a regular grammar is OpenAI-compatible servers only
/// (vLLM, llama.cpp); stubs and rule judges take neither.
caf::error judge_setting_problem(const judge_spec& spec, bool constrain_field);

/// The stub kinds (SPEC §6), in the order of the help text: "numeric",
/// "equivalent", "different", "abstain", "malformed", "failing", and
/// "gullible" (falls for master keys and planted verdicts, issue 29: for
/// testing the defences).
const std::vector<std::string>& stub_kinds();

/// The stub kinds as words for messages: "numeric, ..., malformed or failing".
std::string stub_kinds_text();

/// True for the HTTP kinds of core/config/backend_kinds ("ollama", "anthropic",
/// "openai", ...).
bool is_backend_type(const std::string& type);

/// The judge a spec names, as a stable id: adapter type, model, temperature
/// and prompt (id and template SHA-256), e.g.
/// "openai:qwen2.5-7b t=0 prompt=invariance-checker/judge/v1#b7c260f6";
/// a non-numeric prompt other than the default pairing adds
/// " non_numeric=ID#SHA8".
/// Workers serving the same judge on different hosts or endpoints share it;
/// a different model, temperature or prompt never does. A rule judge with a
/// declared answer policy other than the default adds " policy=" and its
/// policy_text: workers are shared by runs, and a run must never be judged
/// under another run's policy.
std::string judge_id_of(const judge_spec& spec);

/// The error rate of the noisy stub kind "noisy:ERR" (adapters/noisy_judge),
/// 0 <= ERR <= 0.15; nullopt for any other kind.
std::optional<double> noisy_stub_error(std::string_view kind);

/// Parses a short judge name; on failure errc::bad_config saying why.
caf::expected<judge_spec> parse_judge_name(const std::string& name);

} // namespace ij
