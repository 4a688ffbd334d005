#pragma once
// How two numbers read from answers compare, with the policies of
// docs/ANSWER_READING.md §3: exact when both are exact, a percent on one
// side matching p or p/100, rounded decimals and different units undecided.
#include <string>

#include "answers/number_value.hpp"

namespace ij {

enum class number_relation { equal, different, undecidable };

struct number_comparison {
  number_relation relation = number_relation::undecidable;
  /// The values shown for each side (a percent shown as the reading that
  /// the comparison used).
  number_reading shown_a;
  number_reading shown_b;
  /// Why undecidable ("units differ", "rounded"); empty otherwise.
  std::string why;
};

/// Equal within relative 1e-9 (exactly, when both are terminating
/// decimals or exact fractions); percent on one side only: equal when p or
/// p/100 equals the other; a decimal that only agrees with a non-terminating
/// value to its written places, or an ≈ value that agrees only to its
/// places: undecidable; different units on both sides: undecidable.
number_comparison compare_numbers(const number_reading& a,
                                  const number_reading& b);

} // namespace ij
