// Live canaries in a run session (issue 10): mixed in at the positions the
// seed fixes, judged like real pairs by the same judges, written to the
// audit, never counted as pairs or items; the bias alarm's actions (warn,
// stop-judge, stop-run); position bias with order balancing.
#include <chrono>
#include <cstdio>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "actors/judge_directory.hpp"
#include "actors/judge_worker.hpp"
#include "actors/run_session.hpp"
#include "adapters/stub_judges.hpp"
#include "core/audit/audit_chain.hpp"
#include "core/canaries/canary_plan.hpp"
#include "test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

answer_pair pair_of(std::string id, std::string item, std::string a,
                    std::string b) {
  answer_pair p;
  p.id = std::move(id);
  p.item = std::move(item);
  p.a = std::move(a);
  p.b = std::move(b);
  return p;
}

std::vector<answer_pair> pairs(int from, int n) {
  std::vector<answer_pair> out;
  for (int i = from; i < from + n; ++i)
    out.push_back(pair_of("p" + std::to_string(i),
                          "item" + std::to_string(i % 3), std::to_string(i),
                          std::to_string(i)));
  return out;
}

/// One stub judge per (name, adapter), each a judge id of its own, and a run
/// with canaries over them.
std::vector<judge_binding> named_bindings(
  const std::vector<std::pair<std::string, judge_adapter_ptr>>& judges) {
  std::vector<judge_binding> out;
  for (auto& [name, adapter] : judges) {
    judge_binding b;
    b.spec.name = name;
    b.spec.type = "stub";
    b.spec.model = name;
    b.spec.seed = 7;
    b.adapter = adapter;
    out.push_back(std::move(b));
  }
  return out;
}

struct rig : run_rig {
  rig(const std::vector<std::pair<std::string, judge_adapter_ptr>>& judges,
      const std::string& tag, canary_settings canaries)
      : run_rig(named_bindings(judges), tag) {
    setup.config.votes = {1, 1};
    setup.config.stats.min_decided = 1;
    setup.config.canaries = canaries;
  }
};

canary_settings at(double rate, alarm_action on_alarm = alarm_action::warn,
                   std::uint64_t seed = 3) {
  canary_settings c;
  c.rate = rate;
  c.seed = seed;
  c.on_alarm = on_alarm;
  return c;
}

/// Answers EQUIVALENT when answer A (as shown) is "1", else DIFFERENT: a
/// judge swayed entirely by the order of the answers.
class order_swayed_judge : public judge_adapter {
public:
  std::string id() const override { return "test:order-swayed"; }
  void call(const std::string& prompt, const call_options&,
            reply_handler done) override {
    auto ab = extract_answers(prompt);
    adapter_reply r;
    r.ok = true;
    r.text = canonical_reply(ab && ab->a == "1" ? judge_decision::equivalent
                                                : judge_decision::different,
                             "x");
    done(std::move(r));
  }
  bool answers_inline() const override { return true; }
};

} // namespace

