// A run's totals (core/session/run_tally.hpp): what each record, pair, canary
// and failover note adds to the run summary.
#include <algorithm>

#include <catch2/catch.hpp>

#include "core/budgets/cancel_account.hpp"
#include "core/budgets/run_budgets.hpp"
#include "core/session/run_tally.hpp"

using namespace ij;

namespace {

judge_info worker(std::string name, std::string worker_id,
                  std::string judge_id) {
  judge_info j;
  j.name = std::move(name);
  j.worker_id = std::move(worker_id);
  j.judge_id = std::move(judge_id);
  return j;
}

judge_record call(std::string worker_id, std::string host = "local") {
  judge_record r;
  r.worker_id = std::move(worker_id);
  r.host = std::move(host);
  r.decision = judge_decision::equivalent;
  r.input_tokens = 10;
  r.output_tokens = 2;
  return r;
}

judge_record fault(std::string worker_id, fault_kind kind, std::string why) {
  auto r = call(std::move(worker_id));
  r.transport_failed = kind != fault_kind::budget;
  r.fault = kind;
  r.transport_error = std::move(why);
  r.input_tokens = r.output_tokens = 0;
  return r;
}

vote_result votes(std::vector<judge_record> records,
                  std::uint32_t not_cast = 0) {
  vote_result vr;
  vr.records = std::move(records);
  vr.counts.not_cast = not_cast;
  return vr;
}

} // namespace

TEST_CASE("records count per judge name, whichever of its workers made them") {
  run_tally t;
  t.name_workers({worker("a", "a#1", "id-a"), worker("a", "a#2", "id-a"),
                  worker("b", "b#1", "id-b")});
  t.add_records(
    votes({call("a#1"), call("a#2"), call("b#1", "10.0.0.1:7000")}, 2));
  auto& s = t.summary();
  CHECK(s.judge_calls == 3);
  CHECK(s.calls_skipped == 2);
  CHECK(s.calls_sent == 3);
  REQUIRE(s.usage.size() == 2);
  CHECK(s.usage[0] == judge_usage{"a", 2, 0, 20, 4});
  CHECK(s.usage[1] == judge_usage{"b", 1, 0, 10, 2});
  REQUIRE(s.hosts.size() == 2);
  CHECK(s.hosts[0].host == "local");
  CHECK(s.hosts[0].calls == 2);
  CHECK(s.hosts[1].host == "10.0.0.1:7000");
  CHECK(t.judge_of("a#2") == std::pair<std::string, std::string>{"a", "id-a"});
  // A worker the run did not start with is named by its own id.
  CHECK(t.judge_of("x#9").first == "x#9");
  CHECK(t.judge_of("").first == "(no worker)");
}

TEST_CASE("faults count by kind and keep their first reason, an unplaced vote "
          "has its own line") {
  run_tally t;
  t.name_workers({worker("a", "a#1", "id-a")});
  auto none =
    fault("", fault_kind::unavailable, "no worker serves the run's judges");
  none.host.clear();
  auto odd = fault("a#1", fault_kind::none, "something odd");
  t.add_records(votes({fault("a#1", fault_kind::timeout, "timed out after 5 s"),
                       fault("a#1", fault_kind::timeout, "timed out after 6 s"),
                       odd, none}));
  auto& s = t.summary();
  CHECK(s.faults == 4);
  CHECK(s.faults_by_kind[static_cast<std::size_t>(fault_kind::timeout)] == 2);
  CHECK(s.calls_sent == 3); // the unplaced vote was never sent
  REQUIRE(s.usage.size() == 2);
  CHECK(s.usage[0].faults == 3);
  CHECK(s.usage[1].judge == "(no worker)");
  CHECK(s.hosts.back().host == "(none)");
  auto& reasons = t.fault_reasons();
  // An unclassified failure reads as a connection fault.
  auto connection = std::find_if(reasons.begin(), reasons.end(), [](auto& r) {
    return r.kind == fault_kind::connection;
  });
  REQUIRE(connection != reasons.end());
  CHECK(connection->first_message == "something odd");
  auto timeout = std::find_if(reasons.begin(), reasons.end(), [](auto& r) {
    return r.kind == fault_kind::timeout;
  });
  REQUIRE(timeout != reasons.end());
  CHECK(timeout->first_message == "timed out after 5 s");
  CHECK(timeout->count == 2);
}

