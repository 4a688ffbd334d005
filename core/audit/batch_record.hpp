#pragma once
// The audit's `batch` record (issue 17): one step of a batched judge's
// batch (adapters/batch_journal's marks), written before the judge acts on
// it, so that a resumed run polls what it had submitted and never submits it
// again. Pure: the body's JSON, reading it back, and which batches a resume
// must adopt. Core holds its own copy of the mark (core never depends on
// adapters); actors/batch_audit_journal converts.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "messages/batch_step.hpp"

namespace ij {

struct batch_record_entry {
  std::string custom_id;
  std::string pair_id;
  std::uint32_t vote = 0;
};

struct batch_record {
  batch_step step = batch_step::pending;
  /// The judge's adapter id.
  std::string judge;
  /// The adapter's own key of the batch (known before the provider's id).
  std::string key;
  /// The provider's id; empty while pending.
  std::string batch_id;
  /// ended: the final state ("ended", "expired", "cancelled", ...).
  std::string state;
  std::vector<batch_record_entry> entries;
  std::int64_t at_ms = 0;
};

bool operator==(const batch_record& x, const batch_record& y);

/// The record's body: {"step", "judge", "key", "batch_id", "state",
/// "at_ms", "entries": [{"custom_id", "pair_id", "vote"}]}.
std::string batch_body(const batch_record& r);

/// Reads a body back; nullopt when a required field (step, judge, key) is
/// missing or the step is unknown.
std::optional<batch_record> read_batch_body(const rapidjson::Value& r);

} // namespace ij
