#pragma once
// What the pipeline hands the audit logger (SPEC §11): records already
// rendered as JSON objects; the logger adds seq, type, ts and the hash chain,
// and is the only writer of the file.
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

namespace ij {

struct audit_entry {
  /// "manifest", "judge_call", "vote", "verdict", "item_verdict",
  /// "rejected" or "run_end".
  std::string type;
  /// The record's own fields as one JSON object text ("{...}").
  std::string body;
};

inline bool operator==(const audit_entry& x, const audit_entry& y) {
  return x.type == y.type && x.body == y.body;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, audit_entry& x) {
  return f(caf::meta::type_name("ij.audit_entry"), x.type, x.body);
}

/// Records written together, in order, with one write.
struct audit_batch {
  std::vector<audit_entry> entries;
  /// The batch releases a verdict: under the default flush policy the
  /// logger replies only once it is fsynced.
  bool durable = false;
  /// The run-end batch: fsync, close the file, refuse anything after it.
  bool last = false;
};

inline bool operator==(const audit_batch& x, const audit_batch& y) {
  return x.entries == y.entries && x.durable == y.durable && x.last == y.last;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, audit_batch& x) {
  return f(caf::meta::type_name("ij.audit_batch"), x.entries, x.durable,
           x.last);
}

} // namespace ij
