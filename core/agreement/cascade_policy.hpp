#pragma once
// The rules-first cascade (issue 10): a rule judge decides the pairs it can
// read; the pairs it leaves undecided go to an LLM judge; a declared share of
// the rule-decided pairs also goes to the LLM judge, to measure the rule
// judge's precision live. Pure.
//
// Which rule-decided pairs are audited is fixed by the seed and the pair id
// alone — SHA-256 of "<seed>:<pair id>", its first 8 bytes read as a fraction
// of 2^64, below the audit rate — so the same run audits the same pairs
// whatever the order, batching or timing, and a rerun can be checked.
//
// An audited pair keeps the rule judge's outcome: the audit measures, it
// does not change verdicts (so a verdict never depends on the sample drawn).
// The LLM judge gets the pairs the rule judge did not read as numbers with
// its non-numeric prompt, the others with its (canonical) prompt.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "messages/equivalence_outcome.hpp"
#include "messages/judge_record.hpp"

namespace ij {

/// How a pair went through the cascade: decided by the rule judge alone,
/// passed to the LLM because the rule judge left it undecided, or decided by
/// the rule judge and audited by the LLM.
enum class cascade_path { rules, fallback, audited };

/// "rules", "fallback", "audited".
std::string_view to_string(cascade_path p);

/// Whether a rule-decided pair also goes to the LLM judge (rate in [0, 1]).
bool cascade_audits(std::uint64_t seed, std::string_view pair_id, double rate);

/// The rule judge's outcome decides the pair (true or false, no fault);
/// otherwise the pair goes to the LLM judge.
bool rules_decided(const equivalence_outcome& rules);

/// An audited pair's finding: both decided and they differ.
bool cascade_disagrees(const equivalence_outcome& rules,
                       const equivalence_outcome& llm);

/// Whether the LLM judge is asked with its non-numeric prompt (issue 29):
/// the rule judge did not read both answers as numbers (its record's
/// NUMERIC_A and NUMERIC_B are not both numbers, or it has no readable
/// record). The canonical prompt asks for numbers only; the non-numeric one
/// compares values of any kind.
bool cascade_non_numeric(const std::vector<judge_record>& rules_records);

} // namespace ij
