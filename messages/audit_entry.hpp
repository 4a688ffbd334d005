#pragma once
// What a run session hands its audit logger (SPEC §11): records as JSON
// object texts, and decided pairs whose records (judge calls, vote, verdict)
// the logger renders itself — rendering is a good part of the cost of a
// pair, and the logger's own thread is where it costs nothing to the
// judging. The logger adds seq, type, ts and the hash chain, and is the only
// writer of the file.
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

#include "messages/answer_pair.hpp"
#include "messages/audit_type.hpp"
#include "messages/verdict.hpp"
#include "messages/vote_result.hpp"

namespace ij {

struct audit_entry {
  /// manifest, item_verdict, rejected, run_end, ...
  audit_type type = audit_type::manifest;
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

/// One decided pair: written as one judge_call record per vote result
/// record, then its vote and its verdict.
/// The verdict's row is all it adds to the pair and its result.
struct decided_pair {
  answer_pair pair;
  vote_result result;
  verdict_kind verdict = verdict_kind::neither;
  verdict_rule rule = verdict_rule::i3;
};

inline bool operator==(const decided_pair& x, const decided_pair& y) {
  return x.pair == y.pair && x.result == y.result && x.verdict == y.verdict
         && x.rule == y.rule;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, decided_pair& x) {
  return f(caf::meta::type_name("ij.decided_pair"), x.pair, x.result, x.verdict,
           x.rule);
}

/// Records written together, in order — the decided pairs' records first,
/// then the entries — with one write.
struct audit_batch {
  std::vector<decided_pair> pairs;
  std::vector<audit_entry> entries;
  /// The batch releases a verdict: under the default flush policy the
  /// logger replies only once it is fsynced.
  bool durable = false;
  /// The run-end batch: fsync, close the file, refuse anything after it.
  bool last = false;
};

inline bool operator==(const audit_batch& x, const audit_batch& y) {
  return x.pairs == y.pairs && x.entries == y.entries && x.durable == y.durable
         && x.last == y.last;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, audit_batch& x) {
  return f(caf::meta::type_name("ij.audit_batch"), x.pairs, x.entries,
           x.durable, x.last);
}

} // namespace ij
