// The vote coordinator's scheduling (core/voting/vote_schedule.hpp): which
// worker takes a vote, credits and demand, deadlines and the timer, moved
// votes, the wait for any worker, budgets.
#include <catch2/catch.hpp>

#include "core/voting/vote_schedule.hpp"

using namespace ij;
using namespace std::chrono_literals;

namespace {

const schedule_time t0{};

judge_request vote(std::uint32_t index) {
  judge_request r;
  r.pair_id = "p";
  r.vote_index = index;
  return r;
}

// Each worker's link is a number here (the actor's is its handle).
using test_schedule = linked_vote_schedule<int>;

test_schedule
schedule(std::unordered_map<std::string, budget_meter> budgets = {}) {
  return test_schedule{100ms, 1000ms, std::move(budgets)};
}

} // namespace

TEST_CASE("a worker's link is kept with it, at the index the schedule gave") {
  auto s = schedule();
  auto a = s.add_worker("x", 1, 7);
  auto b = s.add_worker("y", 2, 9);
  CHECK(s.workers() == 2);
  CHECK(s.link(a) == 7);
  CHECK(s.link(b) == 9);
  CHECK(s.worker(b).judge_id == "y");
  CHECK(s.worker(b).capacity == 2);
  s.link(a) = 8;
  CHECK(s.link(a) == 8);
  CHECK(s.worker(a).judge_id == "x");
}

TEST_CASE("a waiting vote goes to a worker with a credit and the fewest calls "
          "outstanding") {
  auto s = schedule();
  auto a = s.add_worker("x", 4);
  auto b = s.add_worker("x", 4);
  CHECK_FALSE(s.pick_for_waiting()); // no credit yet
  s.grant(a, 2, 4);
  s.grant(b, 2, 4);
  s.sent(1, a, vote(0), 0, t0);
  CHECK(s.pick_for_waiting() == b);
  s.sent(1, b, vote(1), 0, t0);
  // Ties go round-robin: after b, a comes first.
  CHECK(s.pick_for_waiting() == a);
  CHECK(s.pick_for_waiting() == b);
  s.worker(b).alive = false;
  CHECK(s.pick_for_waiting() == a);
  CHECK(s.worker(a).credits == 1);
  CHECK(s.worker(a).outstanding == 1);
}

TEST_CASE(
  "a judge at its budget gets no waiting vote, all at budget names one") {
  judge_budget limit;
  limit.max_calls = 1;
  std::unordered_map<std::string, budget_meter> budgets;
  budgets.emplace("x", budget_meter{limit, {}});
  auto s = schedule(std::move(budgets));
  auto a = s.add_worker("x", 1);
  auto b = s.add_worker("y", 1);
  s.grant(a, 1, 1);
  CHECK_FALSE(s.all_at_budget());
  s.meter("x")->count_call();
  CHECK(s.at_budget(a));
  CHECK_FALSE(s.pick_for_waiting());
  CHECK_FALSE(s.all_at_budget()); // y may still be called
  s.worker(b).alive = false;
  CHECK(s.all_at_budget() == a);
  CHECK(s.meter("y") == nullptr);
}

TEST_CASE("an answered vote gives its job, an unknown token is a late reply") {
  auto s = schedule();
  auto a = s.add_worker("x", 2);
  s.grant(a, 2, 2);
  auto t1 = s.sent(7, a, vote(0), 0, t0);
  auto t2 = s.sent(7, a, vote(1), 0, t0);
  CHECK(t1 != t2);
  CHECK(s.outstanding(t1));
  CHECK(s.answered(t1, a, false) == 7u);
  CHECK_FALSE(s.outstanding(t1));
  CHECK_FALSE(s.answered(t1, a, false)); // answered once
  CHECK(s.answered(t2, a, true) == 7u);
  CHECK(s.worker(a).served == 2);
  CHECK(s.worker(a).faults == 1);
  CHECK(s.worker(a).outstanding == 0);
}

