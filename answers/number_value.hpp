#pragma once
// The value of one number read from an answer, kept exact where it can be:
// a canonical decimal key for terminating decimals of any length, and a
// 128-bit fraction when it fits. Arithmetic here is only what reading needs
// (a fraction bar, a mixed number, a sign, a percent): nothing is evaluated.
#include <optional>
#include <string>
#include <string_view>

#include "answers/answer_provenance.hpp"
#include "core/numbers/exact_number.hpp"

namespace ij {

/// One number read from an answer: its exact value
/// (core/numbers/exact_number.hpp, the comparison the reply parser shares) and
/// how it was written.
struct number_reading : exact_number {
  /// Decimal places written (for rounding checks): 2 for "7.78", -2 for
  /// "1.5e3"; nullopt for fractions and words that are not decimals.
  std::optional<int> places;
  /// Written with %, \%, "percent", "pct": value is the written number p,
  /// not p/100 (the comparison decides which reading applies).
  bool percent = false;
  /// Normalised unit ("cm", "deg", "usd", "apple"); empty when none.
  std::string unit;
  /// A fraction of two integers not in lowest terms ("6/8", "\frac{4}{6}"):
  /// the answer policy's fractions: reduced tells it from its value.
  bool unreduced = false;
  /// Found as the last number of prose whose sentence states other values,
  /// nothing marking it as the answer (prose_number_is_ambiguous): it may
  /// confirm an equal answer, never prove a different one.
  bool ambiguous = false;
  /// Written as an ordinal ("12th", "twelfth"): a position, a whole number;
  /// against anything else the comparison abstains.
  bool ordinal = false;
  /// Found in prose: the word after the number as a unit ("3 hours." ->
  /// "hour"), never compared as the unit is, only to tell that the other
  /// side's explicit unit is another one (then the pair abstains).
  std::string prose_unit;
  /// The text states another answer with another value (a box, an answer
  /// phrase) and no "final answer" settles which: self-contradicting, it
  /// is never judged, either way.
  bool contradicted = false;
  /// How the final-answer finder found it (answer_provenance.hpp); a
  /// number read directly is the whole text.
  answer_locator found_by = answer_locator::whole_text;
  /// Written "12.345" (1-3 digits, not led by 0, a point, three digits):
  /// read as a decimal, but where a point groups thousands (de, es, it, pt,
  /// id, vi, ...) it is 12345. A pair the two readings decide differently
  /// abstains (rule_reply.cpp).
  bool point_grouping = false;
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

/// A point-grouped literal read as whole thousands ("12.345" -> 12345):
/// the value times 1000, every other field kept.
number_reading as_point_grouped(number_reading r);

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

/// Compact text of a reading's value, exact where the value is, so that
/// parse_exact_number reads back what was compared: digits for terminating
/// decimals ("1500", "0.25", "100000000001000000000"), "p/q" for exact
/// fractions that do not terminate ("2/3"), else the shortest text that
/// reads back as the same double; a leading '~' for an approximation.
std::string number_text(const number_reading& r);

} // namespace ij
