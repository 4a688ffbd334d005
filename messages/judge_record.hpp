#pragma once
// The audit unit of one judge call (SPEC §2). Never holds an API key.
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

#include "messages/fault_kind.hpp"
#include "messages/judge_decision.hpp"

namespace ij {

struct judge_record {
  std::string pair_id;
  std::string prompt_id;
  std::string adapter_id;
  /// The worker that served the call (its host is part of it); empty when
  /// no worker did (the coordinator records a vote it could not place).
  std::string worker_id;
  /// Where that worker runs: "local", or the judge host's "ADDR:PORT".
  std::string host;
  std::string model;
  double temperature = 0.0;
  bool has_seed = false;
  std::int64_t seed = 0;
  std::uint32_t vote_index = 0;
  /// True when A and B were swapped for this call (order balancing).
  bool swapped = false;
  /// The text the judge returned, whatever it was (empty on transport error).
  std::string raw_text;
  judge_decision decision = judge_decision::parse_error;
  std::string reason;
  /// NUMERIC_A / NUMERIC_B as the judge gave them, already swapped back to
  /// the pair's own order; empty means NULL or missing.
  std::string numeric_a;
  std::string numeric_b;
  /// Other lines around the fields (SPEC §5).
  bool extra_text = false;
  /// The decision contradicts the judge's own numerics (SPEC §5).
  bool inconsistent = false;
  /// Set when the call failed in transport (no text to parse): a fault.
  bool transport_failed = false;
  std::string transport_error;
  /// The classified kind of that failure (none when the call succeeded).
  fault_kind fault = fault_kind::none;
  std::uint32_t attempts = 0;
  double latency_ms = 0.0;
  /// Wall-clock times, milliseconds since the Unix epoch.
  std::int64_t started_at_ms = 0;
  std::int64_t finished_at_ms = 0;
  /// Token usage as the backend reported it (0 when not reported).
  std::uint64_t input_tokens = 0;
  std::uint64_t output_tokens = 0;
  /// Reused from the response cache (no call was made): "cached" in the
  /// audit, counted in the summary and metrics.
  bool cached = false;
  /// The judge's own probabilities of its decision words, read from the
  /// log-probabilities of the token that carries the decision: P(EQUIVALENT),
  /// P(DIFFERENT), P(ABSTAIN), in that order. Empty when none were asked for
  /// or the backend returned none (never invented).
  std::vector<double> decision_probs;
  /// Not sent: the judge's circuit breaker refused the call (its backend is
  /// unreachable or refused the key); "refused_by":"breaker" in the audit.
  bool refused_by_breaker = false;
  /// The call asked for log-probabilities: the audit then writes
  /// "decision_probs" (null when empty); absent when not asked.
  bool logprobs_asked = false;
  /// Answered through a provider's batch API ("batched": true in the
  /// audit): spend prices it at the judge's batch discount.
  bool batched = false;
};

inline bool operator==(const judge_record& x, const judge_record& y) {
  return x.pair_id == y.pair_id && x.prompt_id == y.prompt_id
         && x.adapter_id == y.adapter_id && x.worker_id == y.worker_id
         && x.host == y.host && x.model == y.model
         && x.temperature == y.temperature && x.has_seed == y.has_seed
         && x.seed == y.seed && x.vote_index == y.vote_index
         && x.swapped == y.swapped && x.raw_text == y.raw_text
         && x.decision == y.decision && x.reason == y.reason
         && x.numeric_a == y.numeric_a && x.numeric_b == y.numeric_b
         && x.extra_text == y.extra_text && x.inconsistent == y.inconsistent
         && x.transport_failed == y.transport_failed
         && x.transport_error == y.transport_error && x.fault == y.fault
         && x.attempts == y.attempts && x.latency_ms == y.latency_ms
         && x.started_at_ms == y.started_at_ms
         && x.finished_at_ms == y.finished_at_ms
         && x.input_tokens == y.input_tokens
         && x.output_tokens == y.output_tokens && x.cached == y.cached
         && x.decision_probs == y.decision_probs
         && x.refused_by_breaker == y.refused_by_breaker
         && x.logprobs_asked == y.logprobs_asked && x.batched == y.batched;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, judge_record& x) {
  return f(caf::meta::type_name("ij.judge_record"), x.pair_id, x.prompt_id,
           x.adapter_id, x.worker_id, x.host, x.model, x.temperature,
           x.has_seed, x.seed, x.vote_index, x.swapped, x.raw_text, x.decision,
           x.reason, x.numeric_a, x.numeric_b, x.extra_text, x.inconsistent,
           x.transport_failed, x.transport_error, x.fault, x.attempts,
           x.latency_ms, x.started_at_ms, x.finished_at_ms, x.input_tokens,
           x.output_tokens, x.cached, x.decision_probs, x.refused_by_breaker,
           x.logprobs_asked, x.batched);
}

} // namespace ij
