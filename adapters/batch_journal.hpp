#pragma once
// The batch journal: where a batched judge (adapters/batch_judge) records
// its batches before it acts on them, so that after a crash nothing is paid
// twice. The run (audit `batch` records) or the daemon (SQLite) implements
// it; the adapter only calls record() and waits for `done`.
//
// Order per batch: `pending` (every entry) -> submit -> `submitted` (the
// provider's id) -> poll -> `ended` (final state) -> results delivered, so
// that a run's audit holds a batch's end before its calls' records and its
// own end. A restart reads the marks back and hands them to
// batch_judge::adopt().
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <caf/error.hpp>

#include "messages/batch_step.hpp"

namespace ij {

/// One request of a batch: its custom_id and the vote it is.
struct batch_entry {
  std::string custom_id;
  std::string pair_id;
  std::uint32_t vote_index = 0;
};

struct batch_mark {
  batch_step step = batch_step::pending;
  /// The judge's adapter id (batch_judge::id()).
  std::string judge;
  /// The adapter's own id for the batch, known before the provider's.
  std::string key;
  /// The provider's id; empty while pending.
  std::string batch_id;
  /// ended: the final state ("ended", "expired", "failed", "cancelled",
  /// "rejected", ...); empty otherwise.
  std::string state;
  std::vector<batch_entry> entries;
  /// Unix milliseconds when the mark was made.
  std::int64_t at_ms = 0;
};

/// The batches of `judge` still open in marks read back at a restart (in any
/// order, any judge's): each one's latest mark, with the entries its earlier
/// marks listed (a later mark may carry none).
std::vector<batch_mark> open_batches(const std::vector<batch_mark>& marks,
                                     const std::string& judge);

class batch_journal {
public:
  virtual ~batch_journal() = default;

  /// Makes `mark` durable, then runs `done` exactly once (any thread) with
  /// none, or the error that kept it from being recorded.
  virtual void record(batch_mark mark,
                      std::function<void(caf::error)> done) = 0;
};

} // namespace ij
