#pragma once
// The words after a number: percent words, currency, units ("12 cm",
// "5 apples", "64 square feet", "3 dollars"). A unit is normalised
// ("dollars" -> "usd", "apples" -> "apple") so that two answers compare it
// by meaning; a word that makes the tail a phrase or a variable refuses it.
#include <string>
#include <string_view>
#include <vector>

#include "answers/number_value.hpp"

namespace ij {

/// Applies lower-cased `words` (percent words first, then up to three unit
/// words) to `r`; false when they are not a percent or a unit ("and", "x",
/// a number word, a CJK numeral that would scale the number).
bool apply_unit_words(std::vector<std::string> words, number_reading& r);

/// A currency written before the number ("usd 5", "rs 20"): its unit, or
/// an empty view.
std::string_view currency_prefix_unit(std::string_view word);

/// Two normalised units of one kind (time, length, mass, money) that are
/// not the same unit ("minute" and "hour"; never "km" and "km/h").
bool other_unit_of_a_kind(const std::string& x, const std::string& y);

/// The unit the words right after position `at` of `text` name ("3 hours",
/// "3/4 of an hour": "hour"), normalised; empty when they name none.
std::string unit_after(std::string_view text, std::size_t at);

} // namespace ij
