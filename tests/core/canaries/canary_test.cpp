// The canary set, its placement (deterministic by seed) and the bias alarm's
// sequential test, with judges simulated by their decision rule: the alarm
// fires within 30 canaries for an always-EQUIVALENT and an always-DIFFERENT
// judge, whatever the seed, and never for a judge that answers the canaries
// right, over a 100,000-pair run. (tests/adapters/canary_judges_test.cpp
// runs the real stub judges on the same set.)
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include <catch2/catch.hpp>

#include "core/canaries/bias_alarm.hpp"
#include "core/canaries/canary_plan.hpp"
#include "core/canaries/canary_set.hpp"
#include "core/numbers/answer.hpp"

using namespace ij;
using d = judge_decision;

namespace {

/// Runs `positions` real pairs through the plan with one judge deciding each
/// canary by `decide`; returns the number of canaries judged when the alarm
/// first fired (nullopt: never) and the canaries placed.
struct simulation {
  std::optional<std::uint64_t> fired_at;
  std::uint64_t canaries = 0;
  std::optional<alarm_evidence> evidence;
};

simulation
simulate(const canary_plan& plan, std::uint64_t positions,
         const std::function<judge_decision(const control_pair&)>& decide,
         bool stop_at_alarm = false, alarm_params params = {}) {
  bias_alarm alarm{params};
  simulation out;
  for (std::uint64_t i = 0; i < positions; ++i) {
    if (!plan.canary_before(i))
      continue;
    const auto& c = plan.canary(out.canaries++);
    auto failed = canary_failed(c.kind, {decide(c)});
    REQUIRE(failed);
    if (auto ev = alarm.observe("judge", c.kind, *failed);
        ev && !out.fired_at) {
      out.fired_at = out.canaries;
      out.evidence = ev;
      if (stop_at_alarm)
        break;
    }
  }
  return out;
}

judge_decision always_equivalent(const control_pair&) {
  return d::equivalent;
}
judge_decision always_different(const control_pair&) {
  return d::different;
}
// A judge that answers every canary right (what the rule judges do; the
// adapters test shows they do).
judge_decision right(const control_pair& c) {
  return c.kind == control_kind::identity   ? d::equivalent
         : c.kind == control_kind::mismatch ? d::different
                                            : d::abstain;
}

} // namespace

TEST_CASE("canary set: the negative controls with both answers present, every "
          "kind") {
  std::map<control_kind, int> n;
  for (auto& c : canary_set()) {
    CHECK_FALSE(is_absent(c.a));
    CHECK_FALSE(is_absent(c.b));
    ++n[c.kind];
  }
  CHECK(n[control_kind::identity] >= 10);
  CHECK(n[control_kind::mismatch] >= 10);
  CHECK(n[control_kind::abstain] >= 5);
  CHECK(n[control_kind::master_key] >= 10);
  CHECK(n[control_kind::planted] >= 10);
  std::size_t absent = 0;
  for (auto& c : negative_controls())
    absent += is_absent(c.a) || is_absent(c.b);
  CHECK(canary_set().size() + absent == negative_controls().size());
}

TEST_CASE(
  "canary failures: what leans, by kind, parse errors are no evidence") {
  using k = control_kind;
  CHECK(decision_fails(k::identity, d::different) == true);
  CHECK(decision_fails(k::identity, d::abstain) == true);
  CHECK(decision_fails(k::identity, d::equivalent) == false);
  CHECK(decision_fails(k::mismatch, d::equivalent) == true);
  CHECK(decision_fails(k::mismatch, d::abstain) == false);
  CHECK(decision_fails(k::master_key, d::equivalent) == true);
  CHECK(decision_fails(k::master_key, d::different) == false);
  CHECK(decision_fails(k::abstain, d::different) == true);
  CHECK(decision_fails(k::abstain, d::equivalent) == true);
  CHECK(decision_fails(k::abstain, d::abstain) == false);
  CHECK_FALSE(decision_fails(k::mismatch, d::parse_error));
  CHECK(failure_mode_of(k::master_key)
        == canary_failure_mode::false_equivalent);
  CHECK(failure_mode_of(k::abstain) == canary_failure_mode::decided_abstain);
  CHECK(failure_mode_of(k::identity) == canary_failure_mode::failed_identity);
  CHECK(to_string(canary_failure_mode::decided_abstain) == "decided_abstain");
  // One observation per judge and canary: the majority of readable votes.
  CHECK(canary_failed(k::mismatch, {d::equivalent, d::different, d::equivalent})
        == true);
  CHECK(canary_failed(k::mismatch, {d::equivalent, d::different}) == false);
  CHECK(canary_failed(k::mismatch, {d::equivalent, d::parse_error}) == true);
  CHECK_FALSE(canary_failed(k::mismatch, {d::parse_error}));
  CHECK_FALSE(canary_failed(k::mismatch, {}));
}

