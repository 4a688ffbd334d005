#include "answers/number_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ij {

namespace {

number_reading percent_as_fraction(number_reading r) {
  r.percent = false;
  return hundredth_of(std::move(r));
}

number_reading percent_as_written(number_reading r) {
  r.percent = false;
  return r;
}

number_relation compare_values(const number_reading& x,
                               const number_reading& y) {
  // The rule the reply parser checks NUMERIC_A/B by (core/exact_number).
  if (auto same = exactly_same(x, y))
    return *same ? number_relation::equal : number_relation::different;
  if (within_tolerance(x.value, y.value))
    return number_relation::equal;
  // A decimal that agrees with the other side only to its written places:
  // 0.3333 vs 1/3, 7.78 vs 70/9, ≈0.58 vs 0.577.
  auto rounds_to = [](const number_reading& d, const number_reading& o) {
    if (!d.places)
      return false;
    if (!(d.approximate || o.decimal_key.empty()))
      return false;
    double half_ulp = 0.5 * std::pow(10.0, -*d.places);
    return std::fabs(o.value - d.value) <= half_ulp * (1 + 1e-9);
  };
  if (rounds_to(x, y) || rounds_to(y, x))
    return number_relation::undecidable;
  return number_relation::different;
}

} // namespace

number_comparison compare_numbers(const number_reading& a,
                                  const number_reading& b) {
  number_comparison out;
  out.shown_a = a;
  out.shown_b = b;
  if (!a.unit.empty() && !b.unit.empty() && a.unit != b.unit) {
    out.relation = number_relation::undecidable;
    out.why = "the answers carry different units (" + a.unit + ", " + b.unit
              + ")";
    return out;
  }
  if (a.percent == b.percent) {
    out.shown_a = percent_as_written(a);
    out.shown_b = percent_as_written(b);
    out.relation = compare_values(out.shown_a, out.shown_b);
  } else {
    // One side in percent: it matches when either p or p/100 does.
    const bool a_pct = a.percent;
    const number_reading& p = a_pct ? a : b;
    const number_reading other = percent_as_written(a_pct ? b : a);
    auto as_written = percent_as_written(p);
    auto as_fraction = percent_as_fraction(p);
    auto r1 = compare_values(as_written, other);
    auto r2 = compare_values(as_fraction, other);
    const number_reading* chosen = &as_fraction;
    if (r1 == number_relation::equal) {
      out.relation = r1;
      chosen = &as_written;
    } else if (r2 == number_relation::equal) {
      out.relation = r2;
    } else if (r1 == number_relation::undecidable
               || r2 == number_relation::undecidable) {
      out.relation = number_relation::undecidable;
    } else {
      out.relation = number_relation::different;
    }
    (a_pct ? out.shown_a : out.shown_b) = *chosen;
    (a_pct ? out.shown_b : out.shown_a) = other;
  }
  if (out.relation == number_relation::undecidable && out.why.empty())
    out.why = "one answer agrees with the other only to the places it gives";
  return out;
}

} // namespace ij