TEST_CASE("votes expire in send order once their deadline passed") {
  auto s = schedule();
  auto a = s.add_worker("x", 3);
  s.grant(a, 3, 3);
  auto t1 = s.sent(1, a, vote(0), 0, t0);
  auto t2 = s.sent(2, a, vote(0), 0, t0 + 50ms);
  s.sent(3, a, vote(0), 0, t0 + 80ms);
  CHECK(s.next_due() == t0 + 100ms);
  CHECK_FALSE(s.next_expired(t0 + 99ms));
  s.answered(t1, a, false);
  CHECK(s.next_due() == t0 + 150ms);
  auto late = s.next_expired(t0 + 160ms);
  REQUIRE(late);
  CHECK(late->token == t2);
  CHECK(late->seq == 2);
  CHECK_FALSE(s.next_expired(t0 + 160ms)); // the third is due at 180 ms
  CHECK(s.worker(a).outstanding == 1);
  CHECK(s.next_expired(t0 + 180ms));
  CHECK_FALSE(s.next_due());
}

TEST_CASE("the one timer is armed for the earliest due, again only when "
          "something is due sooner") {
  auto s = schedule();
  auto a = s.add_worker("x", 2);
  s.grant(a, 2, 2);
  CHECK_FALSE(s.timer_to_arm()); // nothing due
  s.sent(1, a, vote(0), 0, t0 + 50ms);
  CHECK(s.timer_to_arm() == t0 + 150ms);
  CHECK_FALSE(s.timer_to_arm()); // on its way
  s.timer_fired(t0 + 150ms);
  CHECK(s.timer_to_arm() == t0 + 150ms);
  // Something due sooner than the armed timer arms it again.
  auto b = s.add_worker("x", 1);
  s.grant(b, 1, 1);
  s.worker(a).alive = false;
  s.worker(b).alive = false;
  s.wait(2, 1);
  s.track_starvation(t0 - 950ms); // due at 50 ms
  CHECK(s.timer_to_arm() == t0 + 50ms);
}

TEST_CASE("demand is the votes waiting beyond the credits held, unneeded "
          "credits go back") {
  auto s = schedule();
  auto a = s.add_worker("x", 4);
  s.wait(1, 3);
  CHECK(s.wanted() == 3);
  CHECK(s.demand_change(a, 3) == 3u);
  CHECK_FALSE(s.demand_change(a, 3)); // told already
  s.grant(a, 2, 4);
  CHECK(s.wanted() == 1);
  // The worker counted its copy of the demand down by the credits granted.
  CHECK(s.worker(a).announced == 1);
  CHECK(s.unneeded_credits(a) == 0); // votes wait
  s.take_waiting();
  s.take_waiting();
  s.take_waiting();
  CHECK(s.backlog_empty());
  CHECK(s.unneeded_credits(a) == 2);
  CHECK(s.worker(a).credits == 0);
  auto gone = s.let_go(a);
  CHECK(gone.credits == 0);
  CHECK(gone.zero_demand);
  CHECK(s.worker(a).announced == 0);
}

TEST_CASE("a lost worker's votes move to a worker of the same judge, or wait "
          "the failover wait") {
  auto s = schedule();
  auto a = s.add_worker("x", 2);
  auto b = s.add_worker("y", 2);
  s.grant(a, 2, 2);
  s.sent(1, a, vote(0), 0, t0);
  s.sent(2, a, vote(1), 0, t0);
  s.worker(a).alive = false;
  auto lost = s.take_outstanding(a);
  REQUIRE(lost.size() == 2);
  CHECK(lost[0].seq == 1); // oldest first
  CHECK(s.worker(a).outstanding == 0);
  for (auto& p : lost)
    s.move(std::move(p), "x", t0 + 10ms);
  CHECK(s.wants_moved("x"));
  CHECK_FALSE(s.wants_moved("y"));
  CHECK(s.wanted() == 2);
  // A worker of another judge never takes them.
  s.grant(b, 2, 2);
  int placed = 0;
  s.place_moved([&](moved_vote&, std::size_t) { ++placed; });
  CHECK(placed == 0);
  // A worker of their judge takes one per credit.
  auto c = s.add_worker("x", 1);
  s.grant(c, 1, 1);
  s.place_moved([&](moved_vote& m, std::size_t wi) {
    CHECK(wi == c);
    CHECK(m.meta.vote_index == 0);
    s.sent(m.seq, wi, std::move(m.meta), 0, t0 + 20ms);
    ++placed;
  });
  CHECK(placed == 1);
  CHECK_FALSE(s.next_moved_expired(t0 + 1009ms));
  auto expired = s.next_moved_expired(t0 + 1010ms);
  REQUIRE(expired);
  CHECK(expired->seq == 2);
  CHECK(expired->judge_id == "x");
  CHECK_FALSE(s.wants_moved("x"));
}

