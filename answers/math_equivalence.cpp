#include "answers/math_equivalence.hpp"

#include <algorithm>
#include <sstream>

#include "answers/interval_union.hpp"

namespace ij {

namespace {

using GiNaC::ex;

constexpr std::size_t max_set_items = 40;

math_outcome outcome(math_verdict v, math_method m) {
  return {v, m};
}

math_outcome undecided(math_method m = math_method::kind) {
  return {math_verdict::undecided, m};
}

bool is_equal(const math_outcome& o) {
  return o.verdict == math_verdict::equal;
}

bool is_different(const math_outcome& o) {
  return o.verdict == math_verdict::different;
}

/// Element by element: one difference decides; all equal is equal (by
/// evaluation when any element was).
math_outcome all_of(const std::vector<math_outcome>& parts) {
  math_outcome worst{math_verdict::equal, math_method::exact};
  for (const auto& p : parts) {
    if (is_different(p))
      return p;
    if (!is_equal(p) && is_equal(worst))
      worst = p;
    else if (is_equal(worst) && p.method == math_method::evaluation)
      worst.method = math_method::evaluation;
  }
  return worst;
}

math_outcome in_order(const std::vector<math_answer>& a,
                      const std::vector<math_answer>& b,
                      const pair_budget& budget) {
  if (a.size() != b.size())
    return outcome(math_verdict::different, math_method::exact);
  std::vector<math_outcome> parts;
  for (std::size_t i = 0; i < a.size(); ++i) {
    parts.push_back(compare_math(a[i], b[i], budget));
    if (is_different(parts.back()))
      break;
  }
  return all_of(parts);
}

/// Order-free: each element matched by an equal one on the other side.
math_outcome as_sets(const std::vector<math_answer>& a,
                     const std::vector<math_answer>& b,
                     const pair_budget& budget) {
  if (a.size() > max_set_items || b.size() > max_set_items)
    return undecided();
  std::vector<std::vector<math_outcome>> m(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < b.size(); ++j) {
      if (budget.spent())
        return undecided(math_method::budget);
      m[i].push_back(compare_math(a[i], b[j], budget));
    }
  }
  auto row_matched = [&](std::size_t i) {
    return std::any_of(m[i].begin(), m[i].end(), is_equal);
  };
  auto col_matched = [&](std::size_t j) {
    return std::any_of(m.begin(), m.end(),
                       [&](const auto& row) { return is_equal(row[j]); });
  };
  auto row_rejected = [&](std::size_t i) {
    return std::all_of(m[i].begin(), m[i].end(), is_different);
  };
  auto col_rejected = [&](std::size_t j) {
    return std::all_of(m.begin(), m.end(),
                       [&](const auto& row) { return is_different(row[j]); });
  };
  bool all_matched = true, by_evaluation = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (row_rejected(i))
      return outcome(math_verdict::different, math_method::exact);
    all_matched = all_matched && row_matched(i);
    for (const auto& o : m[i])
      by_evaluation = by_evaluation || o.method == math_method::evaluation;
  }
  for (std::size_t j = 0; j < b.size(); ++j) {
    if (col_rejected(j))
      return outcome(math_verdict::different, math_method::exact);
    all_matched = all_matched && col_matched(j);
  }
  if (all_matched)
    return outcome(math_verdict::equal, by_evaluation ? math_method::evaluation
                                                      : math_method::exact);
  return undecided(math_method::evaluation);
}

/// A bare list against a list or tuple: in order it decides; the same
/// elements in another order is a tuple or a set of solutions: undecided.
math_outcome list_against(const math_answer& a, const math_answer& b,
                          const pair_budget& budget) {
  auto ordered = in_order(a.items, b.items, budget);
  if (is_equal(ordered))
    return ordered;
  auto unordered = as_sets(a.items, b.items, budget);
  if (is_equal(unordered))
    return undecided();
  if (is_different(unordered))
    return unordered;
  return a.items.size() == b.items.size() ? ordered : undecided();
}

// ------------------------------------------------------------ intervals

std::optional<double> real_value(const ex& e) {
  auto v = value_at(e, {});
  if (!v || v->imag() != 0.0)
    return std::nullopt;
  return v->real();
}