TEST_CASE("canary plan: positions and picks are fixed by the seed") {
  canary_plan a{0.1, 7}, b{0.1, 7}, c{0.1, 8};
  std::vector<std::uint64_t> pa, pb, pc;
  for (std::uint64_t i = 0; i < 5000; ++i) {
    if (a.canary_before(i))
      pa.push_back(i);
    if (b.canary_before(i))
      pb.push_back(i);
    if (c.canary_before(i))
      pc.push_back(i);
  }
  CHECK(pa == pb);
  CHECK(pa != pc);
  // The rate holds (5000 draws at 0.1: 500 expected, sd about 21).
  CHECK(pa.size() > 400);
  CHECK(pa.size() < 600);
  for (std::uint64_t k = 0; k < 200; ++k)
    CHECK(a.index(k) == b.index(k));
  bool differs = false;
  for (std::uint64_t k = 0; k < 50; ++k)
    differs = differs || a.index(k) != c.index(k);
  CHECK(differs);
  // Rate 0 places none, rate 1 one before every pair.
  canary_plan none{0.0, 7}, all{1.0, 7};
  for (std::uint64_t i = 0; i < 1000; ++i) {
    CHECK_FALSE(none.canary_before(i));
    CHECK(all.canary_before(i));
  }
}

TEST_CASE("canary plan: every four consecutive canaries test every kind, and "
          "every canary of the set comes up") {
  for (std::uint64_t seed : {0ull, 1ull, 42ull, 123456789ull}) {
    canary_plan plan{0.5, seed};
    std::set<std::size_t> seen;
    for (std::uint64_t k = 0; k + 4 <= 400; k += 4) {
      std::set<control_kind> kinds;
      for (std::uint64_t j = k; j < k + 4; ++j) {
        kinds.insert(plan.canary(j).kind);
        seen.insert(plan.index(j));
      }
      CHECK(kinds.size() == 4);
    }
    CHECK(seen.size() == canary_set().size());
  }
}

TEST_CASE("bias alarm: the SPRT's steps and thresholds, by hand") {
  alarm_params p; // 0.05, 0.5, 0.01, 0.01
  bias_alarm alarm{p};
  CHECK(alarm.upper() == Approx(std::log(0.99 / 0.01)));
  CHECK(alarm.lower() == Approx(std::log(0.01 / 0.99)));
  // A pass, then two failures on mismatch canaries: ln(0.5/0.95) + 2 ln(10)
  // = 3.96 < 4.595, no alarm; the third failure fires.
  CHECK_FALSE(alarm.observe("j", control_kind::mismatch, false));
  CHECK_FALSE(alarm.observe("j", control_kind::mismatch, true));
  CHECK_FALSE(alarm.observe("j", control_kind::master_key, true));
  // Failures in another mode do not add to this one.
  CHECK_FALSE(alarm.observe("j", control_kind::identity, true));
  auto ev = alarm.observe("j", control_kind::mismatch, true);
  REQUIRE(ev);
  CHECK(ev->judge == "j");
  CHECK(ev->mode == canary_failure_mode::false_equivalent);
  CHECK(ev->canaries == 5);
  CHECK(ev->stream.observations == 4);
  CHECK(ev->stream.failures == 3);
  CHECK(ev->stream.llr == Approx(std::log(0.5 / 0.95) + 3 * std::log(10.0)));
  CHECK(ev->upper == alarm.upper());
  // Once per judge and mode; counts go on.
  CHECK_FALSE(alarm.observe("j", control_kind::mismatch, true));
  REQUIRE(alarm.judges().size() == 1);
  CHECK(alarm.judges()[0].canaries == 6);
  CHECK(alarm.judges()[0].failed == 5);
  CHECK(alarm.judges()[0].alarmed);
  // The identity mode fires on its own second failure.
  auto id = alarm.observe("j", control_kind::identity, true);
  REQUIRE(id);
  CHECK(id->mode == canary_failure_mode::failed_identity);
  // Another judge has its own tests.
  CHECK_FALSE(alarm.observe("k", control_kind::identity, true));
}

