#pragma once
// The one thin wrapper over SQLite's C API, for the response cache
// (adapters/response_cache) and the daemon's state (daemon/state_store):
// opening a database with its schema, and a prepared statement finalized on
// scope exit. Callers keep their own threading (one connection, one thread
// or one mutex).
#include <cstdint>
#include <string>

#include <caf/expected.hpp>

#include "messages/error.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace ij {

/// Opens (creating) the database at `path` with a 5 s busy timeout and runs
/// `schema_sql`; fails with io_failed ("cannot open <what> <path>: ...").
/// `serialized`: SQLite's own mutex (FULLMUTEX) for a connection shared by
/// threads; else NOMUTEX.
caf::expected<sqlite3*> open_sqlite(const std::string& path,
                                    const char* schema_sql, bool serialized,
                                    const std::string& what);

/// One prepared statement, finalized on scope exit; false when the SQL
/// could not be prepared (then step() fails).
class sqlite_statement {
public:
  sqlite_statement(sqlite3* db, const char* sql);
  sqlite_statement(sqlite3* db, const std::string& sql)
      : sqlite_statement(db, sql.c_str()) {}
  ~sqlite_statement();
  sqlite_statement(const sqlite_statement&) = delete;
  sqlite_statement& operator=(const sqlite_statement&) = delete;
  explicit operator bool() const { return stmt_ != nullptr; }
  void bind(int i, const std::string& s);
  void bind(int i, std::int64_t v);
  /// SQLITE_ROW, SQLITE_DONE or an error code.
  int step();
  /// For running the statement again with new bindings.
  void reset();
  std::string text(int col);
  std::int64_t integer(int col);

private:
  sqlite3_stmt* stmt_ = nullptr;
};

} // namespace ij
