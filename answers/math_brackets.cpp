#include <algorithm>

#include "answers/math_parser.hpp"

namespace ij::math_parsing {

parsed math_parser::matrix() {
  const auto env = peek()->text;
  ++pos_;
  if (env != "pmatrix" && env != "bmatrix" && env != "matrix"
      && env != "Bmatrix" && env != "smallmatrix" && env != "array")
    return std::nullopt;
  math_answer out;
  out.kind = math_kind::matrix;
  math_answer row;
  row.kind = math_kind::tuple;
  for (;;) {
    if (is(K::end, env)) {
      ++pos_;
      break;
    }
    auto cell = sequence_until_cell_end();
    if (!cell)
      return std::nullopt;
    out.min_places = fewer_places(out.min_places, cell->min_places);
    row.items.push_back(std::move(*cell));
    if (eat_op("&"))
      continue;
    if (eat_op("\\\\")) {
      out.items.push_back(std::move(row));
      row = math_answer{};
      row.kind = math_kind::tuple;
      if (is(K::end, env)) { // a trailing "\\"
        ++pos_;
        return checked_matrix(std::move(out));
      }
      continue;
    }
    if (!is(K::end, env))
      return std::nullopt;
  }
  if (!row.items.empty())
    out.items.push_back(std::move(row));
  return checked_matrix(std::move(out));
}

parsed math_parser::sequence_until_cell_end() {
  auto cell = sum();
  if (!cell || !is_expression(*cell))
    return std::nullopt;
  return cell;
}

parsed math_parser::checked_matrix(math_answer m) {
  if (m.items.empty())
    return std::nullopt;
  for (const auto& r : m.items)
    if (r.items.size() != m.items.front().items.size())
      return std::nullopt;
  return m;
}

math_answer math_parser::empty_set() {
  math_answer set;
  set.kind = math_kind::set;
  return set;
}

parsed math_parser::bracketed() {
  const auto open = peek()->text;
  if (open == "(" || open == "[")
    return round_or_square(open);
  ++pos_;
  if (open == "{") { // a LaTeX group: "{1, 2}" is the list 1, 2
    auto g = sequence("}");
    if (!g || !eat_op("}"))
      return std::nullopt;
    return g;
  }
  if (open == "\\{") {
    if (eat_op("\\}"))
      return empty_set();
    if (at_set_builder())
      return set_builder();
    auto g = sequence("\\}");
    if (!g || !eat_op("\\}"))
      return std::nullopt;
    math_answer set;
    set.kind = math_kind::set;
    if (g->kind == math_kind::list || g->kind == math_kind::set)
      set.items = flattened(std::move(g->items));
    else
      set.items.push_back(std::move(*g));
    return set;
  }
  if (open == "|") {
    auto x = sum();
    if (!x || !eat_op("|") || !is_expression(*x))
      return std::nullopt;
    return expression_of(GiNaC::abs(x->value), x->min_places);
  }
  return std::nullopt;
}

bool math_parser::at_set_builder() const {
  const auto* var = peek();
  return var && var->kind == K::name
         && (is(K::op, "|", 1) || is(K::op, ":", 1));
}

parsed math_parser::set_builder() {
  const ex x = symbols_.get(std::string{peek()->text});
  pos_ += 2;
  auto condition = sequence("\\}");
  if (!condition || !eat_op("\\}"))
    return std::nullopt;
  // Only a condition on x alone: its solution set is the set described.
  auto on_x = [&](const math_answer& r) {
    if (r.kind != math_kind::relation)
      return false;
    for (const auto& t : r.terms)
      for (auto it = t.preorder_begin(); it != t.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it) && !it->is_equal(x))
          return false;
    return true;
  };
  const bool alternatives =
    condition->kind == math_kind::set && !condition->items.empty()
    && std::all_of(condition->items.begin(), condition->items.end(), on_x);
  if (!on_x(*condition) && !alternatives)
    return std::nullopt;
  return condition;
}

