#pragma once
// How two numbers read from answers compare, under the declared answer
// policy (core/numbers/answer_policy.hpp, docs/ANSWER_READING.md §3): exact
// when both are exact, a declared tolerance, a percent on one side matching p
// and/or p/100, a rounding of one by the other, one-sided and different
// units, unreduced fractions.
#include <string>

#include "answers/number_value.hpp"
#include "core/numbers/answer_policy.hpp"

namespace ij {

enum class number_relation { equal, different, undecidable };

/// What settled the relation, for the REASON.
enum class number_basis {
  value,     // the values themselves (exactly, or within 1e-9)
  tolerance, // within the declared tolerance, not exactly
  rounding,  // one is (or may be) a rounding of the other
  fractions, // the same value, but an unreduced fraction (fractions: reduced)
  units,     // different units, or a unit on one side under units: strict
};

struct number_comparison {
  number_relation relation = number_relation::undecidable;
  number_basis basis = number_basis::value;
  /// The values shown for each side (a percent shown as the reading that
  /// the comparison used; under rounding: consistent, both as the coarser
  /// side, which the other rounds to).
  number_reading shown_a;
  number_reading shown_b;
  /// Why undecidable ("units differ", "rounded"); empty otherwise.
  std::string why;
};

/// Equal within relative 1e-9 (exactly, when both are terminating
/// decimals or exact fractions), or within the declared tolerance; percent
/// on one side only: p and/or p/100 per `policy.percent`; a decimal that
/// agrees with the other side only to its written places (a rounding of it)
/// per `policy.rounding`; different units on both sides: undecidable; a
/// unit on one side: ignored, or undecidable under units: strict; an
/// unreduced fraction against a reduced one: different under fractions:
/// reduced.
number_comparison compare_numbers(const number_reading& a,
                                  const number_reading& b,
                                  const answer_policy& policy = {});

} // namespace ij
