#include "daemon/state_writer.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include <caf/typed_event_based_actor.hpp>
#include <sqlite3.h>

#include "adapters/sqlite_statement.hpp"
#include "core/session/run_tag.hpp"
#include "daemon/run_counts.hpp"
#include "daemon/state_store.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

using statement = sqlite_statement;

struct writer_state {
  static inline const char* name = "state-writer";

  sqlite3* db = nullptr;
  state_writer_options options;
  /// Verdict batches kept for the next group commit, with their senders'
  /// promises.
  struct kept {
    verdict_batch batch;
    caf::typed_response_promise<std::uint64_t> promise;
  };
  std::vector<kept> kept_batches;
  bool flush_queued = false;
  /// The first failure to store lines: a run that ends "done" after it is
  /// "failed" (the audit holds its lines).
  caf::error write_error;

  ~writer_state() {
    if (db)
      sqlite3_close(db);
  }
};

using self_ptr = state_writer_actor::stateful_pointer<writer_state>;

// The connection as a spawn argument (CAF looks into raw pointers there).
struct connection_handle {
  sqlite3* db;
};

caf::error db_error(sqlite3* db) {
  return make_error(errc::io_failed,
                    std::string{"state database: "} + sqlite3_errmsg(db));
}

bool exec(sqlite3* db, const char* sql) {
  return sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
}

// A run row's columns as numbered parameters ?1..?12, one numbering for the
// insert and the updates: an update names only the columns it sets, and
// SQLite ignores a binding its statement does not use (SQLITE_RANGE past
// the statement's last parameter, which bind() does not treat as an error).
void bind_row(statement& q, const run_row& r) {
  q.bind(1, r.id);
  q.bind(2, r.name);
  q.bind(3, std::string{to_string(r.state)});
  q.bind(4, r.config_json);
  q.bind(5, r.created_ms);
  q.bind(6, r.finished_ms);
  q.bind(7, static_cast<std::int64_t>(r.lines));
  q.bind(8, static_cast<std::int64_t>(r.accepted));
  q.bind(9, std::int64_t{r.closed});
  q.bind(10, r.counts_json);
  q.bind(11, r.error);
  q.bind(12, r.final_hash);
}

// Every batch kept, in one transaction, each run's counts as of its last
// line; then each sender hears its last seq (also after a failure: the
// audit holds the lines, and the run's end says so).
void flush(self_ptr self) {
  auto& st = self->state;
  st.flush_queued = false;
  if (st.kept_batches.empty())
    return;
  auto kept = std::move(st.kept_batches);
  st.kept_batches.clear();
  exec(st.db, "BEGIN");
  statement q{st.db,
              "INSERT OR REPLACE INTO verdict_batches (run_id, first_seq, "
              "last_seq, keys, lines) VALUES (?1, ?2, ?3, ?4, ?5)"};
  std::map<std::string, const std::string*> counts;
  std::string keys, lines;
  bool ok = true;
  for (auto& k : kept) {
    auto& b = k.batch;
    if (!b.counts_json.empty())
      counts[b.run_id] = &b.counts_json;
    if (b.lines.empty())
      continue;
    keys.clear();
    lines.clear();
    for (std::size_t i = 0; i < b.lines.size(); ++i) {
      keys.append(b.keys[i]).push_back('\n');
      lines.append(b.lines[i]).push_back('\n');
    }
    q.reset();
    q.bind(1, b.run_id);
    q.bind(2, static_cast<std::int64_t>(b.first_seq));
    q.bind(3, static_cast<std::int64_t>(b.first_seq + b.lines.size() - 1));
    q.bind(4, keys);
    q.bind(5, lines);
    ok = ok && q.step() == SQLITE_DONE;
  }
  statement u{st.db, "UPDATE runs SET counts = ?2 WHERE id = ?1 AND state IN "
                     "('open', 'running')"};
  for (auto& [id, c] : counts) {
    u.reset();
    u.bind(1, id);
    u.bind(2, *c);
    ok = ok && u.step() == SQLITE_DONE;
  }
  if (!ok || !exec(st.db, "COMMIT")) {
    if (!st.write_error)
      st.write_error = db_error(st.db);
    exec(st.db, "ROLLBACK");
  }
  for (auto& k : kept)
    k.promise.deliver(k.batch.first_seq + k.batch.lines.size() - 1);
}

void keep(self_ptr self, verdict_batch& batch,
          caf::typed_response_promise<std::uint64_t> promise) {
  auto& st = self->state;
  st.kept_batches.push_back({std::move(batch), std::move(promise)});
  if (!st.flush_queued) {
    st.flush_queued = true;
    self->send(self, flush_atom::value);
  }
}