TEST_CASE("pairs count by rule, canaries apart, notes count per host") {
  run_tally t;
  t.name_workers({worker("a", "a#1", "id-a")});
  t.add_pair(votes({call("a#1")}), true, verdict_rule::i4);
  t.add_pair(votes({}), std::nullopt, verdict_rule::i1);
  bias_alarm_event alarm;
  alarm.judge = "a";
  t.add_canary(votes({call("a#1")}), {alarm});
  t.add_rejected(3);
  t.add_items(2);
  t.add_note(audit_type::vote_moved, "h:1", "");
  t.add_note(audit_type::late_reply, "h:1", "");
  t.add_note(audit_type::host, "h:1", "lost");
  t.add_note(audit_type::host, "h:1", "connected");
  auto& s = t.summary();
  CHECK(s.pairs == 2);
  CHECK(s.by_rule[0] == 1);
  CHECK(s.by_rule[3] == 1);
  CHECK(s.canaries == 1);
  CHECK(s.alarms.size() == 1);
  CHECK(s.judge_calls == 2); // a canary's calls count, never its verdict
  CHECK(s.rejected == 3);
  CHECK(s.items == 2);
  CHECK(s.votes_moved == 1);
  CHECK(s.late_replies == 1);
  CHECK(t.host("h:1") == host_usage{"h:1", 0, 0, 1, 1, 1});
}

TEST_CASE("a resumed run counts on from its audit's totals, by judge name") {
  run_summary before;
  before.pairs = 5;
  before.judge_calls = 7;
  before.usage.push_back(judge_usage{"a", 7, 1, 70, 14});
  run_tally t{run_config{}, before};
  t.name_workers({worker("a", "a#3", "id-a")});
  t.add_records(votes({call("a#3")}));
  auto& s = t.summary();
  CHECK(s.pairs == 5);
  CHECK(s.judge_calls == 8);
  REQUIRE(s.usage.size() == 1);
  CHECK(s.usage[0] == judge_usage{"a", 8, 1, 80, 16});
  CHECK(s.faults_by_kind.size() == std::size(all_fault_kinds));
}

TEST_CASE("spend: a budgeted judge's calls less those its budget refused, and "
          "their cost") {
  run_config cfg;
  judge_spec a;
  a.name = "a";
  a.budget.max_calls = 2;
  a.prices = token_prices{1.0, 2.0};
  judge_spec b;
  b.name = "b"; // no budget, no prices: no spend line
  cfg.judges = {a, b};
  run_tally t{cfg};
  t.name_workers({worker("a", "a#1", "id-a"), worker("b", "b#1", "id-b")});
  t.add_records(votes({call("a#1"), call("a#1"), call("b#1"),
                       fault("a#1", fault_kind::budget, "budget reached")}));
  t.fill_end_parts(cfg);
  auto& s = t.summary();
  REQUIRE(s.spend.size() == 1);
  CHECK(s.spend[0].judge == "a");
  CHECK(s.spend[0].calls == 2);
  CHECK(s.spend[0].budget_faults == 1);
  CHECK(s.spend[0].input_tokens == 20);
  CHECK(s.spend[0].has_max_calls);
  CHECK(s.spend[0].max_calls == 2);
  CHECK(s.spend[0].priced);
  CHECK(s.spend[0].cost == Approx(cost_of(20, 4, token_prices{1.0, 2.0})));
  CHECK(s.calls_refused_budget == 1);
}

