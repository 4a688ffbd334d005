// The state database read back (no daemon started): a run's stored state
// is one of run_state's texts, and one that is not is an error naming it
// and the run, from every read that meets it (issue 30).
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include "daemon/state_store.hpp"
#include "messages/error.hpp"
#include "tests/error_text.hpp"
#include "tests/tools/cli_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

void put_row(const std::string& dir, const std::string& id,
             const std::string& state) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((dir + "/state.sqlite").c_str(), &db) == SQLITE_OK);
  auto sql = "INSERT INTO runs (id, name, state, config, created_ms, "
             "finished_ms, lines, "
             "accepted, closed, counts, error, final_hash) VALUES ('"
             + id + "', '', '" + state
             + "', '{}', 1, 0, 0, 0, 0, '{}', '', '')";
  auto rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  sqlite3_close(db);
  REQUIRE(rc == SQLITE_OK);
}

} // namespace

TEST_CASE("state store: every run state reads back as stored") {
  temp_dir dir;
  {
    auto store = state_store::open(dir.path());
    REQUIRE(store);
  }
  for (auto state : all_run_states)
    put_row(dir.path(), "r-" + std::string{to_string(state)},
            std::string{to_string(state)});
  auto store = state_store::open(dir.path());
  REQUIRE(store);
  for (auto state : all_run_states) {
    auto row = (*store)->run("r-" + std::string{to_string(state)});
    INFO(::test::why(row));
    REQUIRE(row);
    REQUIRE(*row);
    CHECK((*row)->state == state);
  }
  auto unfinished = (*store)->unfinished_runs();
  REQUIRE(unfinished);
  CHECK(unfinished->size() == 2); // open and running
}

TEST_CASE("state store: a run state that is not one of the states is an error "
          "naming it") {
  temp_dir dir;
  {
    auto store = state_store::open(dir.path());
    REQUIRE(store);
  }
  put_row(dir.path(), "r1", "paused");
  auto store = state_store::open(dir.path());
  REQUIRE(store);
  auto row = (*store)->run("r1");
  REQUIRE_FALSE(row);
  CHECK(::test::why(row)
        == "the state database's run r1 has an unknown state 'paused' "
           "(runs.state)");
  auto page = (*store)->runs(10, "");
  REQUIRE_FALSE(page);
  CHECK(::test::why(page)
        == "the state database's run r1 has an unknown state 'paused' "
           "(runs.state)");
  auto missing = (*store)->run("r2");
  REQUIRE(missing);
  CHECK_FALSE(*missing);
}
