#include "answers/number_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "answers/units.hpp"

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

struct relation_of_values {
  number_relation relation;
  number_basis basis = number_basis::value;
  /// rounding: the coarser side, which the other rounds to.
  const number_reading* coarser = nullptr;
};

/// Zero, exactly where the reading is exact (a double underflows).
bool is_zero(const number_reading& r) {
  if (!r.decimal_key.empty())
    return r.decimal_key == "0";
  if (r.exact)
    return r.exact->num == 0;
  return r.value == 0.0;
}

/// `d` is a decimal that `o` may round to at d's written places: `o` is
/// finer (more places, an exact value that does not terminate, a fraction,
/// an approximation) and within half a unit of d's last place. 1.3 and
/// 1.27, 300 and 299.94, 0.3333 and 1/3, ≈0.58 and 0.577; never a zero
/// that keeps no digit of the other (0 and 0.1).
bool may_round_to(const number_reading& d, const number_reading& o) {
  if (!d.places)
    return false;
  const bool finer = d.approximate || o.approximate || !o.places
                     || o.decimal_key.empty() || *o.places > *d.places;
  if (!finer)
    return false;
  // A rounding keeps a significant digit: 0 is no rounding of 0.1 (nor of
  // 4E-385, whose double is 0).
  if (is_zero(d) && !is_zero(o))
    return false;
  const double half_ulp = 0.5 * std::pow(10.0, -*d.places);
  return std::fabs(o.value - d.value) <= half_ulp * (1 + 1e-9);
}

bool within_declared(const number_reading& x, const number_reading& y,
                     const answer_policy& p) {
  const double gap = std::fabs(x.value - y.value);
  return gap <= p.absolute_tolerance
         || gap <= p.relative_tolerance
                     * std::max(std::fabs(x.value), std::fabs(y.value));
}

relation_of_values compare_values(const number_reading& x,
                                  const number_reading& y,
                                  const answer_policy& policy) {
  // The rule the reply parser checks NUMERIC_A/B by
  // (core/numbers/exact_number).
  auto same = exactly_same(x, y);
  if (same && *same)
    return {number_relation::equal};
  if (!same && within_tolerance(x.value, y.value))
    return {number_relation::equal};
  if (policy.declares_tolerance() && within_declared(x, y, policy))
    return {number_relation::equal, number_basis::tolerance};
  const number_reading* coarser = may_round_to(x, y)   ? &x
                                  : may_round_to(y, x) ? &y
                                                       : nullptr;
  if (!coarser)
    return {number_relation::different};
  switch (policy.rounding) {
    case rounding_policy::strict:
      return {number_relation::different, number_basis::rounding, coarser};
    case rounding_policy::consistent:
      return {number_relation::equal, number_basis::rounding, coarser};
    case rounding_policy::abstain: break;
  }
  return {number_relation::undecidable, number_basis::rounding, coarser};
}

/// The relation of the two readings of a one-sided percent that the policy
/// allows, the first equal one winning.
struct percent_choice {
  relation_of_values r;
  bool as_written = false;
};

percent_choice compare_percent(const number_reading& p,
                               const number_reading& other,
                               const answer_policy& policy) {
  const auto written = compare_values(percent_as_written(p), other, policy);
  const auto fraction = compare_values(percent_as_fraction(p), other, policy);
  if (policy.percent == percent_policy::number)
    return {written, true};
  if (policy.percent == percent_policy::fraction)
    return {fraction, false};
  if (written.relation == number_relation::equal)
    return {written, true};
  if (fraction.relation == number_relation::equal)
    return {fraction, false};
  for (const auto* r : {&written, &fraction})
    if (r->relation == number_relation::undecidable)
      return {*r, r == &written};
  return {fraction, false};
}

} // namespace

number_comparison compare_numbers(const number_reading& a,
                                  const number_reading& b,
                                  const answer_policy& policy) {
  number_comparison out;
  out.shown_a = a;
  out.shown_b = b;
  if (!a.unit.empty() && !b.unit.empty() && a.unit != b.unit) {
    out.relation = number_relation::undecidable;
    out.basis = number_basis::units;
    out.why =
      "the answers carry different units (" + a.unit + ", " + b.unit + ")";
    return out;
  }
  // A unit an answer states against the word after a number in the other's
  // prose, of the same kind: "180 minutes" against "It takes 3 hours."
  for (auto [x, y] : {std::pair{&a, &b}, std::pair{&b, &a}})
    if (!x->unit.empty() && y->unit.empty() && !y->prose_unit.empty()
        && other_unit_of_a_kind(x->unit, y->prose_unit)) {
      out.relation = number_relation::undecidable;
      out.basis = number_basis::units;
      out.why = "the answers carry different units (" + a.unit + a.prose_unit
                + ", " + b.unit + b.prose_unit + ")";
      return out;
    }
  if (policy.units == unit_policy::strict && a.unit.empty() != b.unit.empty()) {
    out.relation = number_relation::undecidable;
    out.basis = number_basis::units;
    out.why = "the declared unit policy (answer_policy units: strict) needs "
              "the unit ("
              + (a.unit.empty() ? b.unit : a.unit) + ") on both sides";
    return out;
  }
  if ((a.ordinal && !is_plain_integer(b))
      || (b.ordinal && !is_plain_integer(a))) {
    out.relation = number_relation::undecidable;
    out.why = "an ordinal against a value that is not a whole number";
    return out;
  }
  relation_of_values r{number_relation::undecidable};
  if (a.percent == b.percent) {
    out.shown_a = percent_as_written(a);
    out.shown_b = percent_as_written(b);
    r = compare_values(out.shown_a, out.shown_b, policy);
  } else {
    const bool a_pct = a.percent;
    const number_reading other = percent_as_written(a_pct ? b : a);
    auto choice = compare_percent(a_pct ? a : b, other, policy);
    r = choice.r;
    (a_pct ? out.shown_a : out.shown_b) =
      choice.as_written ? percent_as_written(a_pct ? a : b)
                        : percent_as_fraction(a_pct ? a : b);
    (a_pct ? out.shown_b : out.shown_a) = other;
    // `coarser` pointed into compare_percent's temporaries: the shown
    // readings are the same values.
    if (r.coarser)
      r.coarser = std::fabs(out.shown_a.value - r.coarser->value)
                      <= std::fabs(out.shown_b.value - r.coarser->value)
                    ? &out.shown_a
                    : &out.shown_b;
  }
  out.relation = r.relation;
  out.basis = r.basis;
  if (r.basis == number_basis::rounding
      && r.relation == number_relation::equal) {
    const number_reading shown = *r.coarser; // both as the rounding
    out.shown_a = shown;
    out.shown_b = shown;
  }
  if (out.relation == number_relation::equal
      && policy.fractions == fraction_policy::reduced
      && a.unreduced != b.unreduced) {
    out.relation = number_relation::different;
    out.basis = number_basis::fractions;
  }
  if (out.relation == number_relation::undecidable && out.why.empty())
    out.why = "one answer agrees with the other only to the places it gives";
  return out;
}

} // namespace ij