math_outcome same_end(const interval_end& x, const interval_end& y,
                      const pair_budget& budget) {
  if (x.infinite || y.infinite) {
    const bool same = x.infinite && y.infinite && x.value.is_equal(y.value);
    return outcome(same ? math_verdict::equal : math_verdict::different,
                   math_method::exact);
  }
  auto v = compare_expressions(x.value, x.places, y.value, y.places, budget);
  if (is_equal(v) && x.closed != y.closed)
    return outcome(math_verdict::different, math_method::exact);
  return v;
}

std::optional<std::vector<math_interval>> sorted(std::vector<math_interval> v) {
  std::vector<std::pair<double, math_interval>> keyed;
  for (auto& i : v) {
    double key;
    if (i.lo.infinite) {
      key = -1e300;
    } else {
      auto r = real_value(i.lo.value);
      if (!r)
        return std::nullopt;
      key = *r;
    }
    keyed.emplace_back(key, std::move(i));
  }
  std::stable_sort(
    keyed.begin(), keyed.end(),
    [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<math_interval> out;
  for (auto& k : keyed)
    out.push_back(std::move(k.second));
  return out;
}

math_outcome compare_intervals(const std::vector<math_interval>& a,
                               const std::vector<math_interval>& b,
                               const pair_budget& budget) {
  // Pieces may overlap or merge: unions of real constants are compared in
  // canonical form, where another number of pieces is another set.
  auto ca = canonical_union(a), cb = canonical_union(b);
  if (ca && cb && ca->size() != cb->size())
    return outcome(math_verdict::different, math_method::exact);
  if (a.size() != b.size() && !(ca && cb))
    return undecided(); // a union may merge into fewer pieces
  if (!(ca && cb) && a.size() > 1) {
    // Written decimals or unknown ends: piece by piece only when neither
    // side's pieces overlap or touch as written.
    auto wa = canonical_union(a, true), wb = canonical_union(b, true);
    if (!wa || !wb || wa->size() != a.size() || wb->size() != b.size())
      return undecided();
  }
  auto x = ca && cb ? ca : sorted(a), y = ca && cb ? cb : sorted(b);
  if (!x || !y)
    return undecided(math_method::evaluation);
  std::vector<math_outcome> parts;
  for (std::size_t i = 0; i < x->size(); ++i) {
    parts.push_back(same_end((*x)[i].lo, (*y)[i].lo, budget));
    parts.push_back(same_end((*x)[i].hi, (*y)[i].hi, budget));
  }
  return all_of(parts);
}

std::optional<std::vector<math_interval>> pair_as_interval(const math_answer& t,
                                                           bool closed) {
  if (t.items.size() != 2 || t.items[0].kind != math_kind::expression
      || t.items[1].kind != math_kind::expression)
    return std::nullopt;
  math_interval i;
  i.lo.value = t.items[0].value;
  i.lo.closed = closed;
  i.hi.value = t.items[1].value;
  i.hi.closed = closed;
  return std::vector<math_interval>{i};
}

bool has_symbol(const ex& e) {
  if (GiNaC::is_a<GiNaC::symbol>(e))
    return true;
  for (std::size_t i = 0; i < e.nops(); ++i)
    if (has_symbol(e.op(i)))
      return true;
  return false;
}

/// "a < x \le b", "x > 2", "2 > x": the solution set of a chain around
/// one variable, with constant bounds.
/// "|x - 1| < 2" = (-1, 3), "|x| \ge 2" = (-oo, -2] U [2, oo): an absolute
/// value of x plus a constant against a positive constant.
std::optional<std::vector<math_interval>>
absolute_as_interval(const math_answer& r) {
  if (r.terms.size() != 2 || r.ops[0] == relation_op::eq
      || r.ops[0] == relation_op::ne)
    return std::nullopt;
  const bool abs_left = GiNaC::is_the_function<GiNaC::abs_SERIAL>(r.terms[0]);
  const ex& a = r.terms[abs_left ? 0 : 1];
  const ex& c = r.terms[abs_left ? 1 : 0];
  if (!GiNaC::is_the_function<GiNaC::abs_SERIAL>(a) || has_symbol(c))
    return std::nullopt;
  const ex arg = a.op(0).expand();
  std::optional<ex> var;
  for (auto it = arg.preorder_begin(); it != arg.preorder_end(); ++it)
    if (GiNaC::is_a<GiNaC::symbol>(*it)) {
      if (var && !var->is_equal(*it))
        return std::nullopt;
      var = *it;
    }
  auto cv = real_value(c);
  if (!var || !cv || *cv <= 0 || !arg.is_polynomial(*var)
      || arg.degree(*var) != 1)
    return std::nullopt;
  const ex s = arg.coeff(*var, 1), rest = arg.coeff(*var, 0);
  if (!(s.is_equal(1) || s.is_equal(-1)) || has_symbol(rest))
    return std::nullopt;
  const ex shift = rest * s; // |s x + rest| = |x + rest s|
  auto op = r.ops[0];
  if (!abs_left) // "2 > |x|" is "|x| < 2"
    op = op == relation_op::lt   ? relation_op::gt
         : op == relation_op::le ? relation_op::ge
         : op == relation_op::gt ? relation_op::lt
                                 : relation_op::le;
  const bool closed = op == relation_op::le || op == relation_op::ge;
  math_interval inner;
  inner.lo.value = -c - shift;
  inner.hi.value = c - shift;
  inner.lo.closed = inner.hi.closed = closed;
  if (op == relation_op::lt || op == relation_op::le)
    return std::vector<math_interval>{inner};
  math_interval below, above;
  below.lo.infinite = above.hi.infinite = true;
  below.lo.value = -1;
  above.hi.value = 1;
  below.hi = inner.lo;
  above.lo = inner.hi;
  return std::vector<math_interval>{below, above};
}

std::optional<std::vector<math_interval>>
relation_as_interval(const math_answer& r) {
  const auto& t = r.terms;
  if (t.size() < 2 || t.size() > 3)
    return std::nullopt;
  if (auto a = absolute_as_interval(r))
    return a;
  if (t.size() == 2 && r.ops[0] == relation_op::ne) {
    // "x \ne 2": the line without the point, (-oo, 2) U (2, oo).
    const std::size_t var = GiNaC::is_a<GiNaC::symbol>(t[0]) ? 0 : 1;
    if (!GiNaC::is_a<GiNaC::symbol>(t[var]) || has_symbol(t[1 - var]))
      return std::nullopt;
    math_interval below, above;
    below.lo.infinite = above.hi.infinite = true;
    below.lo.value = -1;
    above.hi.value = 1;
    below.hi.value = above.lo.value = t[1 - var];
    return std::vector<math_interval>{below, above};
  }
  const bool up = std::all_of(r.ops.begin(), r.ops.end(), [](relation_op o) {
    return o == relation_op::lt || o == relation_op::le;
  });
  const bool down = std::all_of(r.ops.begin(), r.ops.end(), [](relation_op o) {
    return o == relation_op::gt || o == relation_op::ge;
  });
  if (!up && !down)
    return std::nullopt;
  std::size_t var =
    t.size() == 3 ? 1 : (GiNaC::is_a<GiNaC::symbol>(t[0]) ? 0 : 1);
  if (!GiNaC::is_a<GiNaC::symbol>(t[var]))
    return std::nullopt;
  for (std::size_t k = 0; k < t.size(); ++k)
    if (k != var && has_symbol(t[k]))
      return std::nullopt;
  math_interval i;
  i.lo.infinite = i.hi.infinite = true;
  i.lo.value = -1;
  i.hi.value = 1;
  auto bound = [&](std::size_t k, relation_op op, bool var_left) {
    const bool strict = op == relation_op::lt || op == relation_op::gt;
    const bool upper = up == var_left; // x < c, or c > x
    interval_end& e = upper ? i.hi : i.lo;
    e.infinite = false;
    e.value = t[k];
    e.closed = !strict;
  };
  if (var > 0)
    bound(var - 1, r.ops[var - 1], false);
  if (var + 1 < t.size())
    bound(var + 1, r.ops[var], true);
  return std::vector<math_interval>{i};
}

// ------------------------------------------------------------ relations

bool linear(const ex& p) {
  GiNaC::exset symbols;
  for (auto it = p.preorder_begin(); it != p.preorder_end(); ++it)
    if (GiNaC::is_a<GiNaC::symbol>(*it))
      symbols.insert(*it);
  GiNaC::lst variables;
  for (const auto& v : symbols)
    variables.append(v);
  if (!p.is_polynomial(variables))
    return false;
  for (const auto& s : symbols)
    if (has_symbol(p.diff(GiNaC::ex_to<GiNaC::symbol>(s))))
      return false;
  return true;
}

/// p / q is a constant: exactly, or at every sample point.
std::optional<std::pair<double, math_method>>
constant_ratio(const ex& p, const ex& q, const pair_budget& budget) {
  try {
    const ex k = GiNaC::normal(p / q);
    if (GiNaC::is_a<GiNaC::numeric>(k) && !k.is_zero())
      if (auto v = real_value(k))
        return std::make_pair(*v, math_method::exact);
  } catch (const std::exception&) {
  }
  auto points = sample_points(p, q, true, 6);
  std::optional<double> ratio;
  int seen = 0;
  for (const auto& pt : points) {
    if (budget.spent())
      return std::nullopt;
    auto x = value_at(p, pt), y = value_at(q, pt);
    if (!x || !y || std::abs(*y) < 1e-9 || x->imag() != 0 || y->imag() != 0)
      continue;
    const double r = x->real() / y->real();
    if (ratio && std::abs(r - *ratio) > 1e-9 * std::max(1.0, std::abs(r)))
      return std::nullopt;
    ratio = r;
    ++seen;
  }
  if (seen < 4 || !ratio || *ratio == 0.0)
    return std::nullopt;
  return std::make_pair(*ratio, math_method::evaluation);
}

math_outcome compare_equations(const math_answer& a, const math_answer& b,
                               const pair_budget& budget) {
  const ex p = a.terms[0] - a.terms[1], q = b.terms[0] - b.terms[1];
  if (p.is_zero() || q.is_zero())
    return undecided();
  if (auto k = constant_ratio(p, q, budget))
    return outcome(math_verdict::equal, k->second);
  if (linear(p) && linear(q) && has_symbol(p) && has_symbol(q))
    return outcome(math_verdict::different, math_method::exact);
  return undecided(math_method::evaluation);
}

/// L op R as p < 0 or p <= 0.
std::pair<ex, bool> normalised(const math_answer& r) {
  const auto op = r.ops[0];
  const bool strict = op == relation_op::lt || op == relation_op::gt;
  if (op == relation_op::lt || op == relation_op::le)
    return {r.terms[0] - r.terms[1], strict};
  return {r.terms[1] - r.terms[0], strict};
}

math_outcome compare_inequalities(const math_answer& a, const math_answer& b,
                                  const pair_budget& budget) {
  auto [p, p_strict] = normalised(a);
  auto [q, q_strict] = normalised(b);
  if (auto k = constant_ratio(p, q, budget); k && k->first > 0)
    return outcome(p_strict == q_strict ? math_verdict::equal
                                        : math_verdict::different,
                   k->second);
  // A witness: a point where one holds and the other does not.
  for (bool positive : {true, false}) {
    for (const auto& pt : sample_points(p, q, positive, 6)) {
      auto x = value_at(p, pt), y = value_at(q, pt);
      if (!x || !y || x->imag() != 0 || y->imag() != 0)
        continue;
      if (std::abs(x->real()) < 1e-6 || std::abs(y->real()) < 1e-6)
        continue;
      if ((x->real() < 0) != (y->real() < 0))
        return outcome(math_verdict::different, math_method::evaluation);
    }
  }
  return undecided(math_method::evaluation);
}

/// One relation: an equation (or "a \ne b", whose solution set is the
/// complement of one), else one inequality.
bool is_single(const math_answer& r, bool equation) {
  if (r.ops.size() != 1)
    return false;
  const bool eq = r.ops[0] == relation_op::eq || r.ops[0] == relation_op::ne;
  return eq == equation;
}

math_outcome compare_relations(const math_answer& a, const math_answer& b,
                               const pair_budget& budget) {
  auto ia = relation_as_interval(a), ib = relation_as_interval(b);
  if (ia && ib)
    return compare_intervals(*ia, *ib, budget);
  if (is_single(a, true) && is_single(b, true)) {
    if (a.ops[0] != b.ops[0]) // "=" against "\ne"
      return outcome(math_verdict::different, math_method::exact);
    return compare_equations(a, b, budget);
  }
  if (is_single(a, false) && is_single(b, false))
    return compare_inequalities(a, b, budget);
  return undecided();
}

// ------------------------------------------------------------ dispatch

const math_answer* assigned_value(const math_answer& a) {
  return a.kind == math_kind::assignment ? &a.items.front() : nullptr;
}

math_outcome compare_systems(const math_answer& a, const math_answer& b,
                             const pair_budget& budget) {
  if (a.items.size() != b.items.size())
    return undecided();
  std::vector<math_outcome> parts;
  for (const auto& x : a.items) {
    auto it =
      std::find_if(b.items.begin(), b.items.end(),
                   [&](const math_answer& y) { return y.name == x.name; });
    if (it == b.items.end())
      return undecided();
    parts.push_back(compare_math(x.items.front(), it->items.front(), budget));
  }
  return all_of(parts);
}

bool is_collection(const math_answer& a) {
  return a.kind == math_kind::tuple || a.kind == math_kind::set
         || a.kind == math_kind::list;
}

/// One value against a collection: one element is that value (a single
/// solution); several are a different answer.
math_outcome value_against(const math_answer& v, const math_answer& c,
                           const pair_budget& budget) {
  if (c.number_like)
    return undecided(); // "1,22" against 1.22: a decimal comma, or a list?
  if (c.items.size() != 1) {
    // Two values against one: different only when the value is none of
    // them; one of them may be all the question asked for.
    // None of them (or an empty set): different.
    for (const auto& item : c.items)
      if (!is_different(compare_math(v, item, budget)))
        return undecided();
    return outcome(math_verdict::different, math_method::kind);
  }
  auto r = compare_math(v, c.items.front(), budget);
  if (c.kind == math_kind::tuple && is_equal(r))
    return undecided(); // "(5,)" is a tuple, not the number 5
  return r;
}

math_outcome collections(const math_answer& a, const math_answer& b,
                         const pair_budget& budget) {
  const auto ka = a.kind, kb = b.kind;
  if (ka == math_kind::set || kb == math_kind::set) {
    auto r = as_sets(a.items, b.items, budget);
    if (ka != kb && (ka == math_kind::tuple || kb == math_kind::tuple)
        && is_equal(r))
      return undecided(); // a set written as a tuple
    return r;
  }
  if (ka == math_kind::tuple && kb == math_kind::tuple) {
    if (a.items.size() == 2 && b.items.size() == 2
        && (a.round_pair != b.round_pair || a.square_pair != b.square_pair)) {
      // "(0, 1)" against "[0, 1]": brackets differ, as intervals or not.
      auto r = in_order(a.items, b.items, budget);
      return is_equal(r) ? outcome(math_verdict::different, math_method::exact)
                         : r;
    }
    return in_order(a.items, b.items, budget);
  }
  return list_against(ka == math_kind::list ? a : b,
                      ka == math_kind::list ? b : a, budget);
}

bool is_pair(const math_answer& a) {
  return a.kind == math_kind::tuple && (a.round_pair || a.square_pair);
}

/// The one variable of a relation with constant bounds.
std::optional<ex> bounded_variable(const math_answer& r) {
  std::optional<ex> var;
  for (const auto& t : r.terms) {
    if (GiNaC::is_a<GiNaC::symbol>(t)) {
      if (var && !var->is_equal(t))
        return std::nullopt;
      var = t;
    }
  }
  return var;
}

/// "x \le -1 or x \ge 1": alternatives around one variable are the union
/// of their solution sets.
std::optional<std::vector<math_interval>>
alternatives_as_union(const math_answer& a) {
  if (a.kind != math_kind::set || a.items.empty())
    return std::nullopt;
  std::optional<ex> var;
  std::vector<math_interval> out;
  for (const auto& r : a.items) {
    if (r.kind != math_kind::relation)
      return std::nullopt;
    auto v = bounded_variable(r);
    auto pieces = relation_as_interval(r);
    if (!v || !pieces || (var && !var->is_equal(*v)))
      return std::nullopt;
    var = v;
    out.insert(out.end(), pieces->begin(), pieces->end());
  }
  return out;
}

/// Intervals, a relation around one variable, alternatives of such
/// relations, "(a, b)" or "[a, b]" as the set they describe.
std::optional<std::vector<math_interval>> as_intervals(const math_answer& a) {
  if (a.kind == math_kind::intervals)
    return a.intervals;
  if (a.kind == math_kind::set)
    return alternatives_as_union(a);
  if (a.kind == math_kind::relation)
    return relation_as_interval(a);
  if (is_pair(a))
    return pair_as_interval(a, a.square_pair);
  return std::nullopt;
}

/// A set of reals against another description of one.
math_outcome intervals_against(const math_answer& a, const math_answer& b,
                               const pair_budget& budget) {
  auto x = as_intervals(a), y = as_intervals(b);
  if (!x || !y)
    return undecided();
  return compare_intervals(*x, *y, budget);
}

/// "a:b" against "c:d": the same terms are the same ratio; terms out of
/// proportion are another ratio (and another time of day, if "7:32" is
/// one). Proportional terms ("2:4", "1:2") are the same ratio but not the
/// same clock time, and the text does not say which: undecided.
math_outcome ratios(const math_answer& a, const math_answer& b,
                    const pair_budget& budget) {
  if (a.items.size() != b.items.size())
    return outcome(math_verdict::different, math_method::exact);
  auto same = in_order(a.items, b.items, budget);
  if (is_equal(same))
    return same;
  std::vector<math_outcome> cross;
  for (std::size_t i = 0; i < a.items.size(); ++i)
    for (std::size_t j = i + 1; j < a.items.size(); ++j)
      cross.push_back(compare_expressions(
        a.items[i].value * b.items[j].value, a.min_places,
        a.items[j].value * b.items[i].value, b.min_places, budget));
  auto proportional = all_of(cross);
  return is_different(proportional) ? proportional : undecided();
}

math_outcome matrices(const math_answer& a, const math_answer& b,
                      const pair_budget& budget) {
  if (a.items.size() != b.items.size()
      || a.items.front().items.size() != b.items.front().items.size())
    return outcome(math_verdict::different, math_method::exact);
  std::vector<math_outcome> parts;
  for (std::size_t r = 0; r < a.items.size(); ++r)
    parts.push_back(in_order(a.items[r].items, b.items[r].items, budget));
  return all_of(parts);
}

math_outcome assignments(const math_answer& a, const math_answer& b,
                         const pair_budget& budget) {
  auto va = assigned_value(a), vb = assigned_value(b);
  if (va && vb) // the name labels the value, as in the number reader
    return compare_math(*va, *vb, budget);
  const math_answer& other = va ? b : a;
  const math_answer& assigned = va ? a : b;
  if (other.kind == math_kind::relation && !assigned.value.is_zero()
      && assigned.items.front().kind == math_kind::expression) {
    // "y = 2x + 1" against "2x - y + 1 = 0": both are equations.
    math_answer equation;
    equation.kind = math_kind::relation;
    equation.terms = {assigned.value, assigned.items.front().value};
    equation.ops = {relation_op::eq};
    return compare_math(equation, other, budget);
  }
  // "x = 5" against "5": the name labels the value.
  return compare_math(va ? *va : a, vb ? *vb : b, budget);
}

/// "x_1 = 2, x_2 = 5": the solutions of x, a set of values.
std::optional<math_answer> indexed_solutions(const math_answer& a) {
  if (a.kind != math_kind::system)
    return std::nullopt;
  std::string base;
  math_answer set;
  set.kind = math_kind::set;
  for (const auto& item : a.items) {
    const auto bar = item.name.find('_');
    if (bar == std::string::npos
        || (!base.empty() && item.name.substr(0, bar) != base))
      return std::nullopt;
    base = item.name.substr(0, bar);
    set.items.push_back(item.items.front());
  }
  return set;
}

} // namespace

math_outcome compare_math(const math_answer& a, const math_answer& b,
                          const pair_budget& budget) {
  if (budget.spent())
    return undecided(math_method::budget);
  if (a.kind == math_kind::system && b.kind != math_kind::system)
    if (auto s = indexed_solutions(a))
      return compare_math(*s, b, budget);
  if (b.kind == math_kind::system && a.kind != math_kind::system)
    if (auto s = indexed_solutions(b))
      return compare_math(a, *s, budget);
  const auto ka = a.kind, kb = b.kind;
  if (ka == math_kind::system || kb == math_kind::system)
    return ka == kb ? compare_systems(a, b, budget) : undecided();
  if (ka == math_kind::assignment || kb == math_kind::assignment)
    return assignments(a, b, budget);
  if (ka == math_kind::text || kb == math_kind::text) {
    if (ka != kb)
      return undecided();
    return outcome(a.name == b.name ? math_verdict::equal
                                    : math_verdict::different,
                   math_method::exact);
  }
  if (ka == math_kind::expression && kb == math_kind::expression)
    return compare_expressions(a.value, a.min_places, b.value, b.min_places,
                               budget);
  if (ka == math_kind::expression && is_collection(b))
    return value_against(a, b, budget);
  if (kb == math_kind::expression && is_collection(a))
    return value_against(b, a, budget);
  if (ka == math_kind::intervals || kb == math_kind::intervals
      || (ka == math_kind::relation && (is_pair(b) || kb == math_kind::set))
      || (kb == math_kind::relation && (is_pair(a) || ka == math_kind::set)))
    return intervals_against(a, b, budget);
  if (is_collection(a) && is_collection(b))
    return collections(a, b, budget);
  if (ka == math_kind::matrix && kb == math_kind::matrix)
    return matrices(a, b, budget);
  if (ka == math_kind::ratio && kb == math_kind::ratio)
    return ratios(a, b, budget);
  if (ka == math_kind::relation && kb == math_kind::relation)
    return compare_relations(a, b, budget);
  return undecided();
}

// ------------------------------------------------------------ text

namespace {

void print(std::ostringstream& out, const math_answer& a);

void print_items(std::ostringstream& out, const std::vector<math_answer>& v,
                 const char* open, const char* close,
                 const char* between = ", ") {
  out << open;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i)
      out << between;
    print(out, v[i]);
  }
  out << close;
}

