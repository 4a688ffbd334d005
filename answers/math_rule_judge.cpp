#include "answers/math_rule_judge.hpp"

#include <cstdint>
#include <optional>
#include <vector>

#include "answers/final_expression.hpp"
#include "answers/math_equivalence.hpp"
#include "answers/math_reader.hpp"
#include "answers/rule_reply.hpp"

namespace ij {

namespace {

/// One side as read: its readings (two when boxes are separated by prose),
/// each with the canonical text shown for it.
struct side {
  std::vector<math_answer> readings;
  std::string shown;
};

/// A number read by the numeric reader, as an exact expression; nullopt
/// when a percent or a unit makes it more than a value.
std::optional<math_answer> number_as_math(const number_reading& r) {
  if (r.percent || !r.unit.empty() || r.approximate)
    return std::nullopt;
  math_answer a;
  if (r.exact) {
    const auto n = r.exact->num, d = r.exact->den;
    if (n > INT64_MAX || n < INT64_MIN || d > INT64_MAX)
      return std::nullopt;
    a.value = GiNaC::numeric(std::to_string(static_cast<long long>(n)).c_str())
              / GiNaC::numeric(std::to_string(static_cast<long long>(d)).c_str());
  } else {
    a.value = GiNaC::numeric(r.value);
  }
  a.min_places = r.places && *r.places > 0 ? *r.places : -1;
  return a;
}

std::optional<side> read_side(std::string_view text,
                              const std::optional<number_reading>& number,
                              symbol_table& symbols) {
  side s;
  const auto expressions = final_expressions(text);
  // A number read through "=" ("xy = 1") is read symbolically first: the
  // other side is not one number, and may be an equation.
  const bool through_equals =
    expressions.size() == 1
    && expressions.front().find('=') != std::string::npos;
  if (through_equals)
    if (auto a = read_math(expressions.front(), symbols)) {
      s.readings.push_back(std::move(*a));
      s.shown = math_text(s.readings.front());
      return s;
    }
  if (number && expressions.size() <= 1) {
    auto a = number_as_math(*number);
    if (!a)
      return std::nullopt;
    s.readings.push_back(std::move(*a));
    s.shown = number_text(*number);
    return s;
  }
  for (const auto& e : expressions) {
    auto a = read_math(e, symbols);
    if (!a)
      return std::nullopt;
    s.readings.push_back(std::move(*a));
  }
  if (s.readings.empty())
    return std::nullopt;
  s.shown = math_text(s.readings.front());
  return s;
}

/// Every reading of A against every reading of B: decided only when all
/// agree.
math_outcome compare_sides(const side& a, const side& b,
                           const pair_budget& budget) {
  std::optional<math_outcome> agreed;
  for (const auto& x : a.readings) {
    for (const auto& y : b.readings) {
      auto o = compare_math(x, y, budget);
      if (o.verdict == math_verdict::undecided)
        return o;
      if (agreed && agreed->verdict != o.verdict)
        return {math_verdict::undecided, math_method::kind};
      if (!agreed || o.method == math_method::evaluation)
        agreed = o;
    }
  }
  return *agreed;
}

std::string decided_reply(const math_outcome& o, const std::string& ta,
                          const std::string& tb) {
  const bool by_evaluation = o.method == math_method::evaluation;
  if (o.verdict == math_verdict::equal)
    return rule_reply("EQUIVALENT",
                      by_evaluation
                        ? "The final answers agree at every sample point "
                          "(numerical evaluation, relative tolerance 1e-9)."
                        : "The final answers are the same (exact "
                          "simplification and structure).",
                      ta, tb);
  return rule_reply("DIFFERENT",
                    by_evaluation
                      ? "The final answers differ at a sample point "
                        "(numerical evaluation)."
                    : o.method == math_method::kind
                      ? "The final answers differ in shape (one value "
                        "against several)."
                      : "The final answers differ (exact comparison and "
                        "structure).",
                    ta, tb);
}

std::string undecided_reason(math_method m) {
  switch (m) {
    case math_method::rounding:
      return "Undecided: one answer agrees with the other only to the places "
             "it gives.";
    case math_method::domain:
      return "Undecided: the answers agree on the positive reals only.";
    case math_method::budget:
      return "Undecided: the time budget for the pair ran out.";
    case math_method::evaluation:
      return "Undecided: neither exact simplification nor evaluation could "
             "tell.";
    default:
      return "Undecided: the answers are of different kinds, or their order "
             "or meaning is ambiguous.";
  }
}

std::string unread_reply(bool a_read, bool b_read, const std::string& ta,
                         const std::string& tb) {
  return rule_reply("ABSTAIN",
                    !a_read && !b_read
                      ? "Neither final answer reads as mathematics."
                    : !a_read ? "The final answer of A does not read as "
                                "mathematics."
                              : "The final answer of B does not read as "
                                "mathematics.",
                    ta, tb);
}

std::string symbolic_reply(std::string_view a, std::string_view b,
                           const std::optional<number_reading>& x,
                           const std::optional<number_reading>& y,
                           std::chrono::microseconds limit) {
  const auto ea = x ? std::vector<std::string>{} : final_expressions(a);
  const auto eb = y ? std::vector<std::string>{} : final_expressions(b);
  if (!x && !y && ea.size() == 1 && ea == eb)
    return rule_reply("EQUIVALENT", "The final answers are written identically.",
                      {}, {});
  std::lock_guard<std::mutex> lock{math_lock()};
  pair_budget budget{limit}; // from here: the wait for the lock is not ours
  symbol_table symbols;
  auto sa = read_side(a, x, symbols);
  auto sb = read_side(b, y, symbols);
  const std::string ta = sa ? sa->shown : (x ? number_text(*x) : "");
  const std::string tb = sb ? sb->shown : (y ? number_text(*y) : "");
  if (!sa || !sb)
    return unread_reply(sa.has_value(), sb.has_value(), ta, tb);
  auto o = compare_sides(*sa, *sb, budget);
  if (budget.spent())
    o = {math_verdict::undecided, math_method::budget};
  if (o.verdict == math_verdict::undecided)
    return rule_reply("ABSTAIN", undecided_reason(o.method), ta, tb);
  return decided_reply(o, ta, tb);
}

} // namespace

std::string math_rule_reply(std::string_view a, std::string_view b,
                            std::chrono::microseconds budget) {
  final_numbers read;
  if (auto decided = numeric_step(a, b, read))
    return *decided;
  try {
    return symbolic_reply(a, b, read.a, read.b, budget);
  } catch (const std::exception&) {
    return rule_reply("ABSTAIN",
                      "Undecided: the algebra engine refused the answers.", {},
                      {});
  }
}

} // namespace ij
