// The judge directory: workers join, are listed, and leave when they end;
// subscribers hear of both (SPEC §10).
#include <memory>

#include <catch2/catch.hpp>

#include "actors/judge_directory.hpp"
#include "actors/judge_worker.hpp"
#include "adapters/stub_judges.hpp"
#include "messages/error.hpp"
#include "test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

/// A subscriber recording what it hears.
struct listener {
  struct heard {
    std::vector<std::string> joined;
    std::vector<std::pair<std::string, std::string>> left;
    std::vector<host_event> hosts;
  };
  std::shared_ptr<heard> got = std::make_shared<heard>();
  directory_listener_actor actor;

  explicit listener(caf::actor_system& sys) {
    auto out = got;
    actor = sys.spawn(
      [out](directory_listener_actor::pointer,
            int) -> directory_listener_actor::behavior_type {
        return {
          [out](joined_atom, worker_entry& e) {
            out->joined.push_back(e.info.worker_id);
          },
          [out](left_atom, std::string& id, std::string& why) {
            out->left.emplace_back(id, why);
          },
          [out](host_event& e) { out->hosts.push_back(std::move(e)); },
        };
      },
      0);
  }
};

} // namespace

TEST_CASE("workers join the directory, are listed, and subscribers hear of "
          "joins and leaves") {
  test_system t;
  auto dir = spawn_judge_directory(t.sys);
  auto w1 = spawn_judge_worker(t.sys, test_binding(numeric_judge()), "a@local");
  auto joined = ask<judge_info>(t.sys, dir, join_atom::value, w1);
  t.run();
  REQUIRE(joined->value);
  CHECK(joined->value->worker_id == "a@local");
  listener l{t.sys};
  auto now =
    ask<std::vector<worker_entry>>(t.sys, dir, subscribe_atom::value, l.actor);
  t.run();
  REQUIRE(now->value);
  REQUIRE(now->value->size() == 1);
  CHECK(now->value->at(0).worker == w1);
  auto w2 = spawn_judge_worker(t.sys, test_binding(numeric_judge()), "b@local");
  caf::anon_send(dir, join_atom::value, w2);
  t.run();
  CHECK(l.got->joined == std::vector<std::string>{"b@local"});
  auto list = ask<std::vector<worker_entry>>(t.sys, dir, list_atom::value);
  t.run();
  REQUIRE(list->value);
  REQUIRE(list->value->size() == 2);
  CHECK(list->value->at(0).info.worker_id == "a@local");
  CHECK(list->value->at(1).info.worker_id == "b@local");
  // A worker that ends leaves, with the reason.
  caf::anon_send_exit(w1, caf::exit_reason::user_shutdown);
  t.run();
  REQUIRE(l.got->left.size() == 1);
  CHECK(l.got->left[0].first == "a@local");
  CHECK(l.got->left[0].second.find("the worker ended") != std::string::npos);
  auto after = ask<std::vector<worker_entry>>(t.sys, dir, list_atom::value);
  t.run();
  REQUIRE(after->value);
  CHECK(after->value->size() == 1);
  caf::anon_send_exit(w2, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(l.actor, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(dir, caf::exit_reason::user_shutdown);
}

TEST_CASE("the directory ends the workers of its node it knows, and they "
          "leave") {
  test_system t;
  auto dir = spawn_judge_directory(t.sys);
  auto w1 = spawn_judge_worker(t.sys, test_binding(numeric_judge()), "a@local");
  auto w2 = spawn_judge_worker(t.sys, test_binding(numeric_judge()), "b@local");
  caf::anon_send(dir, join_atom::value, w1);
  caf::anon_send(dir, join_atom::value, w2);
  t.run();
  auto ended = ask<std::uint32_t>(t.sys, dir, shutdown_atom::value);
  t.run();
  REQUIRE(ended->value);
  CHECK(*ended->value == 2);
  auto after = ask<std::vector<worker_entry>>(t.sys, dir, list_atom::value);
  t.run();
  REQUIRE(after->value);
  CHECK(after->value->empty());
  caf::anon_send_exit(dir, caf::exit_reason::user_shutdown);
}

TEST_CASE("a worker id taken by another worker is refused, joining twice is "
          "harmless") {
  test_system t;
  auto dir = spawn_judge_directory(t.sys);
  auto w1 =
    spawn_judge_worker(t.sys, test_binding(numeric_judge()), "same@local");
  auto w2 =
    spawn_judge_worker(t.sys, test_binding(numeric_judge()), "same@local");
  auto first = ask<judge_info>(t.sys, dir, join_atom::value, w1);
  auto again = ask<judge_info>(t.sys, dir, join_atom::value, w1);
  auto clash = ask<judge_info>(t.sys, dir, join_atom::value, w2);
  t.run();
  CHECK(first->value);
  CHECK(again->value);
  REQUIRE(clash->done);
  CHECK_FALSE(clash->value);
  CHECK(render_error(clash->error).find("is taken") != std::string::npos);
  for (auto& w : {w1, w2})
    caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(dir, caf::exit_reason::user_shutdown);
}

TEST_CASE("a subscriber that ends is forgotten") {
  test_system t;
  auto dir = spawn_judge_directory(t.sys);
  listener l{t.sys};
  caf::anon_send(dir, subscribe_atom::value, l.actor);
  t.run();
  caf::anon_send_exit(l.actor, caf::exit_reason::user_shutdown);
  t.run();
  auto w = spawn_judge_worker(t.sys, test_binding(numeric_judge()), "x@local");
  auto joined = ask<judge_info>(t.sys, dir, join_atom::value, w);
  t.run();
  CHECK(joined->value);
  CHECK(l.got->joined.empty());
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(dir, caf::exit_reason::user_shutdown);
}

TEST_CASE("a worker of a lost host leaves although its actor lives on, joins "
          "again when the host rejoins, and host events reach subscribers") {
  test_system t;
  auto dir = spawn_judge_directory(t.sys);
  listener l{t.sys};
  caf::anon_send(dir, subscribe_atom::value, l.actor);
  auto w = spawn_judge_worker(t.sys, test_binding(numeric_judge()),
                              "h#1@10.0.0.1:7000", "10.0.0.1:7000");
  caf::anon_send(dir, join_atom::value, w);
  t.run();
  caf::anon_send(dir, leave_atom::value, std::string{"h#1@10.0.0.1:7000"},
                 std::string{"host 10.0.0.1:7000 lost: no answer"});
  caf::anon_send(dir, leave_atom::value, std::string{"unknown"},
                 std::string{"ignored"});
  t.run();
  REQUIRE(l.got->left.size() == 1);
  CHECK(l.got->left[0].second == "host 10.0.0.1:7000 lost: no answer");
  auto list = ask<std::vector<worker_entry>>(t.sys, dir, list_atom::value);
  t.run();
  REQUIRE(list->value);
  CHECK(list->value->empty());
  // The same actor joins again (the host came back).
  auto again = ask<judge_info>(t.sys, dir, join_atom::value, w);
  t.run();
  CHECK(again->value);
  CHECK(l.got->joined
        == std::vector<std::string>{"h#1@10.0.0.1:7000", "h#1@10.0.0.1:7000"});
  host_event e;
  e.host = "10.0.0.1:7000";
  e.kind = host_event_kind::rejoined;
  caf::anon_send(dir, e);
  t.run();
  REQUIRE(l.got->hosts.size() == 1);
  CHECK(l.got->hosts[0] == e);
  // It ends now: it leaves once, not twice.
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
  t.run();
  CHECK(l.got->left.size() == 2);
  caf::anon_send_exit(l.actor, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(dir, caf::exit_reason::user_shutdown);
}
