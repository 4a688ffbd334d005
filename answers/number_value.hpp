#pragma once
// The value of one number read from an answer, kept exact where it can be:
// a canonical decimal key for terminating decimals of any length, and a
// 128-bit fraction when it fits. Arithmetic here is only what reading needs
// (a fraction bar, a mixed number, a sign, a percent): nothing is evaluated.
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

/// sign * digits * 10^exp with `places` decimal places written; `digits`
/// are ASCII digits (leading and trailing zeros allowed).
number_reading reading_of_decimal(bool negative, std::string_view digits,
                                  long exp, int places);

/// a / b; nullopt for a zero or non-finite quotient's divisor.
std::optional<number_reading> divide(const number_reading& a,
                                     const number_reading& b);

/// a + b (a mixed number's whole part and fraction).
number_reading add(const number_reading& a, const number_reading& b);

number_reading negated(number_reading r);

/// The value divided by 100 (a percent read as a fraction), exact where
/// the reading was; one more pair of decimal places.
number_reading hundredth_of(number_reading r);

/// 0 < r < 1, exactly.
bool is_proper_positive(const number_reading& r);

/// An integer written without a decimal point.
bool is_plain_integer(const number_reading& r);

/// The parts of a decimal key: sign, digits without zeros at either end,
/// and the power of ten.
struct key_parts {
  bool negative = false;
  std::string digits = "0";
  long exp = 0;
};

key_parts split_key(const std::string& key);

/// Compact text of a reading's value: exact digits for terminating
/// decimals ("1500", "0.25", "100000000001000000000"), else the shortest
/// text that reads back as the same double.
std::string number_text(const number_reading& r);

} // namespace ij