TEST_CASE("canaries go where the seed puts them, are judged like pairs, and "
          "never count as pairs or items") {
  rig r({{"numeric", numeric_judge()}}, "canaries-mixed", at(0.3));
  r.start();
  r.send(pairs(0, 30));
  r.send(pairs(30, 30));
  r.end_input();
  r.t.run();
  auto& got = r.got();
  // The plan, computed independently: one canary before each marked position.
  canary_plan plan{0.3, 3};
  std::vector<std::uint64_t> positions;
  for (std::uint64_t i = 0; i < 60; ++i)
    if (plan.canary_before(i))
      positions.push_back(i);
  REQUIRE_FALSE(positions.empty());
  REQUIRE(got.canaries.size() == positions.size());
  for (std::size_t k = 0; k < positions.size(); ++k) {
    auto& c = got.canaries[k];
    CAPTURE(k);
    CHECK(c.position == positions[k]);
    CHECK(c.id == "canary-" + std::to_string(k + 1) + "@run-test");
    CHECK(c.a == plan.canary(k).a);
    CHECK(c.b == plan.canary(k).b);
    CHECK(c.kind == std::string{to_string(plan.canary(k).kind)});
    CHECK(c.passed == true); // the numeric rule judge answers canaries right
    CHECK(c.failed_judges.empty());
  }
  REQUIRE(got.summary);
  auto& s = *got.summary;
  CHECK(s.pairs == 60);
  CHECK(got.verdicts.size() == 60);
  CHECK(s.canaries == positions.size());
  CHECK(s.judge_calls == 60 + positions.size());
  std::uint64_t in_items = 0;
  for (auto& item : got.items)
    in_items += item.n;
  CHECK(in_items == 60); // the item ledger never saw a canary
  CHECK(got.items.size() == 3);
  CHECK(s.alarms.empty());
  REQUIRE(s.canary_tallies.size() == 1);
  CHECK(s.canary_tallies[0].judge == "numeric");
  CHECK(s.canary_tallies[0].canaries == positions.size());
  CHECK(s.canary_tallies[0].failed == 0);
  CHECK_FALSE(s.canary_tallies[0].alarmed);
  // The audit: each canary's judge call, then its canary record; the
  // manifest declares the canaries; the chain and the run end verify.
  auto recs = records_of(read_file(r.path));
  auto& cfg = recs.front().doc["config"]["canaries"];
  CHECK(cfg["rate"].GetDouble() == 0.3);
  CHECK(cfg["seed"].GetUint64() == 3);
  CHECK(cfg["on_alarm"].GetString() == std::string{"warn"});
  std::size_t canary_records = 0;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    if (recs[i].type != "canary")
      continue;
    ++canary_records;
    std::string id = recs[i].doc["canary_id"].GetString();
    REQUIRE(i > 0);
    CHECK(recs[i - 1].type == "judge_call");
    CHECK(recs[i - 1].doc["pair_id"].GetString() == id);
    CHECK(recs[i].doc["passed"].GetBool());
    CHECK(recs[i].doc["judges"][0]["judge"].GetString()
          == std::string{"numeric"});
  }
  CHECK(canary_records == positions.size());
  for (auto& rec : recs)
    if (rec.type == "verdict")
      CHECK(std::string{rec.doc["pair_id"].GetString()}.rfind("canary-", 0)
            == std::string::npos);
  CHECK(recs.back().doc["canaries"].GetUint64() == positions.size());
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
}

TEST_CASE("the bias alarm warns about an always-EQUIVALENT judge, with an "
          "audit record of the evidence, and the run goes on") {
  rig r({{"eq", always_equivalent_judge()}}, "canaries-warn", at(1.0));
  r.start();
  r.send(pairs(0, 20));
  r.end_input();
  r.t.run();
  auto& got = r.got();
  REQUIRE(got.summary);
  auto& s = *got.summary;
  CHECK(s.pairs == 20);
  CHECK(s.canaries == 20);
  REQUIRE_FALSE(s.alarms.empty());
  auto& a = s.alarms.front();
  CHECK(a.judge == "eq");
  CHECK(a.action == alarm_action::warn);
  CHECK(a.at_canary <= 8);
  CHECK(a.failures >= 2);
  CHECK_FALSE(s.interrupted);
  CHECK_FALSE(s.stopped_by_alarm);
  bool warned = false;
  for (auto& w : got.warnings)
    warned = warned || w.rfind("bias alarm: judge eq fails canaries", 0) == 0;
  CHECK(warned);
  auto recs = records_of(read_file(r.path));
  std::size_t alarms = 0;
  for (auto& rec : recs)
    if (rec.type == "bias_alarm") {
      ++alarms;
      CHECK(rec.doc["judge"].GetString() == std::string{"eq"});
      CHECK(rec.doc["llr"].GetDouble() >= rec.doc["threshold"].GetDouble());
      CHECK(rec.doc["params"]["tolerated_rate"].GetDouble() == 0.05);
    }
  CHECK(alarms == s.alarms.size());
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
}

TEST_CASE("on_alarm stop-run ends the run at the alarm: interrupted, the rest "
          "unfinished, the chain intact") {
  rig r({{"diff", always_different_judge()}}, "canaries-stop-run",
        at(1.0, alarm_action::stop_run));
  r.start();
  // One pair at a time, until the run ends.
  int sent = 0;
  while (!r.got().summary && sent < 30) {
    r.send(pairs(sent++, 1));
    r.t.run();
  }
  auto& got = r.got();
  REQUIRE(got.summary);
  auto& s = *got.summary;
  CHECK(sent <= 8);
  CHECK(s.stopped_by_alarm);
  CHECK(s.interrupted);
  CHECK(s.stop_reason.rfind("bias alarm: judge diff", 0) == 0);
  REQUIRE(s.alarms.size() >= 1);
  CHECK(s.alarms[0].action == alarm_action::stop_run);
  auto recs = records_of(read_file(r.path));
  CHECK(recs.back().type == "run_end");
  CHECK(recs.back().doc["stopped_by_alarm"].GetBool());
  CHECK(recs[recs.size() - 2].type == "bias_alarm");
  CHECK(verify_audit_file(r.path).status == audit_status::interrupted);
}

