#pragma once
// Verdict lines a daemon run released, for the state writer: numbered
// first_seq, first_seq + 1, ..., each with its key ("pair:ID", "item:ITEM",
// "canary:ID"), and the run's counts as they are after them. Stored as one
// row; the writer answers with the last seq once it is committed.
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

namespace ij {

struct verdict_batch {
  std::string run_id;
  std::uint64_t first_seq = 0;
  std::vector<std::string> keys;
  std::vector<std::string> lines;
  std::string counts_json;
};

inline bool operator==(const verdict_batch& x, const verdict_batch& y) {
  return x.run_id == y.run_id && x.first_seq == y.first_seq && x.keys == y.keys
         && x.lines == y.lines && x.counts_json == y.counts_json;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, verdict_batch& x) {
  return f(caf::meta::type_name("ij.verdict_batch"), x.run_id, x.first_seq,
           x.keys, x.lines, x.counts_json);
}

} // namespace ij
