#pragma once
// What a judge worker says about itself (SPEC §10): the judge it serves and
// how. A *judge* is an identity — adapter type, model, temperature and
// prompt — named by `judge_id`; a *worker* is one actor serving calls for a
// judge (one adapter instance, local or on a host). Several workers may serve
// one judge; the run manifest describes every worker a run uses from these
// descriptions, so a worker on another host is described exactly like a
// local one. Never holds a secret: a key is named by its variable only.
#include <cstdint>
#include <string>

#include <caf/meta/type_name.hpp>

namespace ij {

struct judge_info {
  /// The judge: stable across workers and hosts (core/judge_identity.hpp).
  std::string judge_id;
  /// This worker, unique in a judge directory: "<name>#<n>@<host>".
  std::string worker_id;
  /// Where the worker runs: "local", or the host's "ADDR:PORT".
  std::string host;
  /// The judge's display name from configuration (e.g. "stub:numeric").
  std::string name;
  /// "stub", "ollama", "anthropic" or "openai".
  std::string adapter_type;
  /// The backend as records name it, e.g. "openai@http://127.0.0.1:8000/v1".
  std::string adapter_id;
  std::string model;
  std::string base_url;
  double temperature = 0.0;
  bool supports_seed = true;
  /// The base seed: vote i is called with seed + i.
  bool has_seed = false;
  std::int64_t seed = 0;
  /// Calls the worker keeps in flight at most (its grants to clients).
  std::uint32_t capacity = 1;
  std::uint32_t max_tokens = 0;
  std::int64_t timeout_ms = 0;
  std::uint32_t max_attempts = 0;
  std::uint64_t max_response_bytes = 0;
  /// The NAME of the variable holding the key, never the key.
  std::string api_key_env;
  std::string ca_file;
  /// Log-probabilities asked (issue 16): the calls carry decision_probs.
  bool logprobs = false;
  /// The reply constraint: "none", "grammar" or "json".
  std::string constrain = "none";
  /// The prompt of its calls (judge_spec's prompts_of)...
  std::string prompt_id;
  std::string prompt_sha256;
  /// ...and of its calls on non-numeric pairs (issue 29).
  std::string non_numeric_prompt_id{};
  std::string non_numeric_prompt_sha256{};
  /// Every call setting of the worker, one "name=value" line each
  /// (core/hosts/worker_key.hpp): which runs it serves.
  std::string settings_key;
  /// The software version of the worker's process.
  std::string version;
};

inline bool operator==(const judge_info& x, const judge_info& y) {
  return x.judge_id == y.judge_id && x.worker_id == y.worker_id
         && x.host == y.host && x.name == y.name
         && x.adapter_type == y.adapter_type && x.adapter_id == y.adapter_id
         && x.model == y.model && x.base_url == y.base_url
         && x.temperature == y.temperature && x.supports_seed == y.supports_seed
         && x.has_seed == y.has_seed && x.seed == y.seed
         && x.capacity == y.capacity && x.max_tokens == y.max_tokens
         && x.timeout_ms == y.timeout_ms && x.max_attempts == y.max_attempts
         && x.max_response_bytes == y.max_response_bytes
         && x.api_key_env == y.api_key_env && x.ca_file == y.ca_file
         && x.logprobs == y.logprobs && x.constrain == y.constrain
         && x.prompt_id == y.prompt_id && x.prompt_sha256 == y.prompt_sha256
         && x.non_numeric_prompt_id == y.non_numeric_prompt_id
         && x.non_numeric_prompt_sha256 == y.non_numeric_prompt_sha256
         && x.settings_key == y.settings_key && x.version == y.version;
}

/// Named "ij.judge_info3" since it carries the settings key and the
/// non-numeric prompt: a host of an earlier build differs in its message
/// types and is refused at connect, naming it, rather than sending
/// descriptions no run could match.
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, judge_info& x) {
  return f(caf::meta::type_name("ij.judge_info3"), x.judge_id, x.worker_id,
           x.host, x.name, x.adapter_type, x.adapter_id, x.model, x.base_url,
           x.temperature, x.supports_seed, x.has_seed, x.seed, x.capacity,
           x.max_tokens, x.timeout_ms, x.max_attempts, x.max_response_bytes,
           x.api_key_env, x.ca_file, x.logprobs, x.constrain, x.prompt_id,
           x.prompt_sha256, x.non_numeric_prompt_id,
           x.non_numeric_prompt_sha256, x.settings_key, x.version);
}

} // namespace ij
