#pragma once
// A cascade run's account (issue 10): what the rule judge decided, what went
// to the LLM judge, what the audit found, and the calls and tokens saved
// against an LLM-only run. Part of the run summary and of the run-end record
// (core/agreement/cascade_tally.hpp computes it).
#include <cstdint>
#include <string>

#include <caf/meta/type_name.hpp>

namespace ij {

struct cascade_summary {
  /// False: the run had no cascade (every other field is empty).
  bool enabled = false;
  std::string rules;
  std::string llm;
  double audit_rate = 0.0;
  /// Pairs that went into the cascade (absent pairs do not).
  std::uint64_t pairs = 0;
  /// Decided by the rule judge (audited ones included).
  std::uint64_t rules_decided = 0;
  /// Left undecided by the rule judge, so judged by the LLM judge.
  std::uint64_t fallback = 0;
  /// Rule-decided pairs also judged by the LLM judge, and what it found:
  /// the same decision, the other one, or no decision.
  std::uint64_t audited = 0;
  std::uint64_t audit_agree = 0;
  std::uint64_t audit_disagree = 0;
  std::uint64_t audit_undecided = 0;
  /// The audit split by the rule judge's decision: confirmed / decided by
  /// the LLM, for EQUIVALENT and for DIFFERENT (the live precision of each).
  std::uint64_t equivalent_confirmed = 0;
  std::uint64_t equivalent_checked = 0;
  std::uint64_t different_confirmed = 0;
  std::uint64_t different_checked = 0;
  /// Judge calls and tokens of each stage.
  std::uint64_t rules_calls = 0;
  std::uint64_t llm_calls = 0;
  std::uint64_t llm_input_tokens = 0;
  std::uint64_t llm_output_tokens = 0;
  /// Pairs the LLM judge was asked about (fallback + audited).
  std::uint64_t llm_pairs = 0;
};

inline bool operator==(const cascade_summary& x, const cascade_summary& y) {
  return x.enabled == y.enabled && x.rules == y.rules && x.llm == y.llm
         && x.audit_rate == y.audit_rate && x.pairs == y.pairs
         && x.rules_decided == y.rules_decided && x.fallback == y.fallback
         && x.audited == y.audited && x.audit_agree == y.audit_agree
         && x.audit_disagree == y.audit_disagree
         && x.audit_undecided == y.audit_undecided
         && x.equivalent_confirmed == y.equivalent_confirmed
         && x.equivalent_checked == y.equivalent_checked
         && x.different_confirmed == y.different_confirmed
         && x.different_checked == y.different_checked
         && x.rules_calls == y.rules_calls && x.llm_calls == y.llm_calls
         && x.llm_input_tokens == y.llm_input_tokens
         && x.llm_output_tokens == y.llm_output_tokens
         && x.llm_pairs == y.llm_pairs;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, cascade_summary& x) {
  return f(caf::meta::type_name("ij.cascade_summary"), x.enabled, x.rules,
           x.llm, x.audit_rate, x.pairs, x.rules_decided, x.fallback, x.audited,
           x.audit_agree, x.audit_disagree, x.audit_undecided,
           x.equivalent_confirmed, x.equivalent_checked, x.different_confirmed,
           x.different_checked, x.rules_calls, x.llm_calls, x.llm_input_tokens,
           x.llm_output_tokens, x.llm_pairs);
}

} // namespace ij
