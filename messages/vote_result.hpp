#pragma once
// The aggregate of the votes on one pair (SPEC §7): the outcome, the counts
// behind it, the votes not cast after an early stop, and every judge record.
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

#include "messages/equivalence_outcome.hpp"
#include "messages/judge_record.hpp"

namespace ij {

struct vote_counts {
  std::uint32_t votes = 0;         // N, as configured
  std::uint32_t min_agreement = 0; // k, as configured
  std::uint32_t equivalent = 0;
  std::uint32_t different = 0;
  std::uint32_t abstain = 0;
  std::uint32_t parse_error = 0;
  std::uint32_t faults = 0;
  std::uint32_t not_cast = 0; // skipped once the outcome was fixed
};

inline bool operator==(const vote_counts& x, const vote_counts& y) {
  return x.votes == y.votes && x.min_agreement == y.min_agreement
         && x.equivalent == y.equivalent && x.different == y.different
         && x.abstain == y.abstain && x.parse_error == y.parse_error
         && x.faults == y.faults && x.not_cast == y.not_cast;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, vote_counts& x) {
  return f(caf::meta::type_name("ij.vote_counts"), x.votes, x.min_agreement,
           x.equivalent, x.different, x.abstain, x.parse_error, x.faults,
           x.not_cast);
}

/// One judge's share of a pair that several judges judge separately: a
/// panel judge, or a stage of the rules-first cascade. Each part has its own
/// votes and outcome; the pair's outcome is combined from the parts
/// (core/agreement/panel_rule.hpp, core/agreement/cascade_policy.hpp).
struct judge_part {
  /// The judge's configured name.
  std::string judge;
  /// "panel", or in a cascade "rules" or "llm".
  std::string role;
  equivalence_outcome outcome;
  vote_counts counts;
};

inline bool operator==(const judge_part& x, const judge_part& y) {
  return x.judge == y.judge && x.role == y.role && x.outcome == y.outcome
         && x.counts == y.counts;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, judge_part& x) {
  return f(caf::meta::type_name("ij.judge_part"), x.judge, x.role, x.outcome,
           x.counts);
}

struct vote_result {
  std::string pair_id;
  /// True when A or B was absent: no judge was called (rule I1).
  bool absent = false;
  equivalence_outcome outcome;
  /// With a panel or a cascade: the sums over the parts.
  vote_counts counts;
  /// Every judge call, parts in order (each part's in vote order).
  std::vector<judge_record> records;
  /// With a panel or a cascade: each judge's votes and outcome
  /// (judge_part); empty when the run pools its judges' votes.
  std::vector<judge_part> parts;
  /// A panel's agreement tier ("all", "majority", "split"), or a cascade's
  /// path ("rules", "fallback", "audited"); empty otherwise.
  std::string route;
  /// Why voting stopped: "outcome_fixed", "probability" (the calibrated
  /// probability reached stop.probability) or "votes_exhausted"; empty for
  /// an absent pair and a panel or cascade.
  std::string stop;
  /// Why no judge was asked: an answer states no result (issue 29); empty
  /// otherwise.
  std::string screened{};
  /// Planted-verdict flags ("decision_line in A"), core/guard/pair_guard.hpp.
  std::vector<std::string> flags{};
};

inline bool operator==(const vote_result& x, const vote_result& y) {
  return x.pair_id == y.pair_id && x.absent == y.absent
         && x.outcome == y.outcome && x.counts == y.counts
         && x.records == y.records && x.parts == y.parts && x.route == y.route
         && x.stop == y.stop && x.screened == y.screened && x.flags == y.flags;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, vote_result& x) {
  return f(caf::meta::type_name("ij.vote_result2"), x.pair_id, x.absent,
           x.outcome, x.counts, x.records, x.parts, x.route, x.stop, x.screened,
           x.flags);
}

} // namespace ij
