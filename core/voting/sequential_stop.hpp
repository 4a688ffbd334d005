#pragma once
// When a pair's voting ends (SPEC §7, issue 16): today's early stop (the
// outcome is fixed), the votes run out, or — with "stop": {"probability"}
// and a calibration map — the calibrated probability of the leading
// decision has reached the threshold, and at least one vote took that
// decision (a probability never stops a pair on a decision no vote made).
// Whichever comes first; never beyond N
// votes. When a side reaches k at the same vote, the tally's reason (and
// outcome) stands; "votes_exhausted" is all N asked with no side at k.
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/voting/vote_tally.hpp"
#include "messages/equivalence_outcome.hpp"

namespace ij {

enum class stop_reason : std::uint8_t {
  none, // keep asking
  outcome_fixed,
  probability,
  votes_exhausted,
};

/// "outcome_fixed", "probability", "votes_exhausted" ("" for none): the
/// spelling of the vote record's "stop".
std::string_view to_string(stop_reason r);

/// Why voting on a pair stops now, or none. `asked` is the votes asked for
/// so far (all back), `p_equivalent` the calibrated probability that the
/// answers are equivalent (nullopt: none yet), `threshold` the configured
/// stop.probability (nullopt: not configured).
stop_reason stop_now(const vote_tally& tally, std::uint32_t votes,
                     std::uint32_t asked, std::optional<double> p_equivalent,
                     std::optional<double> threshold);

/// The calibrated probability of the leading decision: max(p, 1 - p).
double leading_probability(double p_equivalent);

/// The outcome of a pair that stopped on probability: the leading decision,
/// its vote share as confidence, and why.
equivalence_outcome probability_outcome(const vote_counts& counts,
                                        double p_equivalent, double threshold);

} // namespace ij
