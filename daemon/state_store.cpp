#include "daemon/state_store.hpp"

#include <map>
#include <set>
#include <string_view>

#include <sqlite3.h>

#include "adapters/sqlite_statement.hpp"
#include "messages/error.hpp"

namespace ij {

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

constexpr const char* schema_sql =
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
  // One row per batch of verdict lines as the run releases them (a row per
  // line cost the daemon a tenth of its CPU with the rule judge): lines
  // first_seq..last_seq, '\n'-joined, and their keys likewise.
  "CREATE TABLE IF NOT EXISTS verdict_batches ("
  " run_id TEXT NOT NULL, first_seq INTEGER NOT NULL,"
  " last_seq INTEGER NOT NULL, keys TEXT NOT NULL, lines TEXT NOT NULL,"
  " PRIMARY KEY (run_id, first_seq));";

// A state written before runs had a final hash gains the column.
constexpr const char* final_hash_column =
  "ALTER TABLE runs ADD COLUMN final_hash TEXT NOT NULL DEFAULT ''";

constexpr const char* run_columns =
  "id, name, state, config, created_ms, finished_ms, lines, accepted, "
  "closed, counts, error, final_hash";

run_row row_of(statement& q) {
  run_row r;
  r.id = q.text(0);
  r.name = q.text(1);
  r.state = q.text(2);
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

} // namespace

caf::expected<std::unique_ptr<state_store>>
state_store::open(const std::string& dir) {
  auto lock = state_lock::acquire(dir);
  if (!lock)
    return std::move(lock.error());
  auto opened = open_sqlite(dir + "/state.sqlite", schema_sql, true,
                            "the state database");
  if (!opened)
    return std::move(opened.error());
  sqlite3* db = *opened;
  bool has_hash = false;
  {
    statement q{db, "SELECT name FROM pragma_table_info('runs')"};
    while (q.step() == SQLITE_ROW)
      has_hash = has_hash || q.text(0) == "final_hash";
  }
  if (!has_hash
      && sqlite3_exec(db, final_hash_column, nullptr, nullptr, nullptr)
           != SQLITE_OK) {
    auto err = make_error(errc::io_failed,
                          std::string{"cannot update the state database: "}
                            + sqlite3_errmsg(db));
    sqlite3_close(db);
    return err;
  }
  return std::unique_ptr<state_store>(new state_store(db, std::move(*lock)));
}

state_store::state_store(sqlite3* db, std::unique_ptr<state_lock> lock)
  : lock_(std::move(lock)), db_(db) {
  writer_ = std::thread([this] { write_loop(); });
}

state_store::~state_store() {
  {
    std::lock_guard<std::mutex> guard{queue_mtx_};
    stopping_ = true;
  }
  queue_cv_.notify_all();
  writer_.join(); // stores what is queued first
  sqlite3_close(db_);
}

void state_store::queue_verdicts(
  std::string run_id, std::uint64_t first_seq,
  std::vector<std::pair<std::string, std::string>> lines,
  std::string counts_json) {
  job j;
  j.run_id = std::move(run_id);
  j.first_seq = first_seq;
  j.lines = std::move(lines);
  j.counts_json = std::move(counts_json);
  {
    std::lock_guard<std::mutex> guard{queue_mtx_};
    queue_.push_back(std::move(j));
  }
  queue_cv_.notify_all();
}

void state_store::queue_run_end(run_end_job end) {
  job j;
  j.end = std::move(end);
  {
    std::lock_guard<std::mutex> guard{queue_mtx_};
    queue_.push_back(std::move(j));
  }
  queue_cv_.notify_all();
}

void state_store::write_loop() {
  std::unique_lock<std::mutex> lock{queue_mtx_};
  for (;;) {
    queue_cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty())
      return; // stopping, everything stored
    std::deque<job> jobs;
    jobs.swap(queue_);
    lock.unlock();
    // The lines up to each run end go first, in one transaction; then the
    // end; then the lines after it.
    while (!jobs.empty()) {
      std::deque<job> lines;
      while (!jobs.empty() && !jobs.front().end) {
        lines.push_back(std::move(jobs.front()));
        jobs.pop_front();
      }
      if (!lines.empty() && !store_batches(lines) && !write_error_)
        write_error_ = make_error(errc::io_failed,
                                  std::string{"state database: "}
                                    + sqlite3_errmsg(db_));
      if (changed_) {
        std::set<std::string> runs;
        for (auto& j : lines)
          runs.insert(j.run_id);
        for (auto& id : runs)
          changed_(id);
      }
      if (!jobs.empty()) {
        auto& end = *jobs.front().end;
        end_run(end);
        if (changed_ && end.row)
          changed_(end.row->id);
        jobs.pop_front();
      }
    }
    lock.lock();
  }
}

