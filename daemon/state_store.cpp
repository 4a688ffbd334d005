#include "daemon/state_store.hpp"

#include <string_view>

#include <sqlite3.h>

namespace ij {

namespace {

class statement {
public:
  statement(sqlite3* db, const char* sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
      stmt_ = nullptr;
  }
  ~statement() {
    sqlite3_finalize(stmt_);
  }
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;
  explicit operator bool() const {
    return stmt_ != nullptr;
  }
  sqlite3_stmt* get() {
    return stmt_;
  }
  void bind(int i, const std::string& s) {
    sqlite3_bind_text(stmt_, i, s.data(), static_cast<int>(s.size()),
                      SQLITE_TRANSIENT);
  }
  void bind(int i, std::int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
  }
  std::string text(int col) {
    auto p = sqlite3_column_text(stmt_, col);
    auto n = sqlite3_column_bytes(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           static_cast<std::size_t>(n))
             : std::string{};
  }
  std::int64_t integer(int col) {
    return sqlite3_column_int64(stmt_, col);
  }
  int step() {
    return stmt_ ? sqlite3_step(stmt_) : SQLITE_ERROR;
  }

private:
  sqlite3_stmt* stmt_ = nullptr;
};

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
  " counts TEXT NOT NULL, error TEXT NOT NULL);"
  // One row per batch of verdict lines as the run releases them (a row per
  // line cost the daemon a tenth of its CPU with the rule judge): lines
  // first_seq..last_seq, '\n'-joined, and their keys likewise.
  "CREATE TABLE IF NOT EXISTS verdict_batches ("
  " run_id TEXT NOT NULL, first_seq INTEGER NOT NULL,"
  " last_seq INTEGER NOT NULL, keys TEXT NOT NULL, lines TEXT NOT NULL,"
  " PRIMARY KEY (run_id, first_seq));";

constexpr const char* run_columns =
  "id, name, state, config, created_ms, finished_ms, lines, accepted, "
  "closed, counts, error";

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
  return r;
}

} // namespace

std::unique_ptr<state_store> state_store::open(const std::string& dir,
                                               std::string& error) {
  auto path = dir + "/state.sqlite";
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                             | SQLITE_OPEN_FULLMUTEX,
                           nullptr);
  if (rc == SQLITE_OK) {
    sqlite3_busy_timeout(db, 5000);
    rc = sqlite3_exec(db, schema_sql, nullptr, nullptr, nullptr);
  }
  if (rc != SQLITE_OK) {
    error = "cannot open the state database " + path + ": "
            + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    return nullptr;
  }
  return std::unique_ptr<state_store>(new state_store(db));
}

state_store::state_store(sqlite3* db) : db_(db) {
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
  std::vector<std::pair<std::string, std::string>> lines) {
  if (lines.empty())
    return;
  {
    std::lock_guard<std::mutex> guard{queue_mtx_};
    queue_.push_back({std::move(run_id), first_seq, std::move(lines)});
    ++queued_;
  }
  queue_cv_.notify_all();
}

void state_store::flush_verdicts() {
  std::unique_lock<std::mutex> lock{queue_mtx_};
  auto target = queued_;
  queue_cv_.wait(lock, [&] { return written_ >= target; });
}

std::string state_store::write_error() {
  std::lock_guard<std::mutex> guard{queue_mtx_};
  return write_error_;
}

void state_store::write_loop() {
  std::unique_lock<std::mutex> lock{queue_mtx_};
  for (;;) {
    queue_cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty())
      return; // stopping, everything stored
    std::deque<verdict_batch> batches;
    batches.swap(queue_);
    lock.unlock();
    bool ok = store_batches(batches);
    lock.lock();
    if (!ok && write_error_.empty())
      write_error_ = std::string{"state database: "} + sqlite3_errmsg(db_);
    written_ += batches.size();
    queue_cv_.notify_all();
  }
}

// Whatever was queued meanwhile, in one transaction.
bool state_store::store_batches(std::deque<verdict_batch>& batches) {
  std::lock_guard<std::mutex> guard{mtx_};
  sqlite3_exec(db_, "BEGIN", nullptr, nullptr, nullptr);
  statement q{db_, "INSERT OR REPLACE INTO verdict_batches (run_id, first_seq, "
                   "last_seq, keys, lines) VALUES (?1, ?2, ?3, ?4, ?5)"};
  std::string keys, lines;
  for (auto& b : batches) {
    keys.clear();
    lines.clear();
    for (auto& [key, line] : b.lines) {
      keys.append(key).push_back('\n');
      lines.append(line).push_back('\n');
    }
    sqlite3_reset(q.get());
    q.bind(1, b.run_id);
    q.bind(2, static_cast<std::int64_t>(b.first_seq));
    q.bind(3, static_cast<std::int64_t>(b.first_seq + b.lines.size() - 1));
    q.bind(4, keys);
    q.bind(5, lines);
    if (q.step() != SQLITE_DONE) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      return false;
    }
  }
  return sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK;
}

bool state_store::insert_run(const run_row& r, std::string& error) {
  std::lock_guard<std::mutex> guard{mtx_};
  statement q{db_, "INSERT INTO runs (id, name, state, config, created_ms, "
                   "finished_ms, lines, accepted, closed, counts, error) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"};
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
  if (q.step() == SQLITE_DONE)
    return true;
  error = std::string{"state database: "} + sqlite3_errmsg(db_);
  return false;
}

bool state_store::update_run(const run_row& r, std::string& error) {
  std::lock_guard<std::mutex> guard{mtx_};
  statement q{db_, "UPDATE runs SET name = ?2, state = ?3, finished_ms = ?4, "
                   "lines = ?5, accepted = ?6, closed = ?7, counts = ?8, "
                   "error = ?9 WHERE id = ?1"};
  q.bind(1, r.id);
  q.bind(2, r.name);
  q.bind(3, r.state);
  q.bind(4, r.finished_ms);
  q.bind(5, static_cast<std::int64_t>(r.lines));
  q.bind(6, static_cast<std::int64_t>(r.accepted));
  q.bind(7, std::int64_t{r.closed});
  q.bind(8, r.counts_json);
  q.bind(9, r.error);
  if (q.step() == SQLITE_DONE)
    return true;
  error = std::string{"state database: "} + sqlite3_errmsg(db_);
  return false;
}

std::vector<run_row> state_store::runs() {
  std::lock_guard<std::mutex> guard{mtx_};
  std::vector<run_row> out;
  statement q{db_, (std::string{"SELECT "} + run_columns
                    + " FROM runs ORDER BY created_ms, id")
                     .c_str()};
  while (q.step() == SQLITE_ROW)
    out.push_back(row_of(q));
  return out;
}

std::optional<run_row> state_store::run(const std::string& id) {
  std::lock_guard<std::mutex> guard{mtx_};
  statement q{db_, (std::string{"SELECT "} + run_columns
                    + " FROM runs WHERE id = ?1")
                     .c_str()};
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
