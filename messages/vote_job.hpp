#pragma once
// A pair on its way through the vote coordinator and back to its run
// session. The pair travels by move: it crosses each actor once.
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

#include "messages/answer_pair.hpp"
#include "messages/vote_result.hpp"

namespace ij {

/// One pair to vote on; `seq` is the session's own number for it.
struct vote_job {
  std::uint64_t seq = 0;
  answer_pair pair;
  /// The pair's planted-verdict flags (core/guard/pair_guard.hpp) when its
  /// judges are asked anyway (on_planted "judge"): a model's EQUIVALENT is not
  /// taken.
  std::vector<std::string> flags{};
  /// Call with the judges' non-numeric prompt (a cascade's LLM stage on a
  /// pair the rule judge did not read as numbers).
  bool non_numeric = false;
};

inline bool operator==(const vote_job& x, const vote_job& y) {
  return x.seq == y.seq && x.pair == y.pair && x.flags == y.flags
         && x.non_numeric == y.non_numeric;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, vote_job& x) {
  return f(caf::meta::type_name("ij.vote_job2"), x.seq, x.pair, x.flags,
           x.non_numeric);
}

/// The pair back with the aggregate of its votes.
struct voted_pair {
  std::uint64_t seq = 0;
  answer_pair pair;
  vote_result result;
};

inline bool operator==(const voted_pair& x, const voted_pair& y) {
  return x.seq == y.seq && x.pair == y.pair && x.result == y.result;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, voted_pair& x) {
  return f(caf::meta::type_name("ij.voted_pair"), x.seq, x.pair, x.result);
}

} // namespace ij
