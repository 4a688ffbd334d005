#pragma once
// The replies the rule judges write, in the canonical four-line format of
// SPEC §4 (so that they go through parse_judge_response like a model's).
#include <optional>
#include <string>
#include <string_view>

#include "answers/number_value.hpp"
#include "core/numbers/answer_policy.hpp"

namespace ij {

/// "DECISION: d\nREASON: r\nNUMERIC_A: a\nNUMERIC_B: b\n"; an empty numeric
/// is written NULL.
std::string rule_reply(std::string_view decision, std::string_view reason,
                       std::string_view numeric_a, std::string_view numeric_b);

/// ABSTAIN when A or B is empty or whitespace, naming the side(s).
std::optional<std::string> absent_reply(std::string_view a, std::string_view b);

/// ABSTAIN when a decision (EQUIVALENT when `equal`, else DIFFERENT) is
/// more than the way each answer was found supports (answer_provenance.hpp):
/// DIFFERENT with a value from the working, EQUIVALENT with two; nullopt
/// when the decision stands.
std::optional<std::string> provenance_reply(bool equal, answer_locator a,
                                            answer_locator b,
                                            std::string_view numeric_a,
                                            std::string_view numeric_b);

/// The decision on two numbers read from the final answers, under the
/// declared policy; a decision the policy made names it in the REASON.
std::string numbers_reply(const number_reading& a, const number_reading& b,
                          const answer_policy& policy = {});

/// The final numbers of A and B (read_final_number), as far as they read.
struct final_numbers {
  std::optional<number_reading> a, b;
};

/// The numeric step both rule judges start with: the reply when an answer
/// is missing or both read as one number; else nullopt, with `read` holding
/// what did read.
std::optional<std::string> numeric_step(std::string_view a, std::string_view b,
                                        final_numbers& read,
                                        const answer_policy& policy = {});

} // namespace ij
