// The daemon's batch journal: marks are read back per run, in order, across
// a reopen; a batch holding two runs' calls is read back by each.
#include <catch2/catch.hpp>

#include "core/session/run_tag.hpp"
#include "daemon/batch_state_journal.hpp"
#include "messages/error.hpp"
#include "tests/tools/cli_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

batch_mark mark_of(batch_step step, const std::string& key,
                   std::vector<std::string> run_ids) {
  batch_mark m;
  m.step = step;
  m.judge = "openai:judge-model";
  m.key = key;
  m.batch_id = step == batch_step::pending ? "" : "batch_" + key;
  m.at_ms = 1000;
  std::uint64_t seq = 1;
  for (auto& id : run_ids)
    m.entries.push_back(
      {run_tag_of(id) + "-p" + std::to_string(seq++) + "-v0", "p", 0});
  return m;
}

void record(batch_state_journal& j, batch_mark m) {
  caf::error got = make_error(errc::io_failed, "not called");
  j.record(std::move(m), [&](caf::error e) { got = std::move(e); });
  REQUIRE(!got);
}

} // namespace

TEST_CASE(
  "batch_state_journal: marks read back per run, open ones, after a reopen") {
  temp_dir dir;
  auto path = dir.file("state.sqlite");
  {
    auto j = batch_state_journal::open(path);
    REQUIRE(j);
    record(**j, mark_of(batch_step::pending, "k1", {"run-a"}));
    record(**j, mark_of(batch_step::submitted, "k1", {"run-a"}));
    record(**j, mark_of(batch_step::pending, "k2", {"run-a", "run-b"}));
    record(**j, mark_of(batch_step::ended, "k1", {"run-a"}));
  }
  auto j = batch_state_journal::open(path);
  REQUIRE(j);
  auto a = (*j)->marks_of("run-a");
  REQUIRE(a);
  REQUIRE(a->size() == 4);
  CHECK((*a)[1].step == batch_step::submitted);
  CHECK((*a)[1].batch_id == "batch_k1");
  CHECK((*a)[0].entries.front().custom_id == run_tag_of("run-a") + "-p1-v0");
  auto open_a = (*j)->open_marks_of("run-a");
  REQUIRE(open_a);
  REQUIRE(open_a->size() == 1);
  CHECK(open_a->front().key == "k2");
  auto b = (*j)->open_marks_of("run-b");
  REQUIRE(b);
  REQUIRE(b->size() == 1);
  CHECK(b->front().entries.size() == 2);
  auto none = (*j)->marks_of("run-c");
  REQUIRE(none);
  CHECK(none->empty());
}
