#include "answers/numeric_rule_judge.hpp"

#include "answers/final_answer.hpp"
#include "answers/number_comparison.hpp"
#include "core/answer.hpp"

namespace ij {

namespace {

std::string reply(std::string_view decision, std::string_view reason,
                  const std::optional<number_reading>& a,
                  const std::optional<number_reading>& b) {
  std::string out;
  out.reserve(160);
  out += "DECISION: ";
  out += decision;
  out += "\nREASON: ";
  out += reason;
  out += "\nNUMERIC_A: ";
  out += a ? number_text(*a) : "NULL";
  out += "\nNUMERIC_B: ";
  out += b ? number_text(*b) : "NULL";
  out += '\n';
  return out;
}

} // namespace

std::string numeric_rule_reply(std::string_view a, std::string_view b) {
  if (is_absent(a) || is_absent(b))
    return reply("ABSTAIN",
                 is_absent(a) && is_absent(b) ? "Both answers are missing."
                 : is_absent(a)               ? "Answer A is missing."
                                              : "Answer B is missing.",
                 std::nullopt, std::nullopt);
  auto x = read_final_number(a);
  auto y = read_final_number(b);
  if (!x || !y)
    return reply("ABSTAIN",
                 !x && !y ? "Neither final answer reads as one number."
                 : !x     ? "The final answer of A does not read as one number."
                          : "The final answer of B does not read as one number.",
                 x, y);
  auto c = compare_numbers(*x, *y);
  switch (c.relation) {
    case number_relation::equal:
      return reply("EQUIVALENT", "Both final answers are the same number.",
                   c.shown_a, c.shown_b);
    case number_relation::different:
      return reply("DIFFERENT", "The final answers are different numbers.",
                   c.shown_a, c.shown_b);
    case number_relation::undecidable:
      break;
  }
  std::string why = "Undecided: " + c.why + ".";
  return reply("ABSTAIN", why, c.shown_a, c.shown_b);
}

} // namespace ij
