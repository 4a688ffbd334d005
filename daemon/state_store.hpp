#pragma once
// The daemon's state under --state DIR: one SQLite database (WAL) with the
// runs, their verdict lines, the sums of the finished runs' counts and the
// ids of runs the retention removed, so that a restart (after SIGTERM,
// kill -9 or a power cut) finds every run and every verdict already
// released. The pairs of a run and its audit trail are files beside it
// (DIR/runs/<id>/pairs.jsonl, audit.jsonl): the audit is the record of what
// was judged, the database only what the API serves. The directory is the
// daemon's alone (daemon/state_lock): open() takes its lock first.
//
// This is the reading side: the HTTP threads' reads (a finished run, a page
// of runs, verdict lines) and the start's (unfinished runs, the sums), on
// one connection of its own behind a mutex that only those threads take.
// Every write goes through the state writer actor (daemon/state_writer),
// on its own connection; WAL lets the two work at once.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <caf/error.hpp>
#include <caf/expected.hpp>

#include "daemon/state_lock.hpp"
#include "messages/run_figures.hpp"
#include "messages/run_row.hpp"

struct sqlite3;

namespace ij {

/// A page of GET /v1/runs: the runs in creation order after the cursor,
/// and the cursor of the next page (empty: this was the last).
struct run_page {
  std::vector<run_row> rows;
  std::string next;
};

class state_store {
public:
  /// Locks DIR (daemon/state_lock) and opens (creating) DIR/state.sqlite
  /// with its tables; io_failed naming what failed (the lock's holder's
  /// pid).
  static caf::expected<std::unique_ptr<state_store>>
  open(const std::string& dir);
  ~state_store();
  state_store(const state_store&) = delete;
  state_store& operator=(const state_store&) = delete;

  /// The path of the database (the writer opens its own connection).
  const std::string& path() const { return path_; }

  /// The runs not finished (open or running), in creation order.
  /// A row whose stored state is not one of run_state's texts is an error
  /// naming it (here and in run() and runs()).
  caf::expected<std::vector<run_row>> unfinished_runs();
  caf::expected<std::optional<run_row>> run(const std::string& id);
  /// The retention removed run `id` (it answers 410 Gone).
  bool removed(const std::string& id);
  /// At most `limit` runs in creation order after `cursor` (a page's
  /// `next`; empty: from the first). bad_input when the cursor is not one.
  caf::expected<run_page> runs(std::size_t limit, const std::string& cursor);

  /// The keys of a run's stored verdict lines (a resumed run hands out its
  /// earlier verdicts again; those already stored are not stored twice).
  std::vector<std::string> verdict_keys(const std::string& run_id);
  /// Lines with seq > after, at most `limit`, in order.
  std::vector<std::pair<std::uint64_t, std::string>>
  verdicts(const std::string& run_id, std::uint64_t after, std::size_t limit);
  std::uint64_t last_seq(const std::string& run_id);

  /// The finished runs by state and their counts summed (run_figures'
  /// runs_by_state and count_sums), as the writer keeps them.
  /// A sums key of a state that is not one of run_state's is an error.
  caf::expected<run_figures> finished_sums();

private:
  state_store(sqlite3* db, std::unique_ptr<state_lock> lock, std::string path);

  std::unique_ptr<state_lock> lock_;
  std::string path_;
  sqlite3* db_;
  std::mutex mtx_; // the connection: HTTP threads and the start only
};

/// The tables of the state database, as both connections create them.
extern const char* const state_schema_sql;

/// Whether DIR/state.sqlite's runs table has `final_hash` (older states
/// gain it) and `count_sums` is filled in (an older state's sums are made
/// once from its finished runs): run by open() before anything reads.
caf::error upgrade_state(sqlite3* db);

/// The key of a finished run's state in the sums table ("state:done").
std::string state_sum_key(run_state state);

/// A run's state as stored (runs.state of run `run_id`); a text that is not
/// one of run_state's is an io_failed error naming it and the run.
caf::expected<run_state> stored_run_state(const std::string& text,
                                          const std::string& run_id);

} // namespace ij
