#pragma once
// Reads ONE number from a final answer in any of its usual surface forms
// (docs/ANSWER_READING.md lists them and the policies): thousands groups,
// decimals, signs, scientific notation, fractions, mixed numbers, percent,
// currency, units, English number words, "x = 5". It refuses (nullopt)
// whatever is not one number: tuples, intervals, sets, matrices, relations,
// expressions with variables or unevaluated operations, text. Nothing is
// ever evaluated as code; a refusal is preferred to a guess.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ij {

/// An exact rational num/den (den > 0, reduced), when it fits 128 bits.
struct exact_rational {
  __int128 num = 0;
  __int128 den = 1;
};

struct number_reading {
  /// The nearest double.
  double value = 0.0;
  /// Canonical exact form of a terminating decimal of any length:
  /// "-15e2" for -1500, "0" for zero; empty when the value is not one
  /// (a non-terminating fraction, or too large to hold exactly).
  std::string decimal_key;
  /// The exact value as a fraction, when it fits 128 bits.
  std::optional<exact_rational> exact;
  /// Decimal places written (for rounding checks): 2 for "7.78", -2 for
  /// "1.5e3"; nullopt for fractions and words that are not decimals.
  std::optional<int> places;
  /// Written with %, \%, "percent", "pct": value is the written number p,
  /// not p/100 (the comparison decides which reading applies).
  bool percent = false;
  /// Stated with ≈, \approx, "about", "approximately".
  bool approximate = false;
  /// Normalised unit ("cm", "deg", "usd", "apple"); empty when none.
  std::string unit;
};

/// Reads the whole of `answer` (already the final answer, e.g. the content
/// of a \boxed{}) as one number; nullopt when it is not exactly one.
std::optional<number_reading> read_number(std::string_view answer);

/// How two readings compare.
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

/// Compact text of a reading's value: exact digits for terminating
/// decimals ("1500", "0.25", "100000000001000000000"), else the shortest
/// text that reads back as the same double.
std::string number_text(const number_reading& r);

} // namespace ij
