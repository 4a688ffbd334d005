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
  std::uint32_t not_cast = 0;      // skipped once the outcome was fixed
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

struct vote_result {
  std::string pair_id;
  /// True when A or B was absent: no judge was called (rule I1).
  bool absent = false;
  equivalence_outcome outcome;
  vote_counts counts;
  std::vector<judge_record> records;
};

inline bool operator==(const vote_result& x, const vote_result& y) {
  return x.pair_id == y.pair_id && x.absent == y.absent
         && x.outcome == y.outcome && x.counts == y.counts
         && x.records == y.records;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, vote_result& x) {
  return f(caf::meta::type_name("ij.vote_result"), x.pair_id, x.absent,
           x.outcome, x.counts, x.records);
}

} // namespace ij
