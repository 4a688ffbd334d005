#pragma once
// The replies the rule judges write, in the canonical four-line format of
// SPEC §4 (so that they go through parse_judge_response like a model's).
#include <optional>
#include <string>
#include <string_view>

#include "answers/number_value.hpp"

namespace ij {

/// "DECISION: d\nREASON: r\nNUMERIC_A: a\nNUMERIC_B: b\n"; an empty numeric
/// is written NULL.
std::string rule_reply(std::string_view decision, std::string_view reason,
                       std::string_view numeric_a, std::string_view numeric_b);

/// ABSTAIN when A or B is empty or whitespace, naming the side(s).
std::optional<std::string> absent_reply(std::string_view a,
                                        std::string_view b);

/// The decision on two numbers read from the final answers.
std::string numbers_reply(const number_reading& a, const number_reading& b);

} // namespace ij
