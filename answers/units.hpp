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

} // namespace ij
