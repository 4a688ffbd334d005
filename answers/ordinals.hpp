#pragma once
// Ordinals read as their number when they are the whole final answer:
// "12^{\mathrm{th}}", "12^{th}", "12th", "21st", "twelfth",
// "twenty-first". A position is a whole number: against anything else the
// comparison abstains ("third" may also mean 1/3).
#include <optional>
#include <string>
#include <string_view>

namespace ij {

/// The number an ordinal answer names, as digits; nullopt when `answer`
/// (spaces, $ and a final '.' aside) is not one ordinal.
std::optional<std::string> ordinal_digits(std::string_view answer);

} // namespace ij
