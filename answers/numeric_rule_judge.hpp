#pragma once
// The rule judge behind the numeric stub (SPEC §6): reads the final number of
// each answer and replies in the exact canonical format, so that the reply
// goes through parse_judge_response like any model's.
#include <string>
#include <string_view>

#include "core/numbers/answer_policy.hpp"

namespace ij {

/// DECISION EQUIVALENT when both final answers read as the same number,
/// DIFFERENT when both read as different numbers, ABSTAIN when either does
/// not read as one number (tuples, intervals, expressions, missing).
/// Numbers compare under the declared answer `policy`.
std::string numeric_rule_reply(std::string_view a, std::string_view b,
                               const answer_policy& policy = {});

} // namespace ij
