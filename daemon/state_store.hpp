#pragma once
// The daemon's state under --state DIR: one SQLite database (WAL) with the
// runs and their verdict lines, so that a restart (after SIGTERM, kill -9 or
// a power cut) finds every run and every verdict already released. The
// pairs of a run and its audit trail are files beside it
// (DIR/runs/<id>/pairs.jsonl, audit.jsonl): the audit is the record of
// what was judged, the database only what the API serves.
//
// One connection behind a mutex: callers are server and run threads (never
// CAF scheduler threads), and each statement is short. Verdict lines are
// stored by a writer thread of the store's own, many batches per
// transaction, so that a run's thread (which feeds its session) never waits
// for SQLite: that wait had made a rule-judge run 2x slower than the driver.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

struct sqlite3;

namespace ij {

struct run_row {
  std::string id;
  std::string name;
  /// open | running | done | cancelled | failed
  std::string state = "open";
  /// The configuration as the client sent it (JSON text).
  std::string config_json;
  std::int64_t created_ms = 0;
  std::int64_t finished_ms = 0;
  /// Input lines received (pairs and rejected, blank lines included) and
  /// pairs accepted among them.
  std::uint64_t lines = 0;
  std::uint64_t accepted = 0;
  /// The input is complete (POST /close).
  bool closed = false;
  /// The counts object (JSON text) as last saved.
  std::string counts_json = "{}";
  std::string error;
};

/// Verdict lines waiting for the writer thread.
struct verdict_batch {
  std::string run_id;
  std::uint64_t first_seq = 0;
  std::vector<std::pair<std::string, std::string>> lines;
};

class state_store {
public:
  /// Opens (creating) DIR/state.sqlite; nullptr with `error` naming it.
  static std::unique_ptr<state_store> open(const std::string& dir,
                                           std::string& error);
  ~state_store();
  state_store(const state_store&) = delete;
  state_store& operator=(const state_store&) = delete;

  bool insert_run(const run_row& row, std::string& error);
  /// Saves every field but id, config and created.
  bool update_run(const run_row& row, std::string& error);
  std::vector<run_row> runs();
  std::optional<run_row> run(const std::string& id);

  /// Verdict lines, each with its key ("pair:ID" or "item:ITEM"), numbered
  /// first_seq, first_seq + 1, ...: queued for the writer thread, stored
  /// soon after (one row per call).
  void queue_verdicts(std::string run_id, std::uint64_t first_seq,
                      std::vector<std::pair<std::string, std::string>> lines);
  /// Waits until every queued line is stored (a run's end is saved only
  /// after its lines, so that "done" means all of them can be read).
  void flush_verdicts();
  /// The first error the writer met (empty: none).
  std::string write_error();
  /// The keys of a run's stored verdict lines (a resumed run hands out its
  /// earlier verdicts again; those already stored are not stored twice).
  std::vector<std::string> verdict_keys(const std::string& run_id);
  /// Lines with seq > after, at most `limit`, in order.
  std::vector<std::pair<std::uint64_t, std::string>>
  verdicts(const std::string& run_id, std::uint64_t after, std::size_t limit);
  std::uint64_t last_seq(const std::string& run_id);

  /// Folds the WAL into the database (on a clean shutdown).
  void checkpoint();

private:
  explicit state_store(sqlite3* db);
  void write_loop();
  bool store_batches(std::deque<verdict_batch>& batches);

  sqlite3* db_;
  std::mutex mtx_; // the connection

  std::mutex queue_mtx_;
  std::condition_variable queue_cv_;
  std::deque<verdict_batch> queue_;
  std::uint64_t queued_ = 0;  // batches queued so far...
  std::uint64_t written_ = 0; // ...and stored (or failed)
  bool stopping_ = false;
  std::string write_error_;
  std::thread writer_;
};

} // namespace ij
