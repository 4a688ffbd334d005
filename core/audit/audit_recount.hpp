#pragma once
// Recounts the records of an audit trail (core/audit/audit_record.hpp) and
// checks that its run_end record agrees with them: the totals a run_end carries
// must be what the records before it add up to, and the pairs it lists as
// unfinished must have no record. The hash chain shows that no line was
// changed in place; this shows that the last line (which no successor
// protects) tells the truth about the others. Pure: used by verify_audit.
//
// Memory: one 64-bit fingerprint per judged pair and per verdict record's
// item (8 MB per million pairs), so that a long run verifies in bounded
// memory. A wrong finding would need two different ids with the same 64-bit
// hash: below one chance in ten million for a million pairs.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <caf/error.hpp>
#include <rapidjson/document.h>

#include "core/session/call_route.hpp"
#include "messages/audit_type.hpp"
#include "messages/error.hpp"

namespace ij {

class audit_recount {
public:
  /// Counts one record read from the audit, of `type` (any but run_end).
  /// bad_input saying what is wrong with it when it lacks a field the
  /// totals need (e.g. "lacks \"rule\"").
  caf::error add(audit_type type, const rapidjson::Value& record);

  /// The first disagreement between `run_end` and the records counted, in
  /// plain words (bad_input, e.g. "run_end says pairs 40, but 39 verdict
  /// records precede it"); none when they agree.
  caf::error check_run_end(const rapidjson::Value& run_end);

private:
  void add_manifest(const rapidjson::Value& r);
  caf::error add_judge_call(const rapidjson::Value& r);
  struct calls_tally {
    std::uint64_t calls = 0;
    std::uint64_t faults = 0;
    std::uint64_t input_tokens = 0;
    std::uint64_t output_tokens = 0;
  };

  void note_pair(std::string_view pair_id);
  caf::error add_vote_counts(const rapidjson::Value& r);
  caf::error check_usage(const rapidjson::Value& usage) const;
  caf::error check_routes(const rapidjson::Value& run_end) const;
  caf::error check_cancel_counts(const rapidjson::Value& run_end) const;

  /// A judge the manifest declares, in order.
  struct declared_judge {
    std::string name, adapter, worker;
  };
  std::vector<declared_judge> judges_;
  /// Calls by source: adapter id and worker id ("adapter\nworker"); two
  /// judges may share an adapter id (one model at two temperatures), never
  /// a worker.
  std::unordered_map<std::string, calls_tally> by_source_;
  calls_tally calls_;
  /// The judge_call records by where the call went (sent, refused by the
  /// breaker, refused at a budget, cached, no worker).
  call_routes routes_;
  std::uint64_t votes_ = 0;
  std::uint64_t vote_calls_ = 0;
  std::uint64_t not_cast_ = 0;
  std::uint64_t verdicts_ = 0;
  std::uint64_t by_rule_[5] = {0, 0, 0, 0, 0};
  std::uint64_t rejected_ = 0;
  std::uint64_t votes_moved_ = 0;
  std::uint64_t late_replies_ = 0;
  std::uint64_t items_ = 0;
  std::uint64_t canaries_ = 0;
  /// Vote records with "screened", with "flags" (issue 29).
  std::uint64_t screened_ = 0;
  std::uint64_t flagged_ = 0;
  /// Fingerprints of the pairs with any judge_call, vote or verdict record
  /// (one per run of consecutive records of the same pair: a pair's records
  /// are written together).
  std::vector<std::uint64_t> recorded_pairs_;
  std::uint64_t last_pair_ = 0;
  bool any_pair_ = false;
  /// Fingerprints of the items of verdict records and of item_verdict
  /// records.
  std::vector<std::uint64_t> judged_items_;
  std::vector<std::uint64_t> closed_items_;
};

} // namespace ij
