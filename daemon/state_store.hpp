#pragma once
// The daemon's state under --state DIR: one SQLite database (WAL) with the
// runs and their verdict lines, so that a restart (after SIGTERM, kill -9 or
// a power cut) finds every run and every verdict already released. The
// pairs of a run and its audit trail are files beside it
// (DIR/runs/<id>/pairs.jsonl, audit.jsonl): the audit is the record of
// what was judged, the database only what the API serves. The directory is
// the daemon's alone (daemon/state_lock): open() takes its lock first.
//
// One connection behind a mutex: callers are HTTP threads and the store's
// own writer thread (never CAF scheduler threads). What the runs release
// goes through the writer, in order: verdict lines (many batches per
// transaction, with the run's counts as of its last line) and a run's end,
// saved only after its lines, so that "done" means every line can be read.
// A run actor only queues (a short lock, no I/O).
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <caf/error.hpp>
#include <caf/expected.hpp>

#include "daemon/state_lock.hpp"

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
  /// The counts object (JSON text, daemon/run_counts) as last saved.
  std::string counts_json = "{}";
  std::string error;
  /// SHA-256 of the audit's last line once the run has ended (what `audit
  /// verify` prints as its final hash); empty before.
  std::string final_hash;
};

/// A run's end (or a barrier) for the writer: stored after every line
/// queued before it; then `done` is called on the writer thread with the
/// row as saved (a "done" run whose lines could not be stored is "failed").
struct run_end_job {
  std::optional<run_row> row; // nullopt: only wait for the lines
  std::function<void(const run_row* saved)> done;
};

class state_store {
public:
  /// Locks DIR (daemon/state_lock) and opens (creating) DIR/state.sqlite;
  /// io_failed naming what failed (the lock's holder's pid).
  static caf::expected<std::unique_ptr<state_store>>
  open(const std::string& dir);
  ~state_store();
  state_store(const state_store&) = delete;
  state_store& operator=(const state_store&) = delete;

  /// Each of these fails with io_failed naming the database's error.
  caf::error insert_run(const run_row& row);
  /// Saves every field but id, config and created.
  caf::error update_run(const run_row& row);
  /// Saves what the uploads change (lines, accepted, closed, state, counts)
  /// while the run is unfinished (open or running); a run that has ended
  /// keeps its saved end.
  caf::error update_input(const run_row& row);
  std::vector<run_row> runs();
  std::optional<run_row> run(const std::string& id);

  /// Verdict lines, each with its key ("pair:ID", "item:ITEM",
  /// "canary:ID"), numbered first_seq, first_seq + 1, ...: queued for the
  /// writer thread, stored soon after (one row per call), with the run's
  /// counts as they are after them (`counts_json`).
  void queue_verdicts(std::string run_id, std::uint64_t first_seq,
                      std::vector<std::pair<std::string, std::string>> lines,
                      std::string counts_json);
  /// A run's end after its lines (above); never blocks.
  void queue_run_end(run_end_job job);
  /// The keys of a run's stored verdict lines (a resumed run hands out its
  /// earlier verdicts again; those already stored are not stored twice).
  std::vector<std::string> verdict_keys(const std::string& run_id);
  /// Lines with seq > after, at most `limit`, in order.
  std::vector<std::pair<std::uint64_t, std::string>>
  verdicts(const std::string& run_id, std::uint64_t after, std::size_t limit);
  std::uint64_t last_seq(const std::string& run_id);

  /// Folds the WAL into the database (on a clean shutdown).
  void checkpoint();

  /// Called on the writer thread with a run's id after its lines were
  /// stored or its end saved (and the end's `done` ran): what followers
  /// wait for (daemon/run_events). Set once, before any run is queued.
  void on_change(std::function<void(const std::string& run_id)> changed) {
    changed_ = std::move(changed);
  }

private:
  struct job {
    std::string run_id;
    std::uint64_t first_seq = 0;
    std::vector<std::pair<std::string, std::string>> lines;
    std::string counts_json;
    std::optional<run_end_job> end;
  };
  state_store(sqlite3* db, std::unique_ptr<state_lock> lock);
  void write_loop();
  bool store_batches(std::deque<job>& jobs);
  void end_run(run_end_job& end);

  std::unique_ptr<state_lock> lock_;
  sqlite3* db_;
  std::mutex mtx_; // the connection

  std::mutex queue_mtx_;
  std::condition_variable queue_cv_;
  std::deque<job> queue_;
  bool stopping_ = false;
  caf::error write_error_; // the writer's first error (its thread's own)
  std::function<void(const std::string&)> changed_;
  std::thread writer_;
};

} // namespace ij
