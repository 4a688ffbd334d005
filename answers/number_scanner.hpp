#pragma once
// The scanner of one cleaned number: sign and currency before it, the
// magnitude (digits with thousands groups, decimals, scientific notation,
// fractions, \frac, mixed numbers, a group around one number), then percent
// and unit after it. A hand-written scanner (the reader runs for every pair
// the judge sees: no std::regex), refusing as soon as anything does not fit.
#include <optional>
#include <string_view>

#include "answers/number_value.hpp"

namespace ij {

/// The whole of `cleaned` (the output of clean_answer, punctuation
/// stripped) as one number, or nullopt.
std::optional<number_reading> scan_number(std::string_view cleaned);

/// Applies `tail` (what follows a number: "%", "cm", "^\circ", "percent")
/// to `r`; false when the tail is neither a percent nor a unit.
bool apply_suffix(std::string_view tail, number_reading& r);

} // namespace ij
