// Judges as shared services: several runs in one actor system use one judge
// worker at once, each with its own audit, fairly, within its capacity.
#include <algorithm>
#include <memory>

#include <catch2/catch.hpp>

#include "actors/judge_directory.hpp"
#include "actors/judge_worker.hpp"
#include "actors/run_session.hpp"
#include "adapters/stub_judges.hpp"
#include "core/audit/audit_chain.hpp"
#include "test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

std::vector<answer_pair> pairs_for(const std::string& prefix, int n) {
  std::vector<answer_pair> out;
  for (int i = 0; i < n; ++i) {
    answer_pair p;
    p.id = prefix + std::to_string(i);
    p.item = prefix + "item" + std::to_string(i % 3);
    p.a = "The answer is " + std::to_string(i % 5) + ".";
    p.b = std::to_string(i % 4);
    out.push_back(std::move(p));
  }
  return out;
}

judge_binding numeric_binding(judge_adapter_ptr adapter, std::uint32_t cap) {
  judge_binding b;
  b.spec.name = "shared";
  b.spec.type = "stub";
  b.spec.model = "numeric";
  b.spec.max_in_flight = cap;
  b.adapter = std::move(adapter);
  return b;
}

run_setup setup_for(const judge_binding& b, judge_directory_actor dir,
                    const std::string& path, run_listener_actor listener) {
  run_setup s;
  s.config.judges = {b.spec};
  s.config.votes = {3, 2};
  s.audit_path = path;
  s.directory = dir;
  s.listener = listener;
  s.detached_logger = false;
  return s;
}

std::vector<std::string> verdict_lines(const run_events& got) {
  std::vector<std::string> out;
  for (auto& v : got.verdicts)
    out.push_back(v.pair_id + " " + std::string{to_string(v.rule)} + " "
                  + std::to_string(v.counts.equivalent) + "/"
                  + std::to_string(v.counts.different));
  std::sort(out.begin(), out.end());
  return out;
}

/// The verdicts of a run of `pairs` alone on its own worker.
std::vector<std::string> alone(const std::vector<answer_pair>& pairs,
                               const std::string& tag) {
  test_system t;
  auto dir = spawn_judge_directory(t.sys);
  auto w = spawn_judge_worker(t.sys, numeric_binding(numeric_judge(), 4),
                              "solo@local");
  caf::anon_send(dir, join_atom::value, w);
  t.run();
  event_collector ev{t.sys};
  auto path = temp_audit_path(tag);
  auto run = spawn_run(
    t.sys, setup_for(numeric_binding(numeric_judge(), 4), dir, path, ev.actor));
  REQUIRE(run);
  caf::anon_send(*run, input_batch{pairs, {}});
  caf::anon_send(*run, end_of_input_atom::value);
  t.run();
  REQUIRE(ev.got->summary);
  CHECK(verify_audit_file(path).status == audit_status::ok);
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(dir, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(ev.actor, caf::exit_reason::user_shutdown);
  return verdict_lines(*ev.got);
}

} // namespace