parsed math_parser::round_or_square(std::string_view open) {
  ++pos_;
  if (open == "[" && eat_op("]"))
    return empty_set(); // "[]"
  auto inner = sequence_in_brackets();
  const auto close = peek();
  if (!inner || !close || close->kind != K::op
      || (close->text != ")" && close->text != "]"))
    return std::nullopt;
  ++pos_;
  const bool round_open = open == "(", round_close = close->text == ")";
  const bool several = inner->kind == math_kind::list && !inner->items.empty();
  if (!several) {
    if (!round_open || !round_close)
      return std::nullopt; // "[5]": not an answer form the reader knows
    return inner;
  }
  const std::size_t n = inner->items.size();
  if (n == 2 && (round_open != round_close || has_infinity(*inner)))
    return interval(*inner, !round_open, !round_close);
  inner->kind = math_kind::tuple;
  inner->round_pair = n == 2 && round_open;
  inner->square_pair = n == 2 && !round_open;
  return expanded_tuple(std::move(*inner));
}

parsed math_parser::expanded_tuple(math_answer tuple) {
  if (std::none_of(tuple.items.begin(), tuple.items.end(),
                   [](const math_answer& a) { return a.plus_minus; }))
    return tuple;
  // "(\pm\sqrt 2, 0, \pm\sqrt 2)": every choice of signs, a set of tuples.
  std::vector<math_answer> tuples{tuple};
  for (std::size_t i = 0; i < tuple.items.size(); ++i) {
    if (!tuple.items[i].plus_minus)
      continue;
    std::vector<math_answer> next;
    for (const auto& t : tuples)
      for (const auto& choice : tuple.items[i].items) {
        next.push_back(t);
        next.back().items[i] = choice;
      }
    if (next.size() > max_alternatives * 2)
      return std::nullopt;
    tuples = std::move(next);
  }
  math_answer set;
  set.kind = math_kind::set;
  set.items = std::move(tuples);
  return set;
}

parsed math_parser::sequence_in_brackets() {
  std::vector<math_answer> items;
  bool trailing = false;
  while (!is_op(")") && !is_op("]")) {
    if (at_end())
      return std::nullopt;
    if (is_op(",") || is_op(";")) {
      ++pos_;
      trailing = true;
      continue;
    }
    auto item = element();
    if (!item)
      return std::nullopt;
    items.push_back(std::move(*item));
    trailing = false;
  }
  if (items.empty())
    return std::nullopt;
  if (items.size() == 1 && !trailing)
    return std::move(items.front());
  math_answer list;
  list.kind = math_kind::list;
  list.items = std::move(items);
  return list;
}

bool math_parser::has_infinity(const math_answer& pair) {
  const auto inf = symbols_.infinity();
  return std::any_of(
    pair.items.begin(), pair.items.end(),
    [&](const math_answer& a) { return is_expression(a) && a.value.has(inf); });
}

parsed math_parser::interval(const math_answer& inner, bool lo_closed,
                             bool hi_closed) {
  auto lo = end_of(inner.items[0], lo_closed);
  auto hi = end_of(inner.items[1], hi_closed);
  if (!lo || !hi)
    return std::nullopt;
  math_interval i;
  i.lo = std::move(*lo);
  i.hi = std::move(*hi);
  math_answer out;
  out.kind = math_kind::intervals;
  out.intervals.push_back(std::move(i));
  out.min_places =
    fewer_places(inner.items[0].min_places, inner.items[1].min_places);
  return out;
}

std::optional<interval_end> math_parser::end_of(const math_answer& a,
                                                bool closed) {
  if (!is_expression(a))
    return std::nullopt;
  interval_end e;
  e.closed = closed;
  e.value = a.value;
  e.places = a.min_places;
  const auto inf = symbols_.infinity();
  if (a.value.is_equal(inf) || a.value.is_equal(-inf)) {
    e.infinite = true;
    e.value = a.value.is_equal(inf) ? ex(1) : ex(-1);
    e.closed = false;
  }
  return e;
}

} // namespace ij::math_parsing