// Adds (or takes away) a finished run in the sums table.
bool store_sums(sqlite3* db, run_state state, const std::string& counts_json,
                bool add) {
  run_figures delta;
  fold_finished(state, counts_json, delta, true);
  statement q{db, add ? "INSERT INTO count_sums (key, value) VALUES (?1, ?2) "
                        "ON CONFLICT (key) DO UPDATE SET value = value + ?2"
                      : "UPDATE count_sums SET value = MAX(value - ?2, 0) "
                        "WHERE key = ?1"};
  bool ok = true;
  auto put = [&](const std::string& key, std::uint64_t n) {
    q.reset();
    q.bind(1, key);
    q.bind(2, static_cast<std::int64_t>(n));
    ok = ok && q.step() == SQLITE_DONE;
  };
  for (auto& [s, n] : delta.runs_by_state)
    put(state_sum_key(s), n);
  for (auto& [key, n] : delta.count_sums)
    put(key, n);
  return ok;
}

// A run's end: its row, and the sums once (a run already ended keeps its
// saved end). The row as saved comes back.
run_row save_end(self_ptr self, run_end_record& end) {
  auto& st = self->state;
  auto& row = end.row;
  if (!end.final)
    return row; // SIGTERM: its lines are stored; it resumes at the next start
  if (st.write_error && row.state == run_state::done) {
    row.state = run_state::failed;
    row.error = "verdict lines not stored (the audit holds them): "
                + context_of(st.write_error);
  }
  exec(st.db, "BEGIN");
  statement q{st.db, "UPDATE runs SET name = ?2, state = ?3, finished_ms = ?6, "
                     "lines = ?7, accepted = ?8, closed = ?9, counts = ?10, "
                     "error = ?11, final_hash = ?12 WHERE id = ?1 AND state IN "
                     "('open', 'running')"};
  bind_row(q, row);
  bool ok = q.step() == SQLITE_DONE;
  if (ok && sqlite3_changes(st.db) > 0)
    ok = store_sums(st.db, row.state, row.counts_json, true);
  // Not checked beyond this: the row in memory is still right, and a
  // restart resumes a run whose end was not saved.
  if (!ok || !exec(st.db, "COMMIT"))
    exec(st.db, "ROLLBACK");
  statement back{st.db, "SELECT state, error, finished_ms, final_hash FROM "
                        "runs WHERE id = ?1"};
  back.bind(1, row.id);
  // A stored state that is not run_state's keeps the row in memory (the
  // writer alone writes that column).
  auto saved = back.step() == SQLITE_ROW ? run_state_from_string(back.text(0))
                                         : std::nullopt;
  if (saved && final_state(*saved)) {
    row.state = *saved;
    row.error = back.text(1);
    row.finished_ms = back.integer(2);
    row.final_hash = back.text(3);
  }
  return row;
}

caf::error insert_run(sqlite3* db, const run_row& r) {
  statement q{db, "INSERT INTO runs (id, name, state, config, created_ms, "
                  "finished_ms, lines, accepted, closed, counts, error, "
                  "final_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                  "?10, ?11, ?12)"};
  bind_row(q, r);
  return q.step() == SQLITE_DONE ? caf::error{} : db_error(db);
}

// What an upload or close changed: while unfinished, its state and counts
// too (a run that has ended keeps its saved end).
void update_input(sqlite3* db, const run_row& r) {
  statement q{db, "UPDATE runs SET lines = ?7, accepted = ?8, closed = ?9, "
                  "state = CASE WHEN state IN ('open', 'running') THEN ?3 "
                  "ELSE state END, counts = CASE WHEN state IN ('open', "
                  "'running') THEN ?10 ELSE counts END WHERE id = ?1"};
  bind_row(q, r);
  q.step(); // not checked: the next update, the end or a restart saves it
}

// The finished runs past the retention (older than keep_ms, or not among
// the last keep_runs to finish), at most retention_batch.
std::vector<removed_run> retention_candidates(sqlite3* db, std::int64_t keep_ms,
                                              std::uint64_t keep_runs,
                                              std::int64_t now_ms) {
  std::vector<removed_run> out;
  statement q{db,
              "SELECT id, state, counts FROM runs WHERE state IN ('done', "
              "'cancelled', 'failed') AND ((?1 > 0 AND finished_ms < ?3 - ?1) "
              "OR (?2 > 0 AND id NOT IN (SELECT id FROM runs WHERE state IN "
              "('done', 'cancelled', 'failed') ORDER BY finished_ms DESC, id "
              "DESC LIMIT ?2))) ORDER BY finished_ms, id LIMIT ?4"};
  q.bind(1, keep_ms);
  q.bind(2, static_cast<std::int64_t>(keep_runs));
  q.bind(3, now_ms);
  q.bind(4, static_cast<std::int64_t>(retention_batch));
  // The query takes final states only: one not run_state's is not removed.
  while (q.step() == SQLITE_ROW)
    if (auto state = run_state_from_string(q.text(1)))
      out.push_back({q.text(0), *state, q.text(2)});
  return out;
}

