#pragma once
// A union of intervals in its one canonical form: pieces sorted by their
// lower end, overlapping or touching pieces merged ("[-3, 2] \cup [2, 5]"
// is "[-3, 5]"). Two unions of real constants are the same set exactly
// when their canonical forms are the same, so pieces that differ in number
// after merging differ as sets.
#include <optional>
#include <vector>

#include "answers/math_answer.hpp"

namespace ij {

/// The canonical union of `pieces`; nullopt when it is not known for sure:
/// an end that is not a real constant, a written decimal unless
/// `decimals_as_written` (it may be a rounding of the end the other side
/// means), an empty or reversed piece, or two ends too close to order by
/// evaluation yet not exactly equal.
std::optional<std::vector<math_interval>>
canonical_union(const std::vector<math_interval>& pieces,
                bool decimals_as_written = false);

} // namespace ij
