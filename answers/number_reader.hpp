#pragma once
// Reads ONE number from a final answer in any of its usual surface forms
// (docs/ANSWER_READING.md lists them and the policies): thousands groups,
// decimals, signs, scientific notation, fractions, mixed numbers, percent,
// currency, units, English number words, "x = 5". It refuses (nullopt)
// whatever is not one number: tuples, intervals, sets, matrices, relations,
// expressions with variables or unevaluated operations, text. Nothing is
// ever evaluated as code; a refusal is preferred to a guess.
#include <optional>
#include <string_view>

#include "answers/number_value.hpp"

namespace ij {

/// Reads the whole of `answer` (already the final answer, e.g. the content
/// of a \boxed{}) as one number; nullopt when it is not exactly one.
std::optional<number_reading> read_number(std::string_view answer);

} // namespace ij
