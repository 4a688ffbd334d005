#include "core/voting/vote_tally.hpp"

#include <string>

namespace ij {

caf::error validate(const vote_config& cfg) {
  const auto n = std::to_string(cfg.votes);
  const auto k = std::to_string(cfg.min_agreement);
  if (cfg.votes < 1)
    return make_error(errc::bad_config, "votes must be at least 1, got " + n);
  if (cfg.min_agreement > cfg.votes)
    return make_error(errc::bad_config,
                      "minAgreement " + k + " exceeds votes " + n);
  // k > N/2 in exact arithmetic: 2k > N.
  if (2ull * cfg.min_agreement <= cfg.votes)
    return make_error(errc::bad_config, "minAgreement " + k
                                          + " must be more than half of votes "
                                          + n);
  return {};
}

vote_tally::vote_tally(vote_config cfg) : cfg_(cfg) {
  counts_.votes = cfg.votes;
  counts_.min_agreement = cfg.min_agreement;
}

void vote_tally::add(judge_decision d) {
  switch (d) {
    case judge_decision::equivalent: ++counts_.equivalent; break;
    case judge_decision::different: ++counts_.different; break;
    case judge_decision::abstain: ++counts_.abstain; break;
    case judge_decision::parse_error: ++counts_.parse_error; break;
  }
}

void vote_tally::add_fault() {
  ++counts_.faults;
}

std::uint32_t vote_tally::cast() const {
  return counts_.equivalent + counts_.different + counts_.abstain
         + counts_.parse_error + counts_.faults;
}

std::uint32_t vote_tally::outstanding() const {
  auto c = cast();
  return c >= cfg_.votes ? 0 : cfg_.votes - c;
}

bool vote_tally::fixed() const {
  const std::uint64_t k = cfg_.min_agreement;
  const std::uint64_t out = outstanding();
  if (counts_.equivalent >= k || counts_.different >= k)
    return true;
  return counts_.equivalent + out < k && counts_.different + out < k;
}

equivalence_outcome vote_tally::outcome() const {
  const std::uint64_t k = cfg_.min_agreement;
  const auto n = std::to_string(cfg_.votes);
  const double total = cfg_.votes;
  if (counts_.equivalent >= k)
    return {true, counts_.equivalent / total,
            std::to_string(counts_.equivalent) + "/" + n + " EQUIVALENT",
            false};
  if (counts_.different >= k)
    return {false, counts_.different / total,
            std::to_string(counts_.different) + "/" + n + " DIFFERENT", false};
  const std::uint64_t f = counts_.faults;
  // Had the failed votes been cast, one side could have reached k: the lack
  // of an answer is the failure's doing (I2), not the judge's (I3).
  if (f > 0 && (counts_.equivalent + f >= k || counts_.different + f >= k))
    return {std::nullopt, 0.0,
            "votes failed: " + std::to_string(f) + " of " + n
              + " votes faulted (" + std::to_string(counts_.equivalent)
              + " EQUIVALENT, " + std::to_string(counts_.different)
              + " DIFFERENT, need " + std::to_string(k) + ")",
            true};
  return {std::nullopt, 0.0, "no agreement", false};
}

vote_counts vote_tally::counts() const {
  vote_counts c = counts_;
  c.not_cast = outstanding();
  return c;
}

} // namespace ij