TEST_CASE("a cancel's calls no record shows: counted sent, answered and "
          "aborted, and in "
          "the spend with the tokens of the replies received") {
  run_config cfg;
  judge_spec a;
  a.name = "a";
  a.type = "openai";
  a.model = "m";
  a.prices = token_prices{1.0, 2.0};
  cfg.judges = {a};
  auto id = judge_id_of(a);
  run_tally t{cfg};
  t.name_workers({worker("a", "a#1", id)});
  t.add_records(votes({call("a#1")})); // one recorded call: sent, answered
  // A pair dropped after the cancel: its two calls were answered.
  t.add_dropped(
    votes({call("a#1"), fault("a#1", fault_kind::timeout, "slow")}));
  unrecorded_calls aborted;
  aborted.judge_id = id;
  aborted.aborted_sent = 3;
  aborted.aborted_unsent = 2;
  t.add_unrecorded({aborted});
  t.fill_end_parts(cfg);
  auto& s = t.summary();
  CHECK(s.judge_calls == 1); // records only
  CHECK(s.calls_sent == 1 + 2 + 3);
  CHECK(s.calls_answered == 1 + 2);
  CHECK(s.calls_aborted == 5);
  CHECK(s.calls_unrecorded == 2 + 3);
  REQUIRE(s.spend.size() == 1);
  CHECK(s.spend[0].calls == 6);
  CHECK(s.spend[0].input_tokens == 20); // the replies received: 10 + 10 + 0
  CHECK(s.spend[0].output_tokens == 4);
  CHECK(s.spend[0].cost == Approx(cost_of(20, 4, token_prices{1.0, 2.0})));
}

TEST_CASE("a cancel's account: each call in flight settled once, by its abort, "
          "its reply, "
          "its worker's loss or the end of the wait") {
  cancel_account acc;
  judge_record answered = call("w#1");
  acc.dropped("id-a", answered); // a reply of an unfinished pair
  acc.dropped("id-a",
              fault("", fault_kind::unavailable, "no worker")); // no call made
  acc.awaiting(1, 0, "id-a");
  acc.awaiting(2, 0, "id-a");
  acc.awaiting(3, 1, "id-b");
  acc.awaiting(4, 1, "id-b");
  acc.awaiting(5, 0, "id-a");
  CHECK(acc.awaited() == 5);
  auto cut = fault("w#1", fault_kind::aborted, "aborted");
  cut.attempts = 0;
  CHECK(acc.answered(1, cut));            // aborted before it was sent
  CHECK(acc.answered(2, answered));       // its reply came first
  CHECK_FALSE(acc.answered(2, answered)); // settled once
  CHECK(acc.aborted(3, true));
  acc.worker_gone(1); // 4: its worker never said
  CHECK_FALSE(acc.settled());
  acc.give_up(); // 5: the wait is over
  CHECK(acc.settled());
  auto r = acc.result();
  REQUIRE(r.size() == 2);
  CHECK(r[0].judge_id == "id-a");
  CHECK(r[0].answered == 2);
  CHECK(r[0].input_tokens == 20);
  CHECK(r[0].aborted_unsent == 1);
  CHECK(r[0].aborted_sent == 1);
  CHECK(r[1].judge_id == "id-b");
  CHECK(r[1].aborted_sent == 2);
  std::vector<unrecorded_calls> merged{r[1]};
  merge_unrecorded(merged, r);
  REQUIRE(merged.size() == 2);
  CHECK(merged[0].aborted_sent == 4);
}

TEST_CASE("a run's budget meters: one per budgeted judge id, a resumed run's "
          "from what it spent") {
  run_config cfg;
  judge_spec a;
  a.name = "a";
  a.type = "stub";
  a.model = "equivalent";
  a.budget.max_calls = 3;
  judge_spec b;
  b.name = "b";
  b.type = "stub";
  b.model = "different";
  cfg.judges = {a, b};
  auto fresh = run_budgets(cfg, nullptr);
  REQUIRE(fresh.size() == 1);
  REQUIRE(fresh.count(judge_id_of(a)) == 1);
  CHECK_FALSE(fresh.at(judge_id_of(a)).reached());
  resume_point r;
  r.spent["a"].calls = 3;
  auto resumed = run_budgets(cfg, &r);
  CHECK(resumed.at(judge_id_of(a)).reached());
}