TEST_CASE("on_alarm stop-judge: the judge makes no more calls, its votes "
          "become faults, never verdicts") {
  auto eq = always_equivalent_judge();
  rig r({{"eq", eq}}, "canaries-stop-judge", at(1.0, alarm_action::stop_judge));
  r.start();
  int sent = 0;
  while (r.got().warnings.empty() && sent < 30) {
    r.send(pairs(sent++, 1));
    r.t.run();
  }
  REQUIRE_FALSE(r.got().warnings.empty());
  CHECK(sent <= 8);
  auto judged = r.got().verdicts.size();
  r.send(pairs(100, 5));
  r.end_input();
  r.t.run();
  auto& got = r.got();
  REQUIRE(got.summary);
  auto& s = *got.summary;
  REQUIRE(s.alarms.size() >= 1);
  CHECK(s.alarms[0].action == alarm_action::stop_judge);
  CHECK_FALSE(s.interrupted);
  // Every pair judged after the alarm is a fault (I2), never EQUIVALENT.
  REQUIRE(got.verdicts.size() == judged + 5);
  for (auto i = judged; i < got.verdicts.size(); ++i)
    CHECK(got.verdicts[i].rule == verdict_rule::i2);
  auto text = read_file(r.path);
  CHECK(text.find("judge stopped: bias alarm on eq") != std::string::npos);
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
}

TEST_CASE("position bias: with order balancing, the rate at which swapping A "
          "and B changed each judge's decision") {
  rig r({{"swayed", std::make_shared<order_swayed_judge>()}}, "position-bias",
        at(0.0));
  r.setup.config.votes = {3, 2};
  r.setup.config.order_balancing = true;
  r.start();
  // "1" vs "2": EQUIVALENT shown A-first, DIFFERENT swapped (changed);
  // "3" vs "4": DIFFERENT both ways (unchanged).
  r.send({pair_of("x", "x", "1", "2"), pair_of("y", "y", "3", "4"),
          pair_of("z", "z", "1", "5")});
  r.end_input();
  r.t.run();
  REQUIRE(r.got().summary);
  auto& pb = r.got().summary->position_bias;
  REQUIRE(pb.size() == 1);
  CHECK(pb[0].judge == "swayed");
  CHECK(pb[0].comparisons == 3);
  CHECK(pb[0].changed == 2);
  CHECK(pb[0].rate == Approx(2.0 / 3.0));
  CHECK(pb[0].lo < pb[0].rate);
  auto recs = records_of(read_file(r.path));
  auto& end = recs.back().doc;
  CHECK(end["position_bias"][0]["changed"].GetUint64() == 2);
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
}

TEST_CASE("on_alarm stop-judge with another judge in the run: the stopped "
          "judge's votes go to the other one") {
  rig r({{"eq", always_equivalent_judge()}, {"numeric", numeric_judge()}},
        "canaries-stop-one-judge", at(1.0, alarm_action::stop_judge));
  r.start();
  int sent = 0;
  while (r.got().warnings.empty() && sent < 30) {
    r.send(pairs(sent++, 1));
    r.t.run();
  }
  REQUIRE_FALSE(r.got().warnings.empty());
  CHECK(r.got().warnings[0].rfind("bias alarm: judge eq", 0) == 0);
  auto judged = r.got().verdicts.size();
  // After the alarm: "7" vs "8" would be EQUIVALENT from eq; numeric says
  // DIFFERENT, and no vote is a fault.
  r.send({pair_of("after", "after", "7", "8")});
  r.end_input();
  r.t.run();
  auto& got = r.got();
  REQUIRE(got.summary);
  REQUIRE(got.verdicts.size() == judged + 1);
  CHECK(got.verdicts.back().pair_id == "after");
  CHECK(got.verdicts.back().rule == verdict_rule::i5);
  CHECK(got.summary->faults == 0);
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
}
