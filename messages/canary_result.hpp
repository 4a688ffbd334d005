#pragma once
// One canary of a live run, judged (issue 10): a negative control mixed
// into the run and voted on like any pair, never counted in pair or item
// verdicts. The run listener gets these (the driver writes them as
// {"kind":"canary"} lines); the audit has a canary record for each.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <caf/error.hpp>
#include <caf/meta/load_callback.hpp>
#include <caf/meta/type_name.hpp>

#include "messages/equivalence_outcome.hpp"
#include "messages/tri_bool.hpp"
#include "messages/vote_result.hpp"

namespace ij {

struct canary_result {
  /// "canary-<k>@<run id>": never an input id.
  std::string id;
  /// "identity", "mismatch", "abstain", "master_key" or "planted".
  std::string kind;
  /// Real pairs taken in before it.
  std::uint64_t position = 0;
  std::string a;
  std::string b;
  /// The right answer in words: "EQUIVALENT", "not EQUIVALENT", "ABSTAIN".
  std::string expected;
  equivalence_outcome outcome;
  vote_counts counts;
  /// Whether every judge that answered got it right; nullopt when no judge
  /// gave a readable decision (faults, parse errors).
  std::optional<bool> passed;
  /// The judges that failed it.
  std::vector<std::string> failed_judges;
};

inline bool operator==(const canary_result& x, const canary_result& y) {
  return x.id == y.id && x.kind == y.kind && x.position == y.position
         && x.a == y.a && x.b == y.b && x.expected == y.expected
         && x.outcome == y.outcome && x.counts == y.counts
         && x.passed == y.passed && x.failed_judges == y.failed_judges;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, canary_result& x) {
  auto passed = encode_tri(x.passed);
  return f(caf::meta::type_name("ij.canary_result"), x.id, x.kind, x.position,
           x.a, x.b, x.expected, x.outcome, x.counts, passed, x.failed_judges,
           caf::meta::load_callback([&]() -> caf::error {
             x.passed = decode_tri(passed);
             return caf::none;
           }));
}

} // namespace ij
