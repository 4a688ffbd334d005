#include "core/voting/sequential_stop.hpp"

#include <cstdio>
#include <string>

namespace ij {

std::string_view to_string(stop_reason r) {
  switch (r) {
    case stop_reason::none: return "";
    case stop_reason::outcome_fixed: return "outcome_fixed";
    case stop_reason::probability: return "probability";
    case stop_reason::votes_exhausted: return "votes_exhausted";
  }
  return "";
}

double leading_probability(double p) {
  return p >= 0.5 ? p : 1.0 - p;
}

stop_reason stop_now(const vote_tally& tally, std::uint32_t votes,
                     std::uint32_t asked, std::optional<double> p_equivalent,
                     std::optional<double> threshold) {
  const auto c = tally.counts();
  if (c.equivalent >= c.min_agreement || c.different >= c.min_agreement)
    return stop_reason::outcome_fixed;
  // Never on a decision no vote made: a map whose values turn a vote
  // around (hand-made, or flat at its ends) must not decide for the other
  // side.
  if (threshold && p_equivalent
      && leading_probability(*p_equivalent) >= *threshold
      && (*p_equivalent >= 0.5 ? c.equivalent : c.different) > 0)
    return stop_reason::probability;
  if (asked >= votes)
    return stop_reason::votes_exhausted;
  // Neither side can reach k any more: today's early stop ("no agreement").
  if (tally.fixed())
    return stop_reason::outcome_fixed;
  return stop_reason::none;
}

equivalence_outcome probability_outcome(const vote_counts& c, double p,
                                        double threshold) {
  const bool eq = p >= 0.5;
  const auto side = eq ? c.equivalent : c.different;
  const auto counted = c.votes - c.not_cast;
  char detail[160];
  std::snprintf(detail, sizeof detail, "%u/%u %s, stopped at P=%.4f >= %g",
                side, counted, eq ? "EQUIVALENT" : "DIFFERENT",
                eq ? p : 1.0 - p, threshold);
  equivalence_outcome o;
  o.equivalent = eq;
  o.confidence = counted > 0 ? static_cast<double>(side) / counted : 0.0;
  o.detail = detail;
  o.probability = p;
  return o;
}

} // namespace ij