TEST_CASE("votes that wait with no worker alive wait the failover wait once") {
  auto s = schedule();
  auto a = s.add_worker("x", 1);
  s.wait(1, 1);
  s.track_starvation(t0);
  CHECK_FALSE(s.next_due()); // a worker is alive
  s.worker(a).alive = false;
  s.track_starvation(t0 + 5ms);
  s.track_starvation(t0 + 50ms); // still from 5 ms
  CHECK(s.next_due() == t0 + 1005ms);
  CHECK_FALSE(s.starvation_over(t0 + 1004ms));
  CHECK(s.starvation_over(t0 + 1005ms));
  CHECK_FALSE(s.starvation_over(t0 + 2000ms)); // afresh
  s.rejoin(a, "x");
  s.track_starvation(t0 + 2000ms);
  CHECK_FALSE(s.next_due());
}

TEST_CASE("a cleared schedule holds no vote, its workers stay") {
  auto s = schedule();
  auto a = s.add_worker("x", 1);
  s.grant(a, 1, 1);
  s.sent(1, a, vote(0), 0, t0);
  s.wait(2, 2);
  s.clear();
  CHECK(s.backlog_empty());
  CHECK_FALSE(s.next_due());
  CHECK(s.workers() == 1);
  CHECK(s.wanted() == 0);
}

TEST_CASE(
  "a vote its worker queued has no deadline until it starts, then the whole "
  "deadline from then (issue 31)") {
  auto s = schedule();
  auto a = s.add_worker("x", 1);
  s.grant(a, 3, 1);
  auto first = s.sent(1, a, vote(0), 0, t0);
  auto second = s.sent(2, a, vote(0), 0, t0);
  auto third = s.sent(3, a, vote(0), 0, t0 + 10ms);
  s.hold(second, a);
  s.hold(third, a);
  CHECK(s.worker(a).queued == 2);
  CHECK(s.worker(a).outstanding == 3);
  // At 150 ms only the vote at the adapter is past its deadline; the queued
  // ones wait however long.
  auto expired = s.next_expired(t0 + 150ms);
  REQUIRE(expired);
  CHECK(expired->token == first);
  CHECK_FALSE(s.next_expired(t0 + 10s));
  CHECK(s.next_due() == std::nullopt);
  // The second starts at 10 s: due at 10.1 s, not at 100 ms.
  s.start(second, a, t0 + 10s);
  CHECK(s.worker(a).queued == 1);
  CHECK(s.next_due() == t0 + 10s + 100ms);
  CHECK_FALSE(s.next_expired(t0 + 10s + 99ms));
  auto late = s.next_expired(t0 + 10s + 100ms);
  REQUIRE(late);
  CHECK(late->token == second);
  // A start for another worker, or for a vote gone, changes nothing.
  s.start(third, a + 1, t0 + 20s);
  s.start(first, a, t0 + 20s);
  CHECK(s.worker(a).queued == 1);
  // The queued vote moves with the others when its worker is lost.
  auto taken = s.take_outstanding(a);
  REQUIRE(taken.size() == 1);
  CHECK(taken[0].token == third);
  CHECK(taken[0].queued);
  CHECK(s.worker(a).queued == 0);
  CHECK(s.worker(a).outstanding == 0);
}

TEST_CASE(
  "a queued vote answered without a word that it started leaves the queue "
  "count") {
  auto s = schedule();
  auto a = s.add_worker("x", 1);
  s.grant(a, 2, 1);
  s.sent(1, a, vote(0), 0, t0);
  auto queued = s.sent(2, a, vote(1), 0, t0);
  s.hold(queued, a);
  CHECK(s.answered(queued, a, true) == std::optional<std::uint64_t>{2});
  CHECK(s.worker(a).queued == 0);
  CHECK(s.worker(a).outstanding == 1);
}
