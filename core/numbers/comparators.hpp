#pragma once
// Sync comparators (SPEC §3) and promoteSync. numeric_match is the brittle
// baseline on purpose: the last number, nothing smarter.
#include <functional>
#include <string_view>

#include "messages/equivalence_outcome.hpp"

namespace ij {

using sync_comparator =
  std::function<equivalence_outcome(std::string_view a, std::string_view b)>;

/// Delivers the outcome exactly once, possibly before returning.
using outcome_handler = std::function<void(equivalence_outcome)>;
using async_comparator = std::function<void(
  std::string_view a, std::string_view b, outcome_handler done)>;

/// Equal after trimming surrounding whitespace.
sync_comparator exact_match();

/// Last number of each (optional sign, digits, optional `,` thousands
/// groups, optional decimals); equal when |x-y| <= max(abs_tol,
/// rel_tol*max(|x|,|y|)); null when either has no number.
sync_comparator numeric_match(double abs_tol = 0.0, double rel_tol = 0.0);

/// Lifts a sync comparator to the async path; same outcome, always.
async_comparator promote_sync(sync_comparator c);

} // namespace ij
