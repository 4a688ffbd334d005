#include "answers/rule_reply.hpp"

#include "answers/final_answer.hpp"
#include "answers/number_comparison.hpp"
#include "core/numbers/answer.hpp"
#include "core/numbers/number_text.hpp"
#include "core/text.hpp"

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

std::optional<std::string> provenance_reply(bool equal, answer_locator a,
                                            answer_locator b,
                                            std::string_view numeric_a,
                                            std::string_view numeric_b) {
  if (equal ? may_say_equivalent(a, b) : may_say_different(a, b))
    return std::nullopt;
  if (equal)
    return rule_reply("ABSTAIN",
                      "Undecided: the equal values come from the working of "
                      "one text and the prose of the other; neither marks its "
                      "answer.",
                      numeric_a, numeric_b);
  const bool both = !states_the_answer(a) && !states_the_answer(b);
  return rule_reply("ABSTAIN",
                    std::string{"Undecided: the value of "}
                      + (both                    ? "A and of B"
                         : !states_the_answer(a) ? "A"
                                                 : "B")
                      + " comes from the working (the last number of prose), "
                        "not from a statement of the answer; it cannot show "
                        "that the answers differ.",
                    numeric_a, numeric_b);
}

std::string numbers_reply(const number_reading& a, const number_reading& b,
                          const answer_policy& policy) {
  auto c = compare_numbers(a, b, policy);
  const auto ta = number_text(c.shown_a), tb = number_text(c.shown_b);
  if (a.contradicted || b.contradicted)
    return rule_reply("ABSTAIN",
                      std::string{"Undecided: "} + (a.contradicted ? "A" : "B")
                        + " states answers with different values and no "
                          "final answer settles which.",
                      ta, tb);
  if (c.relation != number_relation::undecidable)
    if (auto gated = provenance_reply(c.relation == number_relation::equal,
                                      a.found_by, b.found_by, ta, tb))
      return *gated;
  if ((a.point_grouping || b.point_grouping)
      && c.relation != number_relation::undecidable
      && compare_numbers(a.point_grouping ? as_point_grouped(a) : a,
                         b.point_grouping ? as_point_grouped(b) : b, policy)
             .relation
           != c.relation)
    return rule_reply(
      "ABSTAIN",
      std::string{"Undecided: "} + (a.point_grouping ? "A" : "B")
        + " writes a point before three digits: a decimal, or "
          "a thousands separator (de, es, it, pt, id, vi, ...), "
          "and the two readings decide differently.",
      ta, tb);
  if ((a.ambiguous || b.ambiguous) && c.relation != number_relation::equal)
    return rule_reply("ABSTAIN",
                      std::string{"Undecided: the final sentence of "}
                        + (a.ambiguous ? "A" : "B")
                        + " states several values and nothing says which "
                          "one is the answer.",
                      ta, tb);
  const std::string rounding =
    "answer_policy rounding: " + std::string{to_string(policy.rounding)};
  switch (c.relation) {
    case number_relation::equal:
      if (c.basis == number_basis::rounding)
        return rule_reply("EQUIVALENT",
                          "Equal within the declared rounding (" + rounding
                            + "): one answer is the other rounded to the "
                              "places it gives.",
                          ta, tb);
      if (c.basis == number_basis::tolerance)
        // The values differ: shown in the REASON, not as NUMERIC_A/B,
        // which the reply parser would find inconsistent with EQUIVALENT.
        return rule_reply("EQUIVALENT",
                          "Equal within the declared tolerance (answer_policy "
                          "relative_tolerance "
                            + number_text(policy.relative_tolerance)
                            + ", absolute_tolerance "
                            + number_text(policy.absolute_tolerance)
                            + "): " + ta + " and " + tb + ".",
                          {}, {});
      return rule_reply("EQUIVALENT", "Both final answers are the same number.",
                        ta, tb);
    case number_relation::different:
      if (c.basis == number_basis::rounding)
        return rule_reply("DIFFERENT",
                          "The final answers are different numbers under the "
                          "declared rounding ("
                            + rounding
                            + "), though one may be a rounding of the other.",
                          ta, tb);
      if (c.basis == number_basis::fractions)
        return rule_reply("DIFFERENT",
                          "The same number, but the declared strictness "
                          "(answer_policy fractions: reduced) requires lowest "
                          "terms: "
                            + ta + " and " + tb + ".",
                          {}, {});
      return rule_reply("DIFFERENT", "The final answers are different numbers.",
                        ta, tb);
    case number_relation::undecidable: break;
  }
  if (c.basis == number_basis::rounding)
    return rule_reply("ABSTAIN",
                      "Undecided: one answer agrees with the other only to the "
                      "places it gives, one may be a rounding of the other ("
                        + rounding + ").",
                      ta, tb);
  return rule_reply("ABSTAIN", "Undecided: " + c.why + ".", ta, tb);
}

std::optional<std::string> numeric_step(std::string_view a, std::string_view b,
                                        final_numbers& read,
                                        const answer_policy& policy) {
  if (auto missing = absent_reply(a, b))
    return missing;
  read.a = read_final_number(a);
  read.b = read_final_number(b);
  if (!read.a || !read.b)
    return std::nullopt;
  // The same text states the same answer, however it was found.
  if (text::trim(a) == text::trim(b) && !read.a->contradicted)
    return rule_reply("EQUIVALENT", "The answers are written identically.",
                      number_text(*read.a), number_text(*read.b));
  return numbers_reply(*read.a, *read.b, policy);
  return std::nullopt;
}

} // namespace ij
