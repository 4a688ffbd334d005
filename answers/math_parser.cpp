#include "answers/math_parser.hpp"

#include <algorithm>

#include "answers/expression_equality.hpp"

namespace ij::math_parsing {

math_answer expression_of(ex e, int places) {
  math_answer a;
  a.value = std::move(e);
  a.min_places = places;
  return a;
}

int fewer_places(int a, int b) {
  if (a < 0)
    return b;
  if (b < 0)
    return a;
  return std::min(a, b);
}

bool is_expression(const math_answer& a) {
  return a.kind == math_kind::expression;
}

/// Decimal digits of an integer numeric (for the size bounds).
long digits_of(const GiNaC::numeric& n) {
  if (n.is_zero())
    return 1;
  return static_cast<long>(GiNaC::numeric(GiNaC::abs(n)).int_length()) / 3 + 1;
}

bool negative_constant(const ex& e) {
  const auto v = value_at(e, {}); // doubles: no GiNaC object to throw from
  return v && v->imag() == 0 && v->real() < 0;
}

/// base^exponent within the bounds.
std::optional<ex> checked_power(const ex& base, const ex& exponent) {
  if (GiNaC::is_a<GiNaC::numeric>(exponent)) {
    const auto e = GiNaC::ex_to<GiNaC::numeric>(exponent);
    if (!e.is_rational())
      return std::nullopt;
    // "(-8)^{1/3}": the real root (-2) or the principal complex one
    // (1 + i sqrt 3)? The text does not say.
    if (!e.is_integer() && e.denom().is_odd() && negative_constant(base))
      return std::nullopt;
    const auto num = GiNaC::abs(e.numer());
    if (num > max_integer_exponent)
      return std::nullopt;
    // 0^0, 0^(-1): GiNaC's eval() throws out of a power it has already
    // allocated, and that power leaks.
    if (base.is_zero() && !e.is_positive())
      return std::nullopt;
    if (GiNaC::is_a<GiNaC::numeric>(base)) {
      const auto b = GiNaC::ex_to<GiNaC::numeric>(base);
      if (b.is_zero() && e.is_negative())
        return std::nullopt;
      const long d =
        b.is_rational() ? digits_of(b.numer()) + digits_of(b.denom()) : 20;
      if (d * num.to_long() > max_result_digits)
        return std::nullopt;
    }
  }
  // 0^x: no value where x is not positive.
  if (base.is_zero() && !GiNaC::is_a<GiNaC::numeric>(exponent))
    return std::nullopt;
  return GiNaC::pow(base, exponent);
}

bool count_in_bounds(const ex& n, long max) {
  if (!GiNaC::is_a<GiNaC::numeric>(n))
    return true;
  const auto v = GiNaC::ex_to<GiNaC::numeric>(n);
  return v.is_integer() && !v.is_negative() && v <= max;
}

// ------------------------------------------------------------ sequences

bool math_parser::at_separator() const {
  return is_op(",") || is_op(";") || is(K::word, "and") || is(K::word, "or");
}

bool math_parser::at_close(const char* close) const {
  if (at_end())
    return true;
  return close && is_op(close);
}

parsed math_parser::sequence(const char* close) {
  depth_guard guard{depth_};
  if (!guard)
    return std::nullopt;
  std::vector<math_answer> items;
  bool alternatives = false, trailing = false;
  while (!at_close(close)) {
    if (at_separator()) {
      alternatives = alternatives || is(K::word, "or");
      ++pos_;
      trailing = true;
      continue; // "6 and 8", "a, and b", "(0,)"
    }
    auto item = element();
    if (!item)
      return std::nullopt;
    items.push_back(std::move(*item));
    trailing = false;
    if (items.size() > 200)
      return std::nullopt;
  }
  if (items.empty())
    return std::nullopt;
  if (items.size() == 1 && !trailing)
    return std::move(items.front());
  return collection(std::move(items), alternatives);
}

math_answer math_parser::collection(std::vector<math_answer> items,
                                    bool alternatives) {
  math_answer out;
  const bool all_assignments =
    std::all_of(items.begin(), items.end(), [](const math_answer& a) {
      return a.kind == math_kind::assignment;
    });
  if (all_assignments)
    return systems(std::move(items));
  if (items.front().kind == math_kind::assignment
      && std::all_of(items.begin() + 1, items.end(), is_expression)) {
    // "n = 2, 3, 4": the values of one variable.
    out = std::move(items.front());
    math_answer values;
    values.kind = math_kind::set;
    values.items.push_back(std::move(out.items.front()));
    for (auto it = items.begin() + 1; it != items.end(); ++it)
      values.items.push_back(std::move(*it));
    out.items.front() = std::move(values);
    return out;
  }
  const bool points =
    items.size() > 1
    && std::all_of(items.begin(), items.end(), [](const math_answer& a) {
         return a.kind == math_kind::tuple;
       });
  const bool any_pair =
    std::any_of(items.begin(), items.end(),
                [](const math_answer& a) { return a.plus_minus; });
  // "1 \pm \sqrt 5, -2": values, not a tuple.
  out.kind =
    alternatives || points || any_pair ? math_kind::set : math_kind::list;
  out.items = flattened(std::move(items));
  return out;
}

std::vector<math_answer>
math_parser::flattened(std::vector<math_answer> items) {
  std::vector<math_answer> out;
  for (auto& a : items) {
    if (a.plus_minus)
      for (auto& x : a.items)
        out.push_back(std::move(x));
    else
      out.push_back(std::move(a));
  }
  return out;
}

math_answer math_parser::systems(std::vector<math_answer> items) {
  std::vector<math_answer> solutions;
  math_answer current;
  current.kind = math_kind::system;
  for (auto& a : items) {
    const bool repeats =
      std::any_of(current.items.begin(), current.items.end(),
                  [&](const math_answer& b) { return b.name == a.name; });
    if (repeats) {
      solutions.push_back(std::move(current));
      current = math_answer{};
      current.kind = math_kind::system;
    }
    current.items.push_back(std::move(a));
  }
  solutions.push_back(std::move(current));
  const bool one_name_each =
    std::all_of(solutions.begin(), solutions.end(), [&](const math_answer& s) {
      return s.items.size() == 1
             && s.items.front().name == solutions.front().items.front().name;
    });
  if (solutions.size() > 1 && one_name_each) {
    // "x = 1 or x = 2": the values of one variable.
    math_answer values;
    values.kind = math_kind::set;
    for (auto& s : solutions)
      values.items.push_back(std::move(s.items.front().items.front()));
    math_answer out = std::move(solutions.front().items.front());
    out.items.front() = std::move(values);
    return out;
  }
  if (solutions.size() == 1) {
    if (solutions.front().items.size() == 1)
      return std::move(solutions.front().items.front());
    return std::move(solutions.front());
  }
  math_answer set;
  set.kind = math_kind::set;
  set.items = std::move(solutions);
  return set;
}

// ------------------------------------------------------------ relations

bool math_parser::relation_at(std::size_t k) const {
  for (std::string_view op : {"=", "<", ">", "<=", ">=", "!="})
    if (is(K::op, op, k))
      return true;
  return false;
}

std::optional<relation_op> math_parser::relation_here() const {
  static const std::pair<std::string_view, relation_op> ops[] = {
    {"=", relation_op::eq}, {"<", relation_op::lt},  {"<=", relation_op::le},
    {">", relation_op::gt}, {">=", relation_op::ge}, {"!=", relation_op::ne}};
  for (const auto& [text, op] : ops)
    if (is_op(text))
      return op;
  return std::nullopt;
}

parsed math_parser::element() {
  auto first = ratio();
  if (!first)
    return std::nullopt;
  if (eat_op("approx")) {
    // "x \approx 0.58": the value; "\frac{1}{3} \approx 0.33": the exact
    // value is the answer, the approximation only illustrates it.
    auto approximation = united();
    while (approximation && eat_op("approx"))
      approximation = united();
    if (!approximation)
      return std::nullopt;
    if (simple_name(*first))
      return assignment(*first, std::move(*approximation));
    return first;
  }
  if (eat_op("in")) {
    auto set = united();
    if (!set)
      return std::nullopt;
    return assignment(*first, std::move(*set));
  }
  std::vector<math_answer> parts{std::move(*first)};
  std::vector<relation_op> ops;
  while (auto op = relation_here()) {
    ++pos_;
    ops.push_back(*op);
    auto part = ratio();
    if (!part)
      return std::nullopt;
    parts.push_back(std::move(*part));
  }
  if (eat_op("approx") && !united())
    return std::nullopt;
  if (ops.empty())
    return std::move(parts.front());
  return relation(std::move(parts), std::move(ops));
}

std::optional<std::string> math_parser::simple_name(const math_answer& a) {
  if (!is_expression(a) || !GiNaC::is_a<GiNaC::symbol>(a.value))
    return std::nullopt;
  auto name = GiNaC::ex_to<GiNaC::symbol>(a.value).get_name();
  if (name == "\\infty")
    return std::nullopt;
  return name;
}

std::optional<std::string> math_parser::names_tuple(const math_answer& a) {
  if (a.kind != math_kind::tuple)
    return std::nullopt;
  std::string out = "(";
  for (const auto& item : a.items) {
    auto n = simple_name(item);
    if (!n)
      return std::nullopt;
    out += (out.size() > 1 ? ", " : "") + *n;
  }
  return out + ")";
}

parsed math_parser::ratio() {
  auto first = united();
  if (!first || !is_op(":"))
    return first;
  math_answer out;
  out.kind = math_kind::ratio;
  out.items.push_back(std::move(*first));
  while (eat_op(":")) {
    auto term = united();
    if (!term)
      return std::nullopt;
    out.items.push_back(std::move(*term));
  }
  for (const auto& t : out.items) {
    if (!is_expression(t) || t.plus_minus)
      return std::nullopt; // a ratio of structures
    out.min_places = fewer_places(out.min_places, t.min_places);
  }
  return out;
}

std::optional<std::string> math_parser::names_ratio(const math_answer& a) {
  if (a.kind != math_kind::ratio)
    return std::nullopt;
  std::string out;
  for (const auto& item : a.items) {
    auto n = simple_name(item);
    if (!n)
      return std::nullopt;
    out += (out.empty() ? "" : ":") + *n;
  }
  return out;
}

parsed math_parser::assignment(const math_answer& lhs, math_answer value) {
  auto name = simple_name(lhs);
  if (!name)
    name = names_tuple(lhs);
  if (!name && value.kind == math_kind::ratio)
    name = names_ratio(lhs); // "a:b = 2:3"
  if (!name)
    return std::nullopt;
  math_answer out;
  out.kind = math_kind::assignment;
  out.name = *name;
  if (is_expression(lhs))
    out.value = lhs.value; // the variable, for "y = 2x + 1" as an equation
  out.min_places = value.min_places;
  out.items.push_back(std::move(value));
  return out;
}

parsed math_parser::relation(std::vector<math_answer> parts,
                             std::vector<relation_op> ops) {
  const bool all_eq = std::all_of(
    ops.begin(), ops.end(), [](relation_op o) { return o == relation_op::eq; });
  // "x = 5", "5 = x", "z = 1 + 1 = 2" (the last value counts).
  if (all_eq && (simple_name(parts.front()) || names_tuple(parts.front())))
    return assignment(parts.front(), std::move(parts.back()));
  if (all_eq && parts.size() == 2 && names_ratio(parts.front())
      && parts.back().kind == math_kind::ratio)
    return assignment(parts.front(), std::move(parts.back()));
  if (all_eq && parts.size() == 2 && simple_name(parts.back()))
    return assignment(parts.back(), std::move(parts.front()));
  math_answer out;
  out.kind = math_kind::relation;
  for (auto& p : parts) {
    if (!is_expression(p))
      return std::nullopt; // a relation between structures
    out.min_places = fewer_places(out.min_places, p.min_places);
    out.terms.push_back(p.value);
  }
  out.ops = std::move(ops);
  return out;
}

} // namespace ij::math_parsing
