#include "answers/rule_reply.hpp"

#include "answers/final_answer.hpp"
#include "answers/number_comparison.hpp"
#include "core/answer.hpp"

namespace ij {

std::string rule_reply(std::string_view decision, std::string_view reason,
                       std::string_view numeric_a, std::string_view numeric_b) {
  auto or_null = [](std::string_view x) {
    return x.empty() ? std::string_view{"NULL"} : x;
  };
  std::string out;
  out.reserve(64 + reason.size() + numeric_a.size() + numeric_b.size());
  out.append("DECISION: ").append(decision);
  out.append("\nREASON: ").append(reason);
  out.append("\nNUMERIC_A: ").append(or_null(numeric_a));
  out.append("\nNUMERIC_B: ").append(or_null(numeric_b));
  out.push_back('\n');
  return out;
}

std::optional<std::string> absent_reply(std::string_view a,
                                        std::string_view b) {
  const bool no_a = is_absent(a), no_b = is_absent(b);
  if (!no_a && !no_b)
    return std::nullopt;
  return rule_reply("ABSTAIN",
                    no_a && no_b ? "Both answers are missing."
                    : no_a       ? "Answer A is missing."
                                 : "Answer B is missing.",
                    {}, {});
}

std::string numbers_reply(const number_reading& a, const number_reading& b) {
  auto c = compare_numbers(a, b);
  const auto ta = number_text(c.shown_a), tb = number_text(c.shown_b);
  switch (c.relation) {
    case number_relation::equal:
      return rule_reply("EQUIVALENT", "Both final answers are the same number.",
                        ta, tb);
    case number_relation::different:
      return rule_reply("DIFFERENT", "The final answers are different numbers.",
                        ta, tb);
    case number_relation::undecidable:
      break;
  }
  return rule_reply("ABSTAIN", "Undecided: " + c.why + ".", ta, tb);
}

std::optional<std::string> numeric_step(std::string_view a, std::string_view b,
                                        final_numbers& read) {
  if (auto missing = absent_reply(a, b))
    return missing;
  read.a = read_final_number(a);
  read.b = read_final_number(b);
  if (read.a && read.b)
    return numbers_reply(*read.a, *read.b);
  return std::nullopt;
}

} // namespace ij