TEST_CASE("bias alarm: passes restart the test at the lower threshold") {
  bias_alarm alarm{alarm_params{}};
  // Seven passes: 7 x -0.642 = -4.49 > -4.595; the eighth crosses.
  for (int i = 0; i < 7; ++i)
    alarm.observe("j", control_kind::identity, false);
  auto& s = alarm.judges()[0].streams[2];
  CHECK(s.restarts == 0);
  CHECK(s.cycle_observations == 7);
  alarm.observe("j", control_kind::identity, false);
  CHECK(s.restarts == 1);
  CHECK(s.llr == 0.0);
  CHECK(s.cycle_observations == 0);
  // A long good history banks nothing: two failures in a row still fire.
  for (int i = 0; i < 1000; ++i)
    alarm.observe("j", control_kind::identity, false);
  CHECK_FALSE(alarm.observe("j", control_kind::identity, true));
  CHECK(alarm.observe("j", control_kind::identity, true));
}

TEST_CASE("bias alarm: parameters are checked") {
  CHECK_FALSE(validate(alarm_params{}));
  CHECK(validate(alarm_params{0.5, 0.4, 0.01, 0.01}));
  CHECK(validate(alarm_params{0.0, 0.5, 0.01, 0.01}));
  CHECK(validate(alarm_params{0.05, 1.0, 0.01, 0.01}));
  CHECK(validate(alarm_params{0.05, 0.5, 0.0, 0.01}));
  CHECK(validate(alarm_params{0.05, 0.5, 0.01, 0.5}));
  CHECK_FALSE(validate(alarm_params{0.05, 0.5, 0.01, 0.01}));
}

TEST_CASE("bias alarm fires within 30 canaries for an always-EQUIVALENT and "
          "an always-DIFFERENT judge, whatever the seed and rate") {
  for (std::uint64_t seed = 0; seed < 200; ++seed)
    for (double rate : {0.01, 0.05, 0.2, 1.0}) {
      canary_plan plan{rate, seed};
      CAPTURE(seed, rate);
      auto eq = simulate(plan, 200000, always_equivalent, true);
      REQUIRE(eq.fired_at);
      CHECK(*eq.fired_at <= 30);
      auto diff = simulate(plan, 200000, always_different, true);
      REQUIRE(diff.fired_at);
      CHECK(*diff.fired_at <= 30);
      if (seed == 0 && rate == 1.0) {
        CHECK(eq.evidence->stream.failures == 2);
        CHECK(diff.evidence->stream.failures == 2);
      }
      // Five kinds in a round (issue 29 added planted verdicts): an
      // always-DIFFERENT judge fails two of every five canaries.
      if (*eq.fired_at > 10 || *diff.fired_at > 10)
        FAIL("slower than the round of kinds allows");
    }
}

TEST_CASE("bias alarm never fires for a judge that answers canaries right, on "
          "a 100,000-pair run") {
  for (std::uint64_t seed : {0ull, 1ull, 2ull, 99ull})
    for (double rate : {0.02, 0.2, 1.0}) {
      canary_plan plan{rate, seed};
      auto s = simulate(plan, 100000, right);
      CAPTURE(seed, rate);
      CHECK_FALSE(s.fired_at);
      CHECK(s.canaries > 0);
    }
}
