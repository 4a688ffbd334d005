#pragma once
// The labelled votes of audit trails, per judge id (issue 16): what
// `invjudge calibrate` fits its maps on and the report's reliability
// diagrams show. A vote is a judge_call whose decision is EQUIVALENT or
// DIFFERENT on a pair whose verdict record carries a label; its raw
// confidence is core/calibration's (the decision's probability, or the
// pair's vote share when the record has none).
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "core/calibration.hpp"

namespace ij {

struct judge_votes {
  std::vector<labelled_vote> votes;
  /// Votes that carried decision_probs, and those that did not.
  std::uint64_t with_probs = 0;
  std::uint64_t without_probs = 0;
  /// "decision_probs", "vote_share" or "mixed".
  std::string source() const;
};

struct labelled_votes {
  std::map<std::string, judge_votes> judges;
  /// Pairs seen so far over every audit read (groups are unique across).
  std::uint64_t pairs = 0;
  std::uint64_t labelled_pairs = 0;
};

/// Adds the votes of one audit; lines that are not JSON objects are
/// skipped (the chain verifier judges the file).
void read_labelled_votes(std::istream& in, labelled_votes& out);

} // namespace ij
