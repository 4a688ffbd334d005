#include "daemon/batch_state_journal.hpp"

#include <set>

#include <rapidjson/document.h>
#include <sqlite3.h>

#include "actors/batch_audit_journal.hpp"
#include "adapters/sqlite_statement.hpp"
#include "core/audit/batch_record.hpp"
#include "core/session/run_tag.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

using statement = sqlite_statement;

constexpr const char* schema_sql =
  "PRAGMA journal_mode=WAL;"
  // FULL on this connection only: a mark must survive a power cut before
  // the batch is submitted (the state store's own lines can be rebuilt from
  // the audit; a batch paid for and forgotten cannot).
  "PRAGMA synchronous=FULL;"
  // Each mark as the audit's `batch` body (core/audit/batch_record), in order.
  "CREATE TABLE IF NOT EXISTS batch_marks ("
  " seq INTEGER PRIMARY KEY AUTOINCREMENT, judge TEXT NOT NULL,"
  " key TEXT NOT NULL, step TEXT NOT NULL, body TEXT NOT NULL);"
  // Which runs (by tag) a batch holds calls of: a run reads its marks back.
  "CREATE TABLE IF NOT EXISTS batch_runs ("
  " run_tag TEXT NOT NULL, judge TEXT NOT NULL, key TEXT NOT NULL,"
  " PRIMARY KEY (run_tag, judge, key)) WITHOUT ROWID;";

// The run tag a custom_id starts with ("<tag>-p<seq>-v<vote>").
std::string tag_of(const std::string& custom_id) {
  return custom_id.substr(0, custom_id.find('-'));
}

caf::error db_error(sqlite3* db, const char* what) {
  return make_error(errc::io_failed,
                    std::string{what} + ": " + sqlite3_errmsg(db));
}

} // namespace

caf::expected<std::shared_ptr<batch_state_journal>>
batch_state_journal::open(const std::string& path) {
  auto opened = open_sqlite(path, schema_sql, false, "the batch journal");
  if (!opened)
    return std::move(opened.error());
  return std::shared_ptr<batch_state_journal>(new batch_state_journal(*opened));
}

batch_state_journal::batch_state_journal(sqlite3* db) : db_(db) {}

batch_state_journal::~batch_state_journal() {
  sqlite3_close(db_);
}

void batch_state_journal::record(batch_mark mark,
                                 std::function<void(caf::error)> done) {
  caf::error err;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    err = store(mark);
  }
  done(std::move(err));
}

// The mark and its run links in one transaction: a mark is read back with
// its runs or not at all.
caf::error batch_state_journal::store(const batch_mark& mark) {
  if (sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr)
      != SQLITE_OK)
    return db_error(db_, "cannot record a batch");
  auto fail = [this] {
    auto err = db_error(db_, "cannot record a batch");
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    return err;
  };
  {
    statement q{db_, "INSERT INTO batch_marks (judge, key, step, body) "
                     "VALUES (?1, ?2, ?3, ?4)"};
    q.bind(1, mark.judge);
    q.bind(2, mark.key);
    q.bind(3, std::string{to_string(mark.step)});
    q.bind(4, batch_body(to_batch_record(mark)));
    if (q.step() != SQLITE_DONE)
      return fail();
  }
  std::set<std::string> tags;
  for (auto& e : mark.entries)
    tags.insert(tag_of(e.custom_id));
  statement link{db_, "INSERT OR IGNORE INTO batch_runs (run_tag, judge, key) "
                      "VALUES (?1, ?2, ?3)"};
  for (auto& tag : tags) {
    link.reset();
    link.bind(1, tag);
    link.bind(2, mark.judge);
    link.bind(3, mark.key);
    if (link.step() != SQLITE_DONE)
      return fail();
  }
  if (sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
    return fail();
  return caf::none;
}

caf::expected<std::vector<batch_mark>>
batch_state_journal::marks_of(const std::string& run_id) {
  std::lock_guard<std::mutex> guard{mtx_};
  statement q{db_, "SELECT m.body FROM batch_marks m JOIN batch_runs r"
                   " ON r.judge = m.judge AND r.key = m.key"
                   " WHERE r.run_tag = ?1 ORDER BY m.seq"};
  if (!q)
    return db_error(db_, "cannot read the batch journal");
  q.bind(1, run_tag_of(run_id));
  std::vector<batch_mark> out;
  int rc;
  while ((rc = q.step()) == SQLITE_ROW) {
    rapidjson::Document doc;
    auto body = q.text(0);
    doc.Parse(body.c_str());
    auto r = doc.HasParseError() ? std::nullopt : read_batch_body(doc);
    if (!r)
      return make_error(errc::io_failed, "the batch journal holds a mark it "
                                         "cannot read");
    out.push_back(to_batch_mark(*r));
  }
  if (rc != SQLITE_DONE)
    return db_error(db_, "cannot read the batch journal");
  return out;
}

caf::expected<std::vector<batch_mark>>
batch_state_journal::open_marks_of(const std::string& run_id) {
  auto all = marks_of(run_id);
  if (!all)
    return all;
  std::set<std::pair<std::string, std::string>> ended;
  for (auto& m : *all)
    if (m.step == batch_step::ended)
      ended.emplace(m.judge, m.key);
  std::vector<batch_mark> out;
  for (auto& m : *all)
    if (!ended.count({m.judge, m.key}))
      out.push_back(std::move(m));
  return out;
}

} // namespace ij
