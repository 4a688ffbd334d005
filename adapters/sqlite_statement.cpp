#include "adapters/sqlite_statement.hpp"

#include <sqlite3.h>

#include "messages/error.hpp"

namespace ij {

caf::expected<sqlite3*> open_sqlite(const std::string& path,
                                    const char* schema_sql, bool serialized,
                                    const std::string& what) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(
    path.c_str(), &db,
    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
      | (serialized ? SQLITE_OPEN_FULLMUTEX : SQLITE_OPEN_NOMUTEX),
    nullptr);
  if (rc == SQLITE_OK) {
    sqlite3_busy_timeout(db, 5000);
    rc = sqlite3_exec(db, schema_sql, nullptr, nullptr, nullptr);
  }
  if (rc != SQLITE_OK) {
    auto err = make_error(errc::io_failed,
                          "cannot open " + what + " " + path + ": "
                            + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
    sqlite3_close(db);
    return err;
  }
  return db;
}

sqlite_statement::sqlite_statement(sqlite3* db, const char* sql) {
  if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
    stmt_ = nullptr;
}

sqlite_statement::~sqlite_statement() {
  sqlite3_finalize(stmt_);
}

void sqlite_statement::bind(int i, const std::string& s) {
  sqlite3_bind_text(stmt_, i, s.data(), static_cast<int>(s.size()),
                    SQLITE_TRANSIENT);
}

void sqlite_statement::bind(int i, std::int64_t v) {
  sqlite3_bind_int64(stmt_, i, v);
}

int sqlite_statement::step() {
  return stmt_ ? sqlite3_step(stmt_) : SQLITE_ERROR;
}

void sqlite_statement::reset() {
  sqlite3_reset(stmt_);
}

std::string sqlite_statement::text(int col) {
  auto p = sqlite3_column_text(stmt_, col);
  auto n = sqlite3_column_bytes(stmt_, col);
  return p ? std::string(reinterpret_cast<const char*>(p),
                         static_cast<std::size_t>(n))
           : std::string{};
}

std::int64_t sqlite_statement::integer(int col) {
  return sqlite3_column_int64(stmt_, col);
}

} // namespace ij