void print_end(std::ostringstream& out, const interval_end& e) {
  if (e.infinite)
    out << (e.value.is_equal(ex(1)) ? "oo" : "-oo");
  else
    out << e.value;
}

void print(std::ostringstream& out, const math_answer& a) {
  static const char* ops[] = {" = ", " < ", " <= ", " > ", " >= ", " != "};
  switch (a.kind) {
    case math_kind::expression: out << a.value; break;
    case math_kind::tuple: print_items(out, a.items, "(", ")"); break;
    case math_kind::set: print_items(out, a.items, "{", "}"); break;
    case math_kind::list: print_items(out, a.items, "", ""); break;
    case math_kind::matrix: print_items(out, a.items, "[", "]"); break;
    case math_kind::system: print_items(out, a.items, "", ""); break;
    case math_kind::text: out << a.name; break;
    case math_kind::ratio: print_items(out, a.items, "", "", ":"); break;
    case math_kind::assignment:
      out << a.name << " = ";
      print(out, a.items.front());
      break;
    case math_kind::relation:
      for (std::size_t i = 0; i < a.terms.size(); ++i) {
        if (i)
          out << ops[static_cast<int>(a.ops[i - 1])];
        out << a.terms[i];
      }
      break;
    case math_kind::intervals:
      for (std::size_t i = 0; i < a.intervals.size(); ++i) {
        const auto& v = a.intervals[i];
        out << (i ? " U " : "") << (v.lo.closed ? "[" : "(");
        print_end(out, v.lo);
        out << ", ";
        print_end(out, v.hi);
        out << (v.hi.closed ? "]" : ")");
      }
      break;
  }
}

} // namespace

std::string math_text(const math_answer& a) {
  std::ostringstream out;
  print(out, a);
  auto s = out.str();
  if (s.size() > 300)
    s = s.substr(0, 297) + "...";
  return s;
}

std::mutex& math_lock() {
  static std::mutex m;
  return m;
}

} // namespace ij
