// The pipeline as production runs it: CAF's work-stealing scheduler and the
// audit logger detached on its own thread. Waits use request timeouts only
// as a guard against a hang; nothing asserts on time.
#include <catch2/catch.hpp>

#include <chrono>
#include <memory>

#include <caf/scoped_actor.hpp>

#include "actors/pipeline_settings.hpp"
#include "adapters/stub_judges.hpp"
#include "core/audit_chain.hpp"
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

constexpr auto guard = std::chrono::seconds(60);

} // namespace

TEST_CASE("a detached logger on real threads writes a chain that verifies") {
  threaded_config cfg;
  caf::actor_system sys{cfg};
  auto path = temp_audit_path("threads");
  pipeline_settings s;
  for (auto adapter : {numeric_judge(), always_equivalent_judge()}) {
    judge_binding b;
    b.spec.type = "stub";
    b.spec.model = "numeric";
    b.spec.seed = 1;
    b.adapter = adapter;
    s.judges.push_back(b);
  }
  s.votes = {3, 2};
  s.audit_path = path;
  s.stats.min_decided = 1;
  auto sink = std::make_shared<std::vector<statistical_verdict>>();
  s.listener = sys.spawn(
    [sink](caf::event_based_actor*, int) -> caf::behavior {
      return {[sink](statistical_verdict& v) { sink->push_back(v); }};
    },
    0);
  REQUIRE(s.detached_logger);
  auto spawned = spawn_pipeline(sys, s);
  REQUIRE(spawned);
  auto p = *spawned;
  caf::scoped_actor self{sys};
  bool ok = false;
  self->request(p, guard, start_atom::value)
    .receive([&](std::uint64_t seq) { ok = seq == 1; },
             [&](caf::error&) { ok = false; });
  REQUIRE(ok);
  constexpr int n = 200;
  for (int i = 0; i < n; ++i) {
    answer_pair pair;
    pair.id = "p" + std::to_string(i);
    pair.item = "item" + std::to_string(i % 10);
    pair.a = "The answer is " + std::to_string(i % 7) + ".";
    pair.b = std::to_string(i % 7);
    self->send(p, std::move(pair));
  }
  int verdicts = 0;
  int errors = 0;
  self->receive_for(verdicts, n)(
    [&](single_verdict& v) {
      if (v.rule != verdict_rule::i4)
        ++errors;
    },
    [&](caf::error&) { ++errors; }, caf::after(guard) >> [&] { ++errors; });
  CHECK(verdicts == n);
  CHECK(errors == 0);
  for (int i = 0; i < 10; ++i)
    self->send(p, item_total_atom::value, "item" + std::to_string(i),
               std::uint32_t{n / 10});
  run_summary summary;
  self->request(p, guard, finish_atom::value, false)
    .receive([&](run_summary& x) { summary = x; },
             [&](caf::error&) { ++errors; });
  CHECK(errors == 0);
  CHECK(summary.pairs == n);
  CHECK(summary.items == 10);
  CHECK(summary.by_rule[3] == n);
  auto check = verify_audit_file(path);
  CHECK(check.status == audit_status::ok);
  CHECK(check.lines == summary.audit_lines);
  self->send_exit(s.listener, caf::exit_reason::user_shutdown);
}
