#pragma once
// A number kept exact where it can be, and the one rule by which two such
// numbers are the same: the rule judge decides by it and the reply parser
// checks the judge's NUMERIC_A/B by it, so that a judge's own replies are
// never flagged inconsistent (docs/ANSWER_READING.md §3).
#include <optional>
#include <string>
#include <string_view>

namespace ij {

/// An exact rational num/den (den > 0, reduced), when it fits 128 bits.
struct exact_rational {
  __int128 num = 0;
  __int128 den = 1;
};

struct exact_number {
  /// The nearest double.
  double value = 0.0;
  /// Canonical exact form of a terminating decimal of any length:
  /// "-15e2" for -1500, "0" for zero; empty when the value is not one
  /// (a non-terminating fraction, or too large to hold exactly).
  std::string decimal_key;
  /// The exact value as a fraction, when it fits 128 bits.
  std::optional<exact_rational> exact;
  /// Stated as an approximation (≈, "about", a leading '~').
  bool approximate = false;
};

/// num/den reduced, the sign on num; nullopt for den = 0.
std::optional<exact_rational> make_rational(__int128 num, __int128 den);

/// The canonical key of sign * digits * 10^exp (digits are ASCII digits,
/// zeros at either end allowed).
std::string decimal_key_of(bool negative, std::string digits, long exp);

/// The key of a fraction that terminates (den = 2^a 5^b); empty otherwise
/// or when it does not fit.
std::string terminating_key(const exact_rational& q);

/// Decided by the exact forms: both terminating decimals compare by key
/// (1000000001 and 1000000000 differ, 4e-385 is not 0), two fractions that
/// do not terminate by their reduced form; nullopt when the exact forms
/// cannot tell (an approximation, a decimal against a fraction that does
/// not terminate, a value too large to hold exactly).
std::optional<bool> exactly_same(const exact_number& x, const exact_number& y);

/// Relative difference within 1e-9 (or equal doubles).
bool within_tolerance(double x, double y);

/// exactly_same where it decides, else within_tolerance.
bool same_value(const exact_number& x, const exact_number& y);

/// A plain number as a judge writes NUMERIC_A/B: sign, digits with `,`
/// thousands groups, decimals, an exponent ("4E-385"), or a fraction of two
/// such numbers ("1/3"); a leading '~' marks an approximation. nullopt for
/// anything else ("$5", "200%", "two", "(1, 2)").
std::optional<exact_number> parse_exact_number(std::string_view text);

} // namespace ij