TEST_CASE("two runs share one judge worker at once, each with its own audit, "
          "and decide as each would alone") {
  auto first = pairs_for("a", 60);
  auto second = pairs_for("b", 25);
  auto first_alone = alone(first, "alone-a");
  auto second_alone = alone(second, "alone-b");

  test_system t;
  auto dir = spawn_judge_directory(t.sys);
  auto binding = numeric_binding(numeric_judge(), 4);
  auto worker = spawn_judge_worker(t.sys, binding, "shared#1@local");
  caf::anon_send(dir, join_atom::value, worker);
  t.run();
  event_collector ev1{t.sys}, ev2{t.sys};
  auto path1 = temp_audit_path("shared-1");
  auto path2 = temp_audit_path("shared-2");
  auto r1 = spawn_run(t.sys, setup_for(binding, dir, path1, ev1.actor));
  auto r2 = spawn_run(t.sys, setup_for(binding, dir, path2, ev2.actor));
  REQUIRE(r1);
  REQUIRE(r2);
  // Interleaved input: both runs are in flight at the worker together.
  for (std::size_t i = 0; i < first.size(); i += 10) {
    auto end = std::min(first.size(), i + 10);
    caf::anon_send(*r1,
                   input_batch{{first.begin() + i, first.begin() + end}, {}});
    if (i < second.size()) {
      auto end2 = std::min(second.size(), i + 10);
      caf::anon_send(
        *r2, input_batch{{second.begin() + i, second.begin() + end2}, {}});
    }
  }
  caf::anon_send(*r1, end_of_input_atom::value);
  caf::anon_send(*r2, end_of_input_atom::value);
  t.run();
  REQUIRE(ev1.got->summary);
  REQUIRE(ev2.got->summary);
  CHECK(ev1.got->summary->pairs == first.size());
  CHECK(ev2.got->summary->pairs == second.size());
  CHECK(verify_audit_file(path1).status == audit_status::ok);
  CHECK(verify_audit_file(path2).status == audit_status::ok);
  CHECK(read_file(path1).find("\"pair_id\":\"b") == std::string::npos);
  CHECK(read_file(path2).find("\"pair_id\":\"a") == std::string::npos);
  CHECK(verdict_lines(*ev1.got) == first_alone);
  CHECK(verdict_lines(*ev2.got) == second_alone);
  auto status = ask<worker_status>(t.sys, worker, status_atom::value);
  t.run();
  REQUIRE(status->value);
  CHECK(status->value->calls
        == ev1.got->summary->judge_calls + ev2.got->summary->judge_calls);
  for (auto& a : std::vector<caf::actor>{
         caf::actor_cast<caf::actor>(worker), caf::actor_cast<caf::actor>(dir),
         caf::actor_cast<caf::actor>(ev1.actor),
         caf::actor_cast<caf::actor>(ev2.actor)})
    caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
}

TEST_CASE("a worker of capacity 2 shared by two runs never has more than 2 "
          "calls in flight, and neither run starves the other") {
  test_system t;
  auto dir = spawn_judge_directory(t.sys);
  auto manual = std::make_shared<manual_adapter>();
  auto binding = numeric_binding(manual, 2);
  auto worker = spawn_judge_worker(t.sys, binding, "shared#1@local");
  caf::anon_send(dir, join_atom::value, worker);
  t.run();
  event_collector big{t.sys}, small{t.sys};
  auto big_run = spawn_run(
    t.sys, setup_for(binding, dir, temp_audit_path("starve-big"), big.actor));
  auto small_run =
    spawn_run(t.sys, setup_for(binding, dir, temp_audit_path("starve-small"),
                               small.actor));
  REQUIRE(big_run);
  REQUIRE(small_run);
  // The big run queues many votes first; the small one arrives after.
  caf::anon_send(*big_run, input_batch{pairs_for("big", 100), {}});
  t.run();
  caf::anon_send(*small_run, input_batch{pairs_for("small", 5), {}});
  caf::anon_send(*small_run, end_of_input_atom::value);
  t.run();
  std::size_t calls = 0;
  std::size_t calls_when_small_done = 0;
  while (manual->complete_next(canonical("EQUIVALENT"))) {
    ++calls;
    t.run();
    CHECK(manual->open() <= 2);
    if (small.got->summary && calls_when_small_done == 0)
      calls_when_small_done = calls;
  }
  CHECK(manual->peak_open() == 2);
  // The small run's 5 pairs need 10 calls (votes 3, k 2, all agreeing); with
  // turns taken in order it is done after about twice that many calls in
  // all, not after the big run's 200.
  REQUIRE(small.got->summary);
  CHECK(small.got->summary->pairs == 5);
  CHECK(calls_when_small_done > 0);
  CHECK(calls_when_small_done <= 2 * 10 + 4);
  caf::anon_send(*big_run, end_of_input_atom::value);
  t.run();
  REQUIRE(big.got->summary);
  CHECK(big.got->summary->pairs == 100);
  for (auto& a : std::vector<caf::actor>{
         caf::actor_cast<caf::actor>(worker), caf::actor_cast<caf::actor>(dir),
         caf::actor_cast<caf::actor>(big.actor),
         caf::actor_cast<caf::actor>(small.actor)})
    caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
}
