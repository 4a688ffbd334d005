#pragma once
// The embedded rule judge "rules:math": numeric reading first (the numeric
// rule judge's finder, reader and policies), symbolic where an answer is
// not one number (tuples, sets, intervals, expressions, equations,
// matrices: math_reader.hpp, math_equivalence.hpp). It replies in the
// canonical format; NUMERIC_A/B carry the canonical text of what it read.
#include <chrono>
#include <string>
#include <string_view>

#include "answers/pair_budget.hpp"
#include "core/numbers/answer_policy.hpp"

namespace ij {

/// EQUIVALENT / DIFFERENT when the final answers are decided the same or
/// different by exact simplification, structure, or evaluation at sample
/// points (the REASON says which); ABSTAIN otherwise, and once `budget` of
/// this thread's CPU time is spent on the pair.
std::string
math_rule_reply(std::string_view a, std::string_view b,
                std::chrono::microseconds budget = default_pair_budget);

/// The same under a declared answer policy (rounding, percent, tolerance,
/// units, fractions); a decision the policy made names it in the REASON.
std::string
math_rule_reply(std::string_view a, std::string_view b,
                const answer_policy& policy,
                std::chrono::microseconds budget = default_pair_budget);

} // namespace ij
