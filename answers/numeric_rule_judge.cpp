#include "answers/numeric_rule_judge.hpp"

#include "answers/final_answer.hpp"
#include "answers/rule_reply.hpp"

namespace ij {

std::string numeric_rule_reply(std::string_view a, std::string_view b) {
  if (auto missing = absent_reply(a, b))
    return *missing;
  auto x = read_final_number(a);
  auto y = read_final_number(b);
  if (x && y)
    return numbers_reply(*x, *y);
  return rule_reply(
    "ABSTAIN",
    !x && !y ? "Neither final answer reads as one number."
    : !x     ? "The final answer of A does not read as one number."
             : "The final answer of B does not read as one number.",
    x ? number_text(*x) : std::string{}, y ? number_text(*y) : std::string{});
}

} // namespace ij