// Whatever was queued meanwhile, in one transaction, and each run's counts
// as of its last line.
bool state_store::store_batches(std::deque<job>& jobs) {
  std::lock_guard<std::mutex> guard{mtx_};
  sqlite3_exec(db_, "BEGIN", nullptr, nullptr, nullptr);
  statement q{db_, "INSERT OR REPLACE INTO verdict_batches (run_id, first_seq, "
                   "last_seq, keys, lines) VALUES (?1, ?2, ?3, ?4, ?5)"};
  std::map<std::string, const std::string*> counts;
  std::string keys, lines;
  bool ok = true;
  for (auto& b : jobs) {
    if (!b.counts_json.empty())
      counts[b.run_id] = &b.counts_json;
    if (b.lines.empty())
      continue;
    keys.clear();
    lines.clear();
    for (auto& [key, line] : b.lines) {
      keys.append(key).push_back('\n');
      lines.append(line).push_back('\n');
    }
    q.reset();
    q.bind(1, b.run_id);
    q.bind(2, static_cast<std::int64_t>(b.first_seq));
    q.bind(3, static_cast<std::int64_t>(b.first_seq + b.lines.size() - 1));
    q.bind(4, keys);
    q.bind(5, lines);
    ok = ok && q.step() == SQLITE_DONE;
  }
  statement u{db_, "UPDATE runs SET counts = ?2 WHERE id = ?1 AND state IN "
                   "('open', 'running')"};
  for (auto& [id, c] : counts) {
    u.reset();
    u.bind(1, id);
    u.bind(2, *c);
    ok = ok && u.step() == SQLITE_DONE;
  }
  if (!ok) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    return false;
  }
  return sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK;
}

void state_store::end_run(run_end_job& end) {
  if (!end.row) {
    end.done(nullptr);
    return;
  }
  auto& row = *end.row;
  if (write_error_ && row.state == "done") {
    row.state = "failed";
    row.error = "verdict lines not stored (the audit holds them): "
                + context_of(write_error_);
  }
  // Not checked: the row in memory is still right; a restart resumes.
  update_run(row);
  end.done(&row);
}

namespace {

// A run row's columns as numbered parameters ?1..?12, one numbering for the
// insert and the updates: an update names only the columns it sets, and
// SQLite ignores a binding its statement does not use (SQLITE_RANGE past
// the statement's last parameter, which bind() does not treat as an error).
void bind_row(statement& q, const run_row& r) {
  q.bind(1, r.id);
  q.bind(2, r.name);
  q.bind(3, r.state);
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

caf::error step_done(statement& q, sqlite3* db) {
  if (q.step() == SQLITE_DONE)
    return caf::none;
  return make_error(errc::io_failed,
                    std::string{"state database: "} + sqlite3_errmsg(db));
}

} // namespace

caf::error state_store::insert_run(const run_row& r) {
  std::lock_guard<std::mutex> guard{mtx_};
  statement q{db_, "INSERT INTO runs (id, name, state, config, created_ms, "
                   "finished_ms, lines, accepted, closed, counts, error, "
                   "final_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                   "?10, ?11, ?12)"};
  bind_row(q, r);
  return step_done(q, db_);
}

caf::error state_store::update_run(const run_row& r) {
  std::lock_guard<std::mutex> guard{mtx_};
  statement q{db_, "UPDATE runs SET name = ?2, state = ?3, finished_ms = ?6, "
                   "lines = ?7, accepted = ?8, closed = ?9, counts = ?10, "
                   "error = ?11, final_hash = ?12 WHERE id = ?1"};
  bind_row(q, r);
  return step_done(q, db_);
}

caf::error state_store::update_input(const run_row& r) {
  std::lock_guard<std::mutex> guard{mtx_};
  statement q{db_, "UPDATE runs SET state = ?3, lines = ?7, accepted = ?8, "
                   "closed = ?9, counts = ?10 WHERE id = ?1 AND state IN "
                   "('open', 'running')"};
  bind_row(q, r);
  return step_done(q, db_);
}

std::vector<run_row> state_store::runs() {
  std::lock_guard<std::mutex> guard{mtx_};
  std::vector<run_row> out;
  statement q{db_, std::string{"SELECT "} + run_columns
                     + " FROM runs ORDER BY created_ms, id"};
  while (q.step() == SQLITE_ROW)
    out.push_back(row_of(q));
  return out;
}

std::optional<run_row> state_store::run(const std::string& id) {
  std::lock_guard<std::mutex> guard{mtx_};
  statement q{db_, std::string{"SELECT "} + run_columns
                     + " FROM runs WHERE id = ?1"};
  q.bind(1, id);
  if (q.step() == SQLITE_ROW)
    return row_of(q);
  return std::nullopt;
}

std::vector<std::string> state_store::verdict_keys(const std::string& run_id) {
  std::lock_guard<std::mutex> guard{mtx_};
  std::vector<std::string> out;
  statement q{db_, "SELECT keys FROM verdict_batches WHERE run_id = ?1"};
  q.bind(1, run_id);
  while (q.step() == SQLITE_ROW)
    split_lines(q.text(0), [&](std::string_view key) { out.emplace_back(key); });
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

void state_store::checkpoint() {
  std::lock_guard<std::mutex> guard{mtx_};
  sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr,
                            nullptr);
}

} // namespace ij