// Their rows, lines, batch links and sums in one transaction, then their
// files. A crash between the two leaves a folder nobody reads, never a run
// without its audit.
std::vector<removed_run> retain(self_ptr self, std::int64_t keep_ms,
                                std::uint64_t keep_runs, std::int64_t now_ms) {
  auto& st = self->state;
  auto gone = retention_candidates(st.db, keep_ms, keep_runs, now_ms);
  if (gone.empty())
    return gone;
  exec(st.db, "BEGIN");
  statement lines{st.db, "DELETE FROM verdict_batches WHERE run_id = ?1"};
  statement row{st.db, "DELETE FROM runs WHERE id = ?1"};
  statement mark{st.db, "INSERT OR REPLACE INTO removed_runs (id, removed_ms) "
                        "VALUES (?1, ?2)"};
  statement links{st.db, "DELETE FROM batch_runs WHERE run_tag = ?1"};
  bool ok = true;
  for (auto& r : gone) {
    for (auto* q : {&lines, &row, &mark}) {
      q->reset();
      q->bind(1, r.id);
      q->bind(2, now_ms);
      ok = ok && q->step() == SQLITE_DONE;
    }
    links.reset();
    links.bind(1, run_tag_of(r.id));
    links.step(); // absent without the batch journal's tables: nothing to do
    ok = ok && store_sums(st.db, r.state, r.counts_json, false);
  }
  // A batch's marks go with the last run it held calls of.
  exec(st.db, "DELETE FROM batch_marks WHERE NOT EXISTS (SELECT 1 FROM "
              "batch_runs r WHERE r.judge = batch_marks.judge AND r.key = "
              "batch_marks.key)");
  if (!ok || !exec(st.db, "COMMIT")) {
    exec(st.db, "ROLLBACK");
    if (st.options.log)
      st.options.log("retention: cannot remove finished runs: "
                     + context_of(db_error(st.db)));
    return {};
  }
  for (auto& r : gone) {
    std::error_code ec;
    std::filesystem::remove_all(st.options.state_dir + "/runs/" + r.id, ec);
  }
  if (st.options.log)
    st.options.log(
      "retention: removed " + std::to_string(gone.size()) + " finished run(s), "
      + gone.front().id
      + (gone.size() > 1 ? " ... " + gone.back().id : std::string{})
      + " (their files and rows; they answer 410 Gone)");
  return gone;
}

state_writer_actor::behavior_type writer(self_ptr self, connection_handle db,
                                         state_writer_options options) {
  self->state.db = db.db;
  self->state.options = std::move(options);
  return {
    [=](create_atom, const run_row& row) -> caf::result<bool> {
      flush(self);
      if (auto err = insert_run(self->state.db, row))
        return err;
      return true;
    },
    [=](input_atom, const run_row& row) {
      flush(self);
      update_input(self->state.db, row);
    },
    [=](verdict_batch& batch) {
      auto promise = self->make_response_promise<std::uint64_t>();
      keep(self, batch, promise);
      return promise;
    },
    [=](flush_atom) { flush(self); },
    [=](run_end_record& end) -> run_row {
      flush(self); // its lines first
      return save_end(self, end);
    },
    [=](retain_atom, std::int64_t keep_ms, std::uint64_t keep_runs,
        std::int64_t now_ms) {
      flush(self);
      return retain(self, keep_ms, keep_runs, now_ms);
    },
    [=](checkpoint_atom) {
      flush(self);
      sqlite3_wal_checkpoint_v2(self->state.db, nullptr,
                                SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
      return true;
    },
  };
}

} // namespace

caf::expected<state_writer_actor>
spawn_state_writer(caf::actor_system& sys, state_writer_options options) {
  auto opened = open_sqlite(options.state_dir + "/state.sqlite",
                            state_schema_sql, false, "the state database");
  if (!opened)
    return std::move(opened.error());
  return sys.spawn<caf::detached>(writer, connection_handle{*opened},
                                  std::move(options));
}

} // namespace ij
