#pragma once
// The value of an already-validated decimal token, shared by the brittle
// comparator and the judge-reply parser.
#include <string_view>

namespace ij {

/// `token` holds digits, optional `,` thousands separators (dropped), an
/// optional '.' part and an optional exponent; no sign (`negative` gives it).
/// Locale-independent; overflow gives ±infinity, underflow ±0.
double decimal_value(std::string_view token, bool negative);

} // namespace ij
