#pragma once
// The I1–I5 decision table (SPEC §8), single and statistical.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include <caf/error.hpp>

#include "messages/equivalence_outcome.hpp"
#include "messages/error.hpp"
#include "messages/verdict.hpp"

namespace ij {

struct verdict_decision {
  verdict_kind verdict;
  verdict_rule rule;
};

/// First row that holds: I1 absent; I2 outcome.fault; I3 outcome null;
/// I4 true; I5 false.
verdict_decision single_invariance_verdict(bool absent,
                                           const equivalence_outcome& outcome);

/// Wilson score interval of successes/n at confidence 1 - alpha;
/// {0, 1} when n == 0.
std::pair<double, double> wilson_interval(std::uint32_t successes,
                                          std::uint32_t n, double alpha);

/// counts[i] = c(i+1), pairs of the item classified by the single table.
statistical_verdict
statistical_invariance_verdict(std::string item,
                               const std::array<std::uint32_t, 5>& counts,
                               const statistical_params& params);

/// errc::bad_config with a clear message when a parameter is out of range;
/// no error when valid.
caf::error validate(const statistical_params& params);

} // namespace ij
