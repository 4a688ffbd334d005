#include "daemon/state_store.hpp"

#include <string_view>

#include <sqlite3.h>

#include "adapters/sqlite_statement.hpp"
#include "daemon/run_counts.hpp"
#include "messages/error.hpp"

namespace ij {

const char* const state_schema_sql =
  "PRAGMA journal_mode=WAL;"
  // NORMAL (WAL): a process crash loses nothing; a power cut may lose the
  // last verdict lines, which the run's audit still holds (fsynced before
  // release) and the resume hands out again, so they are stored then.
  "PRAGMA synchronous=NORMAL;"
  "CREATE TABLE IF NOT EXISTS runs ("
  " id TEXT PRIMARY KEY, name TEXT NOT NULL, state TEXT NOT NULL,"
  " config TEXT NOT NULL, created_ms INTEGER NOT NULL,"
  " finished_ms INTEGER NOT NULL, lines INTEGER NOT NULL,"
  " accepted INTEGER NOT NULL, closed INTEGER NOT NULL,"
  " counts TEXT NOT NULL, error TEXT NOT NULL,"
  " final_hash TEXT NOT NULL DEFAULT '');"
  // GET /v1/runs pages in creation order (created_ms, then rowid: the
  // order the rows were made in, where a run id's random suffix is not);
  // the retention goes by end time. An index on created_ms carries the
  // rowid after it. The index of an earlier version is not used any more.
  "DROP INDEX IF EXISTS runs_by_created;"
  "CREATE INDEX IF NOT EXISTS runs_in_order ON runs (created_ms);"
  "CREATE INDEX IF NOT EXISTS runs_by_finished ON runs (finished_ms);"
  // One row per batch of verdict lines as the run releases them (a row per
  // line cost the daemon a tenth of its CPU with the rule judge): lines
  // first_seq..last_seq, '\n'-joined, and their keys likewise.
  "CREATE TABLE IF NOT EXISTS verdict_batches ("
  " run_id TEXT NOT NULL, first_seq INTEGER NOT NULL,"
  " last_seq INTEGER NOT NULL, keys TEXT NOT NULL, lines TEXT NOT NULL,"
  " PRIMARY KEY (run_id, first_seq));"
  // The finished runs by state ("state:done") and their counts summed
  // (daemon/run_counts keys), kept with each end and removal, so that
  // /metrics never reads every run ("meta:sums": they have been made).
  "CREATE TABLE IF NOT EXISTS count_sums ("
  " key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;"
  // Runs the retention removed: they answer 410 Gone, not 404.
  "CREATE TABLE IF NOT EXISTS removed_runs ("
  " id TEXT PRIMARY KEY, removed_ms INTEGER NOT NULL) WITHOUT ROWID;";

namespace {

using statement = sqlite_statement;

/// Calls f with each '\n'-terminated piece of text.
template <class F>
void split_lines(const std::string& text, F f) {
  std::size_t start = 0, nl;
  while ((nl = text.find('\n', start)) != std::string::npos) {
    f(std::string_view{text}.substr(start, nl - start));
    start = nl + 1;
  }
}

// A state written before runs had a final hash gains the column.
constexpr const char* final_hash_column =
  "ALTER TABLE runs ADD COLUMN final_hash TEXT NOT NULL DEFAULT ''";

constexpr const char* run_columns =
  "id, name, state, config, created_ms, finished_ms, lines, accepted, "
  "closed, counts, error, final_hash";

caf::expected<run_row> row_of(statement& q) {
  run_row r;
  r.id = q.text(0);
  r.name = q.text(1);
  auto state = stored_run_state(q.text(2), r.id);
  if (!state)
    return std::move(state.error());
  r.state = *state;
  r.config_json = q.text(3);
  r.created_ms = q.integer(4);
  r.finished_ms = q.integer(5);
  r.lines = static_cast<std::uint64_t>(q.integer(6));
  r.accepted = static_cast<std::uint64_t>(q.integer(7));
  r.closed = q.integer(8) != 0;
  r.counts_json = q.text(9);
  r.error = q.text(10);
  r.final_hash = q.text(11);
  return r;
}

caf::error db_error(sqlite3* db, const std::string& what) {
  return make_error(errc::io_failed, what + ": " + sqlite3_errmsg(db));
}

// An older state's sums, made once from its finished runs.
caf::error make_sums(sqlite3* db) {
  {
    statement q{db, "SELECT 1 FROM count_sums WHERE key = 'meta:sums'"};
    if (q.step() == SQLITE_ROW)
      return caf::none;
  }
  run_figures sums;
  {
    statement q{db, "SELECT state, counts FROM runs WHERE state IN "
                    "('done', 'cancelled', 'failed')"};
    while (q.step() == SQLITE_ROW) {
      auto state = stored_run_state(q.text(0), "(sums)");
      if (!state)
        return std::move(state.error());
      fold_finished(*state, q.text(1), sums, true);
    }
  }
  sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
  statement put{
    db, "INSERT OR REPLACE INTO count_sums (key, value) VALUES (?1, ?2)"};
  bool ok = true;
  auto store = [&](const std::string& key, std::uint64_t v) {
    put.reset();
    put.bind(1, key);
    put.bind(2, static_cast<std::int64_t>(v));
    ok = ok && put.step() == SQLITE_DONE;
  };
  for (auto& [state, n] : sums.runs_by_state)
    store(state_sum_key(state), n);
  for (auto& [key, n] : sums.count_sums)
    store(key, n);
  store("meta:sums", 1);
  if (!ok
      || sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
    auto err = db_error(db, "cannot update the state database");
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    return err;
  }
  return caf::none;
}

} // namespace

std::string state_sum_key(run_state state) {
  return "state:" + std::string{to_string(state)};
}

caf::expected<run_state> stored_run_state(const std::string& text,
                                          const std::string& run_id) {
  if (auto s = run_state_from_string(text))
    return *s;
  return make_error(errc::io_failed, "the state database's run " + run_id
                                       + " has an unknown state '" + text
                                       + "' (runs.state)");
}

caf::error upgrade_state(sqlite3* db) {
  bool has_hash = false;
  {
    statement q{db, "SELECT name FROM pragma_table_info('runs')"};
    while (q.step() == SQLITE_ROW)
      has_hash = has_hash || q.text(0) == "final_hash";
  }
  if (!has_hash
      && sqlite3_exec(db, final_hash_column, nullptr, nullptr, nullptr)
           != SQLITE_OK)
    return db_error(db, "cannot update the state database");
  return make_sums(db);
}

caf::expected<std::unique_ptr<state_store>>
state_store::open(const std::string& dir) {
  auto lock = state_lock::acquire(dir);
  if (!lock)
    return std::move(lock.error());
  auto path = dir + "/state.sqlite";
  auto opened =
    open_sqlite(path, state_schema_sql, false, "the state database");
  if (!opened)
    return std::move(opened.error());
  sqlite3* db = *opened;
  if (auto err = upgrade_state(db)) {
    sqlite3_close(db);
    return err;
  }
  return std::unique_ptr<state_store>(
    new state_store(db, std::move(*lock), std::move(path)));
}

state_store::state_store(sqlite3* db, std::unique_ptr<state_lock> lock,
                         std::string path)
    : lock_(std::move(lock)), path_(std::move(path)), db_(db) {}

state_store::~state_store() {
  sqlite3_close(db_);
}

caf::expected<std::vector<run_row>> state_store::unfinished_runs() {
  std::lock_guard<std::mutex> guard{mtx_};
  std::vector<run_row> out;
  statement q{db_, std::string{"SELECT "} + run_columns
                     + " FROM runs WHERE state IN ('open', 'running') "
                       "ORDER BY created_ms, id"};
  while (q.step() == SQLITE_ROW) {
    auto row = row_of(q);
    if (!row)
      return std::move(row.error());
    out.push_back(std::move(*row));
  }
  return out;
}

caf::expected<std::optional<run_row>> state_store::run(const std::string& id) {
  std::lock_guard<std::mutex> guard{mtx_};
  statement q{db_, std::string{"SELECT "} + run_columns
                     + " FROM runs WHERE id = ?1"};
  q.bind(1, id);
  if (q.step() != SQLITE_ROW)
    return std::optional<run_row>{};
  auto row = row_of(q);
  if (!row)
    return std::move(row.error());
  return std::optional<run_row>{std::move(*row)};
}

bool state_store::removed(const std::string& id) {
  std::lock_guard<std::mutex> guard{mtx_};
  statement q{db_, "SELECT 1 FROM removed_runs WHERE id = ?1"};
  q.bind(1, id);
  return q.step() == SQLITE_ROW;
}

// The cursor is "<created_ms>:<rowid>" of the page's last run: the next
// page starts after it even when that run has been removed meanwhile (a
// rowid SQLite gives again after a removal comes with a later created_ms).
caf::expected<run_page> state_store::runs(std::size_t limit,
                                          const std::string& cursor) {
  std::int64_t after_ms = -1, after_row = 0;
  if (!cursor.empty()) {
    auto colon = cursor.find(':');
    auto digits = [](const std::string& t) {
      return !t.empty() && t.size() <= 18
             && t.find_first_not_of("0123456789") == std::string::npos;
    };
    auto ms = cursor.substr(0, colon);
    auto row =
      colon == std::string::npos ? std::string{} : cursor.substr(colon + 1);
    if (!digits(ms) || !digits(row))
      return make_error(errc::bad_input,
                        "after must be a page's next cursor, not '" + cursor
                          + "'");
    after_ms = std::stoll(ms);
    after_row = std::stoll(row);
  }
  std::lock_guard<std::mutex> guard{mtx_};
  run_page page;
  statement q{db_,
              std::string{"SELECT "} + run_columns
                + ", rowid FROM runs WHERE created_ms > ?1 OR (created_ms = ?1 "
                  "AND rowid > ?2) ORDER BY created_ms, rowid LIMIT ?3"};
  q.bind(1, after_ms);
  q.bind(2, after_row);
  q.bind(3, static_cast<std::int64_t>(limit + 1));
  std::int64_t last_row = 0;
  while (page.rows.size() < limit && q.step() == SQLITE_ROW) {
    auto row = row_of(q);
    if (!row)
      return std::move(row.error());
    page.rows.push_back(std::move(*row));
    last_row = q.integer(12);
  }
  if (page.rows.size() == limit && q.step() == SQLITE_ROW)
    page.next = std::to_string(page.rows.back().created_ms) + ":"
                + std::to_string(last_row);
  return page;
}

std::vector<std::string> state_store::verdict_keys(const std::string& run_id) {
  std::lock_guard<std::mutex> guard{mtx_};
  std::vector<std::string> out;
  statement q{db_, "SELECT keys FROM verdict_batches WHERE run_id = ?1"};
  q.bind(1, run_id);
  while (q.step() == SQLITE_ROW)
    split_lines(q.text(0),
                [&](std::string_view key) { out.emplace_back(key); });
  return out;
}

std::vector<std::pair<std::uint64_t, std::string>>
state_store::verdicts(const std::string& run_id, std::uint64_t after,
                      std::size_t limit) {
  std::lock_guard<std::mutex> guard{mtx_};
  std::vector<std::pair<std::uint64_t, std::string>> out;
  statement q{db_, "SELECT first_seq, lines FROM verdict_batches WHERE "
                   "run_id = ?1 AND last_seq > ?2 ORDER BY first_seq"};
  q.bind(1, run_id);
  q.bind(2, static_cast<std::int64_t>(after));
  while (out.size() < limit && q.step() == SQLITE_ROW) {
    auto seq = static_cast<std::uint64_t>(q.integer(0));
    split_lines(q.text(1), [&](std::string_view line) {
      if (seq > after && out.size() < limit)
        out.emplace_back(seq, std::string{line});
      ++seq;
    });
  }
  return out;
}

std::uint64_t state_store::last_seq(const std::string& run_id) {
  std::lock_guard<std::mutex> guard{mtx_};
  statement q{db_, "SELECT COALESCE(MAX(last_seq), 0) FROM verdict_batches "
                   "WHERE run_id = ?1"};
  q.bind(1, run_id);
  if (q.step() == SQLITE_ROW)
    return static_cast<std::uint64_t>(q.integer(0));
  return 0;
}

caf::expected<run_figures> state_store::finished_sums() {
  std::lock_guard<std::mutex> guard{mtx_};
  run_figures out;
  statement q{db_, "SELECT key, value FROM count_sums"};
  while (q.step() == SQLITE_ROW) {
    auto key = q.text(0);
    auto v = static_cast<std::uint64_t>(q.integer(1));
    if (key.rfind("state:", 0) == 0) {
      auto state = run_state_from_string(key.substr(6));
      if (!state)
        return make_error(errc::io_failed,
                          "the state database's sums have an "
                          "unknown run state '"
                            + key.substr(6) + "' (count_sums.key " + key + ")");
      out.runs_by_state[*state] = v;
    } else if (key.rfind("meta:", 0) != 0)
      out.count_sums[key] = v;
  }
  return out;
}

} // namespace ij
