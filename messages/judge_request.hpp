#pragma once
// One vote asked of a judge actor: compare a and b (already in the order the
// judge should see them) for pair `pair_id`. Named "ij.judge_request2" since
// it carries the problem and the prompt to use (issue 29): a host of an
// earlier build differs in its message types and is refused at connect.
#include <cstdint>
#include <string>

#include <caf/meta/type_name.hpp>

namespace ij {

struct judge_request {
  std::string pair_id;
  std::string a;
  std::string b;
  std::uint32_t vote_index = 0;
  /// True when the coordinator swapped A and B for this vote; the judge actor
  /// swaps NUMERIC_A/B back in the record.
  bool swapped = false;
  bool has_seed = false;
  std::int64_t seed = 0; // baseSeed + vote_index
  /// The pair's sequence number in its run (the input line's order, the
  /// same after a resume) and the run's tag: a batched judge names the
  /// request by them (custom_id "<run_tag>-p<pair_seq>-v<vote_index>").
  std::uint64_t pair_seq = 0;
  std::string run_tag;
  /// The pair's problem, if given (a declared prompt's {{problem}}).
  std::string problem{};
  /// Call with the judge's non-numeric prompt: the cascade's rule judge did
  /// not read the answers as numbers (issue 29).
  bool non_numeric = false;
};

inline bool operator==(const judge_request& x, const judge_request& y) {
  return x.pair_id == y.pair_id && x.a == y.a && x.b == y.b
         && x.vote_index == y.vote_index && x.swapped == y.swapped
         && x.has_seed == y.has_seed && x.seed == y.seed
         && x.pair_seq == y.pair_seq && x.run_tag == y.run_tag
         && x.problem == y.problem && x.non_numeric == y.non_numeric;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, judge_request& x) {
  return f(caf::meta::type_name("ij.judge_request2"), x.pair_id, x.a, x.b,
           x.vote_index, x.swapped, x.has_seed, x.seed, x.pair_seq, x.run_tag,
           x.problem, x.non_numeric);
}

} // namespace ij
