#include "answers/numeric_rule_judge.hpp"

#include "answers/rule_reply.hpp"

namespace ij {

std::string numeric_rule_reply(std::string_view a, std::string_view b,
                               const answer_policy& policy) {
  final_numbers read;
  if (auto decided = numeric_step(a, b, read, policy))
    return *decided;
  const auto& x = read.a;
  const auto& y = read.b;
  return rule_reply("ABSTAIN",
                    !x && !y ? "Neither final answer reads as one number."
                    : !x ? "The final answer of A does not read as one number."
                         : "The final answer of B does not read as one number.",
                    x ? number_text(*x) : std::string{},
                    y ? number_text(*y) : std::string{});
}

} // namespace ij
