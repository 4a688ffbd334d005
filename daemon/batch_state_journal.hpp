#pragma once
// The daemon's batch journal (adapters/batch_journal, issue 17): a batched
// judge's marks (pending, submitted, ended) in the state database, so that
// after kill -9 the next start polls the batches its runs had submitted and
// never submits their requests again.
//
// The daemon's judges are shared by its runs, so one journal serves every
// batched judge and a batch may hold calls of several runs. Each mark is
// stored whole (the audit's `batch` body, core/audit/batch_record) and linked
// to the run tags of its custom_ids ("<run tag>-p<seq>-v<vote>"); a resumed run
// reads back the marks of its open batches by its run id.
//
// record() is called from the batched judges' Asio threads (never a CAF
// scheduler thread) and writes there: its own connection (WAL, beside the
// state store's), behind a mutex, synchronous=FULL so that a mark is on disk
// before `done` runs.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <caf/expected.hpp>

#include "adapters/batch_journal.hpp"

struct sqlite3;

namespace ij {

class batch_state_journal : public batch_journal {
public:
  /// Opens (creating its tables) the database at `path`, the daemon's
  /// DIR/state.sqlite; io_failed naming SQLite's error.
  static caf::expected<std::shared_ptr<batch_state_journal>>
  open(const std::string& path);
  ~batch_state_journal() override;
  batch_state_journal(const batch_state_journal&) = delete;
  batch_state_journal& operator=(const batch_state_journal&) = delete;

  /// Stores the mark (one transaction, fsynced), then runs `done` on the
  /// calling thread.
  void record(batch_mark mark, std::function<void(caf::error)> done) override;

  /// Every mark of the batches that hold calls of run `run_id`, in the
  /// order recorded (what batch_judge::adopt takes; it skips ended ones).
  caf::expected<std::vector<batch_mark>> marks_of(const std::string& run_id);

  /// The same, only batches not ended: empty when the run has none open.
  caf::expected<std::vector<batch_mark>>
  open_marks_of(const std::string& run_id);

private:
  explicit batch_state_journal(sqlite3* db);
  caf::error store(const batch_mark& mark);

  std::mutex mtx_; // the connection
  sqlite3* db_;
};

} // namespace ij
