#include "answers/math_rule_judge.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "answers/final_expression.hpp"
#include "answers/math_equivalence.hpp"
#include "answers/math_names.hpp"
#include "answers/math_reader.hpp"
#include "answers/math_units.hpp"
#include "answers/rule_reply.hpp"

namespace ij {

namespace {

/// One side as read: its readings (two when boxes are separated by prose),
/// each with the canonical text shown for it.
struct side {
  std::vector<math_answer> readings;
  std::string shown;
  /// Integer parameters the text declares ("k \in \mathbb{Z}").
  std::set<std::string> parameters;
  /// Units written after the value ("16\pi\text{ cm}^2": "cm^2").
  std::set<std::string> units;
  /// "1/2x", "2\frac{1}{3}": the text leaves open what a division covers,
  /// or whether a whole number and a fraction are a mixed number.
  bool open_convention = false;
  /// "g(0)": a name before a group that the pair never uses as a number
  /// (an application or a product).
  bool open_application = false;
  /// How the answer was found (answer_provenance.hpp).
  answer_locator found_by = answer_locator::whole_text;
};

/// "(B) 4", "\\textbf{(D) } 24", "\\text{(A)}\\ 5": a choice's label
/// before its value; the value is the answer (read as "B times 4" it would
/// differ from 4).
void strip_choice_label(std::string& e) {
  std::size_t k = 0;
  for (const char* w :
       {"\\textbf{", "\\text{", "\\mathbf{", "\\mathrm{", "\\textrm{"}) {
    const std::string_view wrap{w};
    if (e.compare(0, wrap.size(), wrap) == 0)
      k = wrap.size();
  }
  if (e.size() < k + 4 || e[k] != '(' || e[k + 1] < 'A' || e[k + 1] > 'E'
      || e[k + 2] != ')')
    return;
  std::size_t rest = k + 3;
  if (k > 0) {
    while (rest < e.size() && e[rest] == ' ')
      ++rest;
    if (rest >= e.size() || e[rest] != '}')
      return;
    ++rest;
    // Spacing after the wrapped label: " ", "\\ ", "~", "\\quad".
    for (bool more = true; more;) {
      more = false;
      for (std::string_view gap : {" ", "~", "\\ ", "\\quad", "\\,"})
        if (e.compare(rest, gap.size(), gap) == 0) {
          rest += gap.size();
          more = true;
        }
    }
    if (rest >= e.size())
      return;
    e.erase(0, rest);
    return;
  }
  if (rest >= e.size() || e[rest] != ' ')
    return;
  e.erase(0, rest);
}

/// read_math after a choice label, a declared integer parameter and a
/// unit after the value are taken off.
std::optional<math_answer> read_expression(std::string e, side& s,
                                           symbol_table& symbols,
                                           const math_convention& convention) {
  strip_choice_label(e);
  if (auto p = strip_integer_parameter(e))
    s.parameters.insert(*p);
  if (auto u = trailing_unit(e)) {
    s.units.insert(u->unit);
    e = u->expression;
  }
  auto a = read_math(e, symbols, convention);
  if (a && (a->ambiguous_division || a->ambiguous_mixed))
    s.open_convention = true;
  if (a && a->ambiguous_application)
    s.open_application = true;
  return a;
}

/// A number read by the numeric reader, as an exact expression; nullopt
/// when a percent makes it more than a value (its unit is the side's).
std::optional<math_answer> number_as_math(const number_reading& r) {
  if (r.percent || r.approximate)
    return std::nullopt;
  math_answer a;
  if (r.exact) {
    const auto n = r.exact->num, d = r.exact->den;
    if (n > INT64_MAX || n < INT64_MIN || d > INT64_MAX)
      return std::nullopt;
    a.value =
      GiNaC::numeric(std::to_string(static_cast<long long>(n)).c_str())
      / GiNaC::numeric(std::to_string(static_cast<long long>(d)).c_str());
  } else {
    a.value = GiNaC::numeric(r.value);
  }
  a.min_places = r.places && *r.places > 0 ? *r.places : -1;
  return a;
}

/// A number read through "=" ("xy = 1") is read symbolically first: the
/// other side is not one number, and may be an equation.
bool through_equals(const final_expression_set& found) {
  return found.readings.size() == 1
         && found.readings.front().find('=') != std::string::npos;
}

/// The route read_side's reading comes from: the number's when the side
/// is read as one number, else its final expressions'.
answer_locator found_by(const final_expression_set& found,
                        const std::optional<number_reading>& number) {
  return number && found.readings.size() <= 1 && !through_equals(found)
           ? number->found_by
           : found.found_by;
}

/// One side read from its final expressions (found once per pair) and,
/// when it reads as one number, that number.
std::optional<side> read_side(const final_expression_set& found,
                              const std::optional<number_reading>& number,
                              symbol_table& symbols,
                              const math_convention& convention) {
  side s;
  const auto& expressions = found.readings;
  s.found_by = found.found_by;
  if (through_equals(found))
    if (auto a = read_expression(expressions.front(), s, symbols, convention)) {
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
    s.found_by = number->found_by;
    if (!number->unit.empty())
      s.units.insert(number->unit);
    return s;
  }
  for (const auto& e : expressions) {
    auto a = read_expression(e, s, symbols, convention);
    if (!a)
      return std::nullopt;
    s.readings.push_back(std::move(*a));
  }
  if (s.readings.empty())
    return std::nullopt;
  s.shown = math_text(s.readings.front());
  return s;
}

/// A lone capital letter A to E: a choice, not a variable (against a
/// value it is undecided: "B" may be the choice whose value is 4).
bool choice_letter(const math_answer& a) {
  if (a.kind != math_kind::expression || !GiNaC::is_a<GiNaC::symbol>(a.value))
    return false;
  const auto n = GiNaC::ex_to<GiNaC::symbol>(a.value).get_name();
  return n.size() == 1 && n[0] >= 'A' && n[0] <= 'E';
}

/// Every reading of A against every reading of B: decided only when all
/// agree.
math_outcome compare_sides(const side& a, const side& b,
                           const pair_budget& budget, symbol_table& symbols) {
  std::optional<math_outcome> agreed;
  auto parameters = a.parameters;
  parameters.insert(b.parameters.begin(), b.parameters.end());
  for (const auto& x0 : a.readings) {
    for (const auto& y0 : b.readings) {
      auto x = x0, y = y0;
      if (choice_letter(x) != choice_letter(y)) // "B" against "4"
        return {math_verdict::undecided, math_method::kind};
      const auto names = align_names(x, y, parameters, symbols);
      auto o = compare_math(x, y, budget);
      if ((names == naming::arbitrary && o.verdict == math_verdict::equal)
          || (names == naming::unaligned
              && o.verdict == math_verdict::different))
        o = {math_verdict::undecided, math_method::names};
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
    case math_method::names:
      return "Undecided: the answers agree only with a variable renamed; "
             "the problem may have meant either name.";
    case math_method::evaluation:
      return "Undecided: neither exact simplification nor evaluation could "
             "tell.";
    case math_method::convention:
      return "Undecided: the answers decide differently as \"1/2x\" = "
             "(1/2)x or 1/(2x), \"2\\frac{1}{3}\" = 2/3 or 7/3, or "
             "\"g(0)\" = g applied to 0 or g times 0.";
    case math_method::log_base:
      return "Undecided: a logarithm without a base decides differently "
             "as the natural, the common or the binary logarithm.";
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

/// A rounding the reader could not settle, settled by a declared policy.
std::optional<std::string> rounding_reply(const answer_policy& policy,
                                          const std::string& ta,
                                          const std::string& tb) {
  if (policy.rounding == rounding_policy::consistent)
    return rule_reply("EQUIVALENT",
                      "Equal within the declared rounding (answer_policy "
                      "rounding: consistent): one answer agrees with the "
                      "other to the places it gives.",
                      {}, {});
  if (policy.rounding == rounding_policy::strict)
    return rule_reply("DIFFERENT",
                      "The final answers are different values under the "
                      "declared rounding (answer_policy rounding: strict), "
                      "though one agrees with the other to the places it "
                      "gives.",
                      ta, tb);
  return std::nullopt;
}

std::string joined_units(const std::set<std::string>& u) {
  std::string out;
  for (const auto& x : u)
    out += (out.empty() ? "" : " ") + x;
  return out;
}

/// Units, as the number reader's: different units on both sides abstain
/// (converting is not the judge's job), one side's unit is ignored unless
/// the declared policy is strict.
std::optional<std::string> unit_reply(const side& a, const side& b,
                                      const math_outcome& o,
                                      const answer_policy& policy,
                                      const std::string& ta,
                                      const std::string& tb) {
  if (o.verdict == math_verdict::undecided || a.units == b.units)
    return std::nullopt;
  // "30^\circ" against "\frac{\pi}{6}": the other is an angle in radians
  // as likely as in degrees.
  const bool degrees = a.units.count("deg") > 0 || b.units.count("deg") > 0;
  if (degrees && (a.units.empty() || b.units.empty())
      && o.verdict == math_verdict::different)
    return rule_reply("ABSTAIN",
                      "Undecided: an angle in degrees against a value "
                      "without a unit, which may be in radians.",
                      ta, tb);
  if (!a.units.empty() && !b.units.empty())
    return rule_reply("ABSTAIN",
                      "Undecided: the answers carry different units ("
                        + joined_units(a.units) + ", " + joined_units(b.units)
                        + ").",
                      ta, tb);
  if (policy.units == unit_policy::strict)
    return rule_reply("ABSTAIN",
                      "Undecided: the declared unit policy (answer_policy "
                      "units: strict) needs the unit ("
                        + joined_units(a.units.empty() ? b.units : a.units)
                        + ") on both sides.",
                      ta, tb);
  return std::nullopt;
}

bool unbased_log(const std::vector<std::string>& ea,
                 const std::vector<std::string>& eb) {
  auto any = [](const std::vector<std::string>& v) {
    return std::any_of(v.begin(), v.end(),
                       [](const std::string& e) { return has_unbased_log(e); });
  };
  return any(ea) || any(eb);
}

/// `o` stands only if every convention the texts leave open decides the
/// same: "\log 100" against 2 (natural, common, binary logarithm), "1/2x"
/// against "\frac{1}{2x}" ((1/2)x or 1/(2x)), "(2\frac{1}{3}, 1)" (a mixed
/// number or a product), "2g(0)" against 0 (g applied to 0, or g times 0).
math_outcome
under_open_conventions(math_outcome o, const final_expression_set& a,
                       const final_expression_set& b,
                       const std::optional<number_reading>& x,
                       const std::optional<number_reading>& y, bool open_log,
                       bool open_juxtaposition, bool open_application,
                       const pair_budget& budget, symbol_table& symbols) {
  std::vector<log_reading> logs{log_reading::natural};
  if (open_log) {
    logs.push_back(log_reading::common);
    logs.push_back(log_reading::binary);
  }
  for (auto log : logs) {
    for (bool tight : {false, true}) {
      for (bool products : {false, true}) {
        if ((log == log_reading::natural && !tight && !products)
            || (tight && !open_juxtaposition)
            || (products && !open_application))
          continue;
        // Both juxtaposition conventions at once: "1/2x" and "2\frac13"
        // are the same habit of writing (what binds tighter than an
        // operator).
        const math_convention c{log, tight, tight, products};
        auto ca = read_side(a, x, symbols, c);
        auto cb = read_side(b, y, symbols, c);
        if (!ca || !cb
            || compare_sides(*ca, *cb, budget, symbols).verdict != o.verdict)
          return {math_verdict::undecided,
                  open_log && log != log_reading::natural
                    ? math_method::log_base
                    : math_method::convention};
      }
    }
  }
  return o;
}

std::string symbolic_reply(std::string_view a, std::string_view b,
                           const std::optional<number_reading>& x,
                           const std::optional<number_reading>& y,
                           const answer_policy& policy,
                           std::chrono::microseconds limit) {
  const auto fa = find_final_expressions(a);
  const auto fb = find_final_expressions(b);
  const auto ea = x ? std::vector<std::string>{} : fa.readings;
  const auto eb = y ? std::vector<std::string>{} : fb.readings;
  if (!x && !y && ea.size() == 1 && ea == eb)
    return rule_reply("EQUIVALENT",
                      "The final answers are written identically.", {}, {});
  // Neither decision could stand (two values from the working): no reading.
  if (const auto la = found_by(fa, x), lb = found_by(fb, y);
      !may_say_equivalent(la, lb))
    return *provenance_reply(true, la, lb, x ? number_text(*x) : "",
                             y ? number_text(*y) : "");
  std::lock_guard<std::mutex> lock{math_lock()};
  pair_budget budget{limit}; // from here: the wait for the lock is not ours
  symbol_table symbols;
  const auto any_applied = [](const std::vector<std::string>& es) {
    return std::any_of(es.begin(), es.end(), may_apply_a_name);
  };
  if (any_applied(ea) || any_applied(eb))
    for (const auto* side : {&ea, &eb})
      for (const auto& e : *side)
        note_number_names(e, symbols);
  auto sa = read_side(fa, x, symbols, math_convention{});
  auto sb = read_side(fb, y, symbols, math_convention{});
  const std::string ta = sa ? sa->shown : (x ? number_text(*x) : "");
  const std::string tb = sb ? sb->shown : (y ? number_text(*y) : "");
  if (!sa || !sb)
    return unread_reply(sa.has_value(), sb.has_value(), ta, tb);
  auto o = compare_sides(*sa, *sb, budget, symbols);
  if (o.verdict != math_verdict::undecided)
    o = under_open_conventions(o, fa, fb, x, y, unbased_log(ea, eb),
                               sa->open_convention || sb->open_convention,
                               sa->open_application || sb->open_application,
                               budget, symbols);
  if (o.verdict != math_verdict::undecided
      && ((x && x->point_grouping) || (y && y->point_grouping))) {
    // "12.345" as whole thousands too (rule_reply.cpp does the same for
    // two numbers): a pair the readings decide differently abstains.
    const auto grouped = [](const std::optional<number_reading>& r) {
      return r && r->point_grouping ? std::optional{as_point_grouped(*r)} : r;
    };
    auto ga = read_side(fa, grouped(x), symbols, math_convention{});
    auto gb = read_side(fb, grouped(y), symbols, math_convention{});
    if (!ga || !gb
        || compare_sides(*ga, *gb, budget, symbols).verdict != o.verdict)
      return rule_reply("ABSTAIN",
                        "Undecided: a point before three digits is a decimal "
                        "or a thousands separator (de, es, it, pt, id, vi, "
                        "...), and the two readings decide differently.",
                        ta, tb);
  }
  if (budget.spent())
    o = {math_verdict::undecided, math_method::budget};
  if ((x && x->contradicted) || (y && y->contradicted))
    return rule_reply("ABSTAIN",
                      "Undecided: an answer states answers with different "
                      "values and no final answer settles which.",
                      ta, tb);
  if (o.verdict != math_verdict::undecided)
    if (auto gated = provenance_reply(o.verdict == math_verdict::equal,
                                      sa->found_by, sb->found_by, ta, tb))
      return *gated;
  if (o.verdict == math_verdict::different
      && ((x && x->ambiguous) || (y && y->ambiguous)))
    return rule_reply("ABSTAIN",
                      "Undecided: a final sentence states several values and "
                      "nothing says which one is the answer.",
                      ta, tb);
  if (auto u = unit_reply(*sa, *sb, o, policy, ta, tb))
    return *u;
  if (o.verdict == math_verdict::undecided && o.method == math_method::rounding)
    if (auto settled = rounding_reply(policy, ta, tb))
      return *settled;
  if (o.verdict == math_verdict::undecided)
    return rule_reply("ABSTAIN", undecided_reason(o.method), ta, tb);
  return decided_reply(o, ta, tb);
}

} // namespace

std::string math_rule_reply(std::string_view a, std::string_view b,
                            std::chrono::microseconds budget) {
  return math_rule_reply(a, b, answer_policy{}, budget);
}

std::string math_rule_reply(std::string_view a, std::string_view b,
                            const answer_policy& policy,
                            std::chrono::microseconds budget) {
  final_numbers read;
  if (auto decided = numeric_step(a, b, read, policy))
    return *decided;
  try {
    return symbolic_reply(a, b, read.a, read.b, policy, budget);
  } catch (const std::exception&) {
    return rule_reply(
      "ABSTAIN", "Undecided: the algebra engine refused the answers.", {}, {});
  }
}

} // namespace ij
