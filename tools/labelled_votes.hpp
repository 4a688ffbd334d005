#pragma once
// The labelled votes of audit trails, per judge id (issue 16): what
// `invjudge calibrate` fits its maps on and the report's reliability
// diagrams show. A vote is a judge_call whose decision is EQUIVALENT or
// DIFFERENT on a pair whose verdict record carries a label; its raw
// confidence is core/calibration/calibration's (the decision's probability, or
// the pair's vote share when the record has none).
//
// Evidence counts once: a pair is keyed by its run id (the manifest's) and
// pair id over every audit read, so an audit given twice, a copy of it, or
// an interrupted run's copy beside its resumed file adds each pair once.
#include <cstdint>
#include <istream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/calibration/calibration.hpp"

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
  /// Distinct pairs (run id, pair id) with a verdict over every audit read,
  /// and those with a label and a counted vote.
  std::uint64_t pairs = 0;
  std::uint64_t labelled_pairs = 0;
  /// The pairs counted, and the audit each run was first read from.
  std::set<std::pair<std::string, std::string>> counted;
  std::map<std::string, std::string> first_read_in;
};

/// What one audit added.
struct audit_reading {
  std::string run_id;
  /// The audit its run was read from before ("" when it is new).
  std::string read_before_in;
  /// Pair verdicts in the audit, and those already counted from an earlier
  /// audit (or earlier in this one), which add nothing.
  std::uint64_t pairs = 0;
  std::uint64_t repeated = 0;
};

/// Adds the votes of one audit, `name` naming it; lines that are not JSON
/// objects are skipped (the chain verifier judges the file). A pair
/// already counted is counted again never.
audit_reading read_labelled_votes(std::istream& in, const std::string& name,
                                  labelled_votes& out);

} // namespace ij
