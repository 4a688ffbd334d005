#pragma once
// What a client feeds a run session: pairs, and the input lines it rejected
// (audited like everything else). Sent in batches: one message per batch
// keeps the cost of crossing actors off the per-pair path.
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

#include "messages/answer_pair.hpp"

namespace ij {

/// An input line the client could not turn into a pair.
struct rejected_line {
  std::string file;
  std::uint64_t line = 0;
  std::string reason;
};

inline bool operator==(const rejected_line& x, const rejected_line& y) {
  return x.file == y.file && x.line == y.line && x.reason == y.reason;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, rejected_line& x) {
  return f(caf::meta::type_name("ij.rejected_line"), x.file, x.line, x.reason);
}

struct input_batch {
  std::vector<answer_pair> pairs;
  std::vector<rejected_line> rejected;
};

inline bool operator==(const input_batch& x, const input_batch& y) {
  return x.pairs == y.pairs && x.rejected == y.rejected;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, input_batch& x) {
  return f(caf::meta::type_name("ij.input_batch"), x.pairs, x.rejected);
}

} // namespace ij
