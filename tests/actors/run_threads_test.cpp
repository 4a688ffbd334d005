// A run as production runs it: CAF's work-stealing scheduler, the audit
// logger detached on its own thread, the driver's run client on this thread.
// Waits only guard against a hang; nothing asserts on time.
#include <chrono>
#include <memory>

#include <caf/scoped_actor.hpp>
#include <catch2/catch.hpp>

#include "actors/judge_directory.hpp"
#include "actors/local_workers.hpp"
#include "actors/run_client.hpp"
#include "actors/run_session.hpp"
#include "adapters/stub_judges.hpp"
#include "core/audit/audit_chain.hpp"
#include "messages/registration.hpp"
#include "test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

struct threaded_config : caf::actor_system_config {
  threaded_config() {
    ij::add_message_types(*this);
    set("scheduler.max-threads", std::size_t{2});
  }
};

} // namespace

TEST_CASE("a run on real threads with a detached logger writes a chain that "
          "verifies") {
  threaded_config cfg;
  caf::actor_system sys{cfg};
  auto path = temp_audit_path("threads");
  auto dir = spawn_judge_directory(sys);
  std::vector<judge_binding> judges;
  for (auto adapter : {numeric_judge(), always_equivalent_judge()}) {
    judge_binding b;
    b.spec.name = adapter->id();
    b.spec.type = "stub";
    b.spec.model = adapter->id() == "stub:numeric" ? "numeric" : "equivalent";
    b.spec.seed = 1;
    b.adapter = adapter;
    judges.push_back(b);
  }
  run_setup setup;
  for (auto& j : judges)
    setup.config.judges.push_back(j.spec);
  REQUIRE(start_local_workers(sys, dir, judges));
  setup.config.votes = {3, 2};
  setup.config.stats.min_decided = 1;
  setup.audit_path = path;
  setup.directory = dir;
  caf::scoped_actor self{sys};
  setup.listener = as_listener(self);
  REQUIRE(setup.detached_logger);
  auto run = spawn_run(sys, setup);
  REQUIRE(run);
  constexpr int n = 200;
  int sent = 0;
  batch_source source = [&](input_batch& b) -> caf::expected<input_state> {
    for (int k = 0; k < 16 && sent < n; ++k, ++sent) {
      answer_pair pair;
      pair.id = "p" + std::to_string(sent);
      pair.item = "item" + std::to_string(sent % 10);
      pair.a = "The answer is " + std::to_string(sent % 7) + ".";
      pair.b = std::to_string(sent % 7);
      b.pairs.push_back(std::move(pair));
    }
    return sent == n ? input_state::end : input_state::more;
  };
  int verdicts = 0, errors = 0, items = 0;
  run_event_handlers on;
  on.verdicts = [&](std::vector<single_verdict>& vs) {
    for (auto& v : vs) {
      ++verdicts;
      if (v.rule != verdict_rule::i4)
        ++errors;
    }
  };
  on.items = [&](std::vector<statistical_verdict>& vs) { items += vs.size(); };
  auto out = drive_run(self, *run, source, on);
  REQUIRE(out.ended);
  CHECK(out.failures.empty());
  CHECK(verdicts == n);
  CHECK(errors == 0);
  CHECK(items == 10);
  auto& summary = out.summary;
  CHECK(summary.error.empty());
  CHECK(summary.pairs == n);
  CHECK(summary.items == 10);
  CHECK(summary.by_rule[3] == n);
  auto check = verify_audit_file(path);
  CHECK(check.status == audit_status::ok);
  CHECK(check.lines == summary.audit_lines);
  self->send_exit(dir, caf::exit_reason::user_shutdown);
}
