// The vote coordinator: multiVoteJudge with early stop, deadline, balancing
// (SPEC §7).
#include <chrono>
#include <memory>
#include <set>

#include <catch2/catch.hpp>

#include "actors/judge_worker.hpp"
#include "actors/vote_coordinator.hpp"
#include "adapters/stub_judges.hpp"
#include "core/prompts/prompt.hpp"
#include "test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

/// A coordinator over one worker per adapter (all serving one judge), with
/// results collected by seq; vote() returns the pair's result once there.
struct rig {
  test_system t;
  std::vector<judge_adapter_ptr> adapters;
  std::vector<judge_worker_actor> workers;
  vote_collector sink{t.sys};
  vote_coordinator_actor coordinator;
  std::uint64_t next_seq = 1;

  rig(std::vector<judge_adapter_ptr> as, vote_settings vs,
      std::optional<std::int64_t> seed = 1000, std::uint32_t cap = 16)
      : adapters(std::move(as)) {
    std::vector<worker_entry> entries;
    std::vector<std::string> ids;
    int n = 0;
    for (auto& a : adapters) {
      auto b = test_binding(a, cap, seed);
      auto id = "w" + std::to_string(n++) + "@local";
      auto info = describe_worker(b, id, "local");
      auto w = spawn_judge_worker(t.sys, b, id);
      workers.push_back(w);
      entries.push_back({w, info});
      ids.push_back(info.judge_id);
    }
    coordinator = t.sys.spawn(vote_coordinator, sink.actor,
                              judge_directory_actor{}, ids, entries, vs);
  }

  // Pending deadline timers keep the coordinator referenced: end it (and
  // its workers) explicitly, as a run session does.
  ~rig() {
    caf::anon_send_exit(coordinator, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(sink.actor, caf::exit_reason::user_shutdown);
    for (auto& w : workers)
      caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
  }

  /// Sends the pair; the reply is filled in once the sink has its result.
  std::shared_ptr<reply<vote_result>> vote(answer_pair p) {
    auto seq = next_seq++;
    caf::anon_send(coordinator,
                   std::vector<vote_job>{vote_job{seq, std::move(p)}});
    auto out = std::make_shared<reply<vote_result>>();
    watching.emplace_back(seq, out);
    return out;
  }

  /// Runs, then fills every reply whose result has arrived.
  void run() {
    t.run();
    collect();
  }

  void advance(caf::timespan d) {
    t.advance(d);
    collect();
  }

  void collect() {
    for (auto& [seq, r] : watching) {
      auto i = sink.got->find(seq);
      if (i != sink.got->end() && !r->done) {
        r->value = i->second.result;
        r->done = true;
      }
    }
  }

  std::vector<std::pair<std::uint64_t, std::shared_ptr<reply<vote_result>>>>
    watching;
};

vote_settings votes(std::uint32_t n, std::uint32_t k) {
  vote_settings vs;
  vs.votes = {n, k};
  vs.deadline = std::chrono::seconds(30);
  return vs;
}

answer_pair pair_of(std::string a, std::string b, std::string id = "p1") {
  answer_pair p;
  p.id = id;
  p.item = "item";
  p.a = std::move(a);
  p.b = std::move(b);
  return p;
}

} // namespace

TEST_CASE("an absent answer replies at once without any judge call") {
  auto judge_stub =
    scripted_judge({canonical("EQUIVALENT")}, script_end::cycle);
  rig r({judge_stub}, votes(3, 2));
  auto res = r.vote(pair_of("  ", "5"));
  r.run();
  REQUIRE(res->value);
  CHECK(res->value->absent);
  CHECK(res->value->outcome.detail == "absent");
  CHECK_FALSE(res->value->outcome.equivalent.has_value());
  CHECK(res->value->records.empty());
  CHECK(judge_stub->calls() == 0);
}

TEST_CASE("votes=5 k=3 all EQUIVALENT: exactly 3 calls and 2 not cast") {
  auto judge_stub =
    scripted_judge({canonical("EQUIVALENT")}, script_end::cycle);
  rig r({judge_stub}, votes(5, 3));
  auto res = r.vote(pair_of("200", "two hundred"));
  r.run();
  REQUIRE(res->value);
  CHECK(judge_stub->calls() == 3);
  CHECK(res->value->records.size() == 3);
  CHECK(res->value->counts.equivalent == 3);
  CHECK(res->value->counts.not_cast == 2);
  CHECK(res->value->counts.votes == 5);
  CHECK(res->value->counts.min_agreement == 3);
  CHECK(res->value->outcome.equivalent == std::optional<bool>{true});
  CHECK(res->value->outcome.confidence == Approx(0.6));
  // Seeds are baseSeed + voteIndex, records in vote order.
  for (std::uint32_t i = 0; i < 3; ++i) {
    CHECK(res->value->records[i].vote_index == i);
    CHECK(res->value->records[i].seed == 1000 + i);
  }
}

TEST_CASE("a split first wave asks for just the votes still needed") {
  // votes=5, k=3: wave 1 (3 calls) E,E,D; wave 2 asks 1 more: E -> fixed.
  auto judge_stub =
    scripted_judge({canonical("EQUIVALENT"), canonical("EQUIVALENT"),
                    canonical("DIFFERENT"), canonical("EQUIVALENT")});
  rig r({judge_stub}, votes(5, 3));
  auto res = r.vote(pair_of("1", "1"));
  r.run();
  REQUIRE(res->value);
  CHECK(judge_stub->calls() == 4);
  CHECK(res->value->counts.equivalent == 3);
  CHECK(res->value->counts.different == 1);
  CHECK(res->value->counts.not_cast == 1);
  CHECK(res->value->outcome.equivalent == std::optional<bool>{true});
}

TEST_CASE("a vote that waits when credits come with the replies that ask "
          "for it is asked for again (a worker's demand is never lost)") {
  // The worker counts down the demand it was told as it grants credits. A
  // worker update that brings a credit and a reply whose pair needs one
  // more vote leaves the number waiting unchanged; unless the coordinator
  // counts the credit against what it announced, it tells the worker
  // nothing, the worker believes nobody waits, and the run hangs.
  auto judge = std::make_shared<manual_adapter>();
  rig r({judge}, votes(5, 3), 1000, 3);
  auto first = r.vote(pair_of("1", "1", "p1"));
  r.run();
  REQUIRE(judge->open() == 3);
  auto second = r.vote(pair_of("2", "2", "p2"));
  r.run();
  // p1's first wave: E, D, E -> one more vote; each answer frees a slot
  // that goes to p2.
  for (auto d : {"EQUIVALENT", "DIFFERENT", "EQUIVALENT"}) {
    REQUIRE(judge->complete_next(canonical(d)));
    r.run();
  }
  while (judge->complete_next(canonical("EQUIVALENT")))
    r.run();
  REQUIRE(second->value);
  REQUIRE(first->value);
  CHECK(first->value->counts.equivalent == 3);
  CHECK(first->value->counts.different == 1);
  CHECK(judge->calls() == 7);
}

TEST_CASE("votes=3 k=3 with a 2-1 split yields null and never true or false") {
  auto judge_stub = scripted_judge(
    {canonical("EQUIVALENT"), canonical("EQUIVALENT"), canonical("DIFFERENT")});
  rig r({judge_stub}, votes(3, 3));
  auto res = r.vote(pair_of("1", "1"));
  r.run();
  REQUIRE(res->value);
  CHECK_FALSE(res->value->outcome.equivalent.has_value());
  CHECK_FALSE(res->value->outcome.fault);
  CHECK(res->value->counts.not_cast == 0);
}

TEST_CASE("a judge that does not answer by the deadline is a fault") {
  auto silent = std::make_shared<manual_adapter>();
  auto vs = votes(1, 1);
  vs.deadline = std::chrono::seconds(5);
  rig r({silent}, vs);
  auto res = r.vote(pair_of("1", "2"));
  r.run();
  CHECK(silent->calls() == 1);
  CHECK_FALSE(res->done);
  r.advance(std::chrono::seconds(4));
  CHECK_FALSE(res->done);
  r.advance(std::chrono::seconds(2));
  REQUIRE(res->done);
  REQUIRE(res->value);
  CHECK(res->value->outcome.fault);
  CHECK_FALSE(res->value->outcome.equivalent.has_value());
  CHECK(res->value->counts.faults == 1);
  REQUIRE(res->value->records.size() == 1);
  auto& rec = res->value->records[0];
  CHECK(rec.transport_failed);
  CHECK(rec.transport_error == "deadline exceeded");
  CHECK(rec.adapter_id == "test:manual");
  CHECK(rec.pair_id == "p1");
  CHECK(rec.prompt_id == std::string{judge_prompt_id});
  // Close the call the judge never answered (it holds the judge's memory).
  while (silent->complete_next(canonical("EQUIVALENT")))
    r.run();
}

TEST_CASE("a judge failing every call gives a fault outcome and never true "
          "or false") {
  rig r({failing_judge()}, votes(3, 2));
  auto res = r.vote(pair_of("1", "1"));
  r.run();
  REQUIRE(res->value);
  CHECK(res->value->outcome.fault);
  CHECK_FALSE(res->value->outcome.equivalent.has_value());
  // Two faults already leave no side able to reach k=2 with one vote left.
  CHECK(res->value->counts.faults == 2);
  CHECK(res->value->counts.not_cast == 1);
}

TEST_CASE("order balancing swaps odd votes and swaps numerics back") {
  auto silent = std::make_shared<manual_adapter>();
  auto vs = votes(3, 2);
  vs.order_balancing = true;
  rig r({silent}, vs);
  auto p = pair_of("A says 1", "B says 2");
  auto res = r.vote(p);
  r.run();
  REQUIRE(silent->calls() == 2);
  // The judge reads its own "A" as 1 and its own "B" as 2 every time.
  silent->complete_next(canonical("DIFFERENT", "1", "2"));
  silent->complete_next(canonical("DIFFERENT", "1", "2"));
  r.run();
  REQUIRE(res->value);
  auto prompts = silent->prompts();
  CHECK(prompts[0] == build_judge_prompt(p.a, p.b));
  CHECK(prompts[1] == build_judge_prompt(p.b, p.a));
  auto& recs = res->value->records;
  REQUIRE(recs.size() == 2);
  CHECK_FALSE(recs[0].swapped);
  CHECK(recs[0].numeric_a == "1");
  CHECK(recs[0].numeric_b == "2");
  CHECK(recs[1].swapped);
  CHECK(recs[1].numeric_a == "2");
  CHECK(recs[1].numeric_b == "1");
}

TEST_CASE("votes go to the workers with free capacity: a full worker's share "
          "goes to another worker of the judge") {
  auto j1 = std::make_shared<manual_adapter>();
  auto j2 = std::make_shared<manual_adapter>();
  rig r({j1, j2}, votes(4, 3), 1000, 1);
  // Capacity 1 each: the three votes of the first wave need both workers.
  auto res = r.vote(pair_of("1", "1"));
  r.run();
  CHECK(j1->calls() == 1);
  CHECK(j2->calls() == 1);
  while (j1->complete_next(canonical("EQUIVALENT"))
         || j2->complete_next(canonical("EQUIVALENT")))
    r.run();
  CHECK(j1->calls() + j2->calls() == 3);
  CHECK(j1->peak_open() == 1);
  CHECK(j2->peak_open() == 1);
  REQUIRE(res->value);
  CHECK(res->value->outcome.equivalent == std::optional<bool>{true});
  CHECK(res->value->counts.not_cast == 1);
}

TEST_CASE("results of many pairs come back in few messages") {
  rig r({numeric_judge()}, votes(1, 1), 1000, 64);
  std::vector<vote_job> jobs;
  for (int i = 0; i < 50; ++i) {
    answer_pair p =
      pair_of(std::to_string(i), std::to_string(i), "p" + std::to_string(i));
    jobs.push_back({static_cast<std::uint64_t>(100 + i), p});
  }
  caf::anon_send(r.coordinator, std::move(jobs));
  r.run();
  CHECK(r.sink.got->size() == 50);
  CHECK(*r.sink.messages <= 2);
}

TEST_CASE(
  "a worker that leaves with no other worker of its judge: its "
  "votes wait the failover wait, then are faults, and a late reply is not "
  "counted twice") {
  auto manual = std::make_shared<manual_adapter>();
  auto vs = votes(1, 1);
  vs.failover_wait = std::chrono::seconds(10);
  rig r({manual}, vs);
  auto first = r.vote(pair_of("1", "1", "p1"));
  r.run();
  REQUIRE(manual->calls() == 1);
  caf::anon_send(r.coordinator, left_atom::value, std::string{"w0@local"},
                 std::string{"the host was lost"});
  r.run();
  CHECK_FALSE(first->done); // it waits for a worker of its judge
  r.advance(std::chrono::seconds(9));
  CHECK_FALSE(first->done);
  r.advance(std::chrono::seconds(2));
  REQUIRE(first->value);
  CHECK(first->value->outcome.fault);
  REQUIRE(first->value->records.size() == 1);
  CHECK(first->value->records[0].fault == fault_kind::unavailable);
  CHECK(first->value->records[0].transport_error.find("no worker serves judge")
        == 0);
  CHECK(first->value->records[0].vote_index == 0);
  // The late reply of the lost worker is dropped and noted, not counted.
  manual->complete_next(canonical("EQUIVALENT"));
  r.run();
  CHECK(first->value->records.size() == 1);
  REQUIRE(r.sink.notes->size() == 2);
  CHECK(r.sink.notes->at(0).type == audit_type::vote_moved);
  CHECK(r.sink.notes->at(1).type == audit_type::late_reply);
  // With no worker at all, new votes wait the failover wait too.
  auto second = r.vote(pair_of("2", "2", "p2"));
  r.run();
  CHECK_FALSE(second->done);
  r.advance(std::chrono::seconds(11));
  REQUIRE(second->value);
  CHECK(second->value->outcome.fault);
  CHECK(second->value->records[0].transport_error
        == "no worker serves the run's judges");
  CHECK(manual->calls() == 1);
}

TEST_CASE("failover: a lost worker's votes move to another worker of the "
          "same judge with their vote index and seed, and its late reply is "
          "dropped and noted") {
  auto lost = std::make_shared<manual_adapter>();
  auto other = std::make_shared<manual_adapter>();
  rig r({lost, other}, votes(3, 2), 1000, 1);
  auto res = r.vote(pair_of("1", "1", "p1"));
  r.run();
  // The first wave: two votes, one at each worker (capacity 1 each).
  REQUIRE(lost->calls() == 1);
  REQUIRE(other->calls() == 1);
  other->complete_next(canonical("EQUIVALENT"));
  r.run();
  caf::anon_send(r.coordinator, left_atom::value, std::string{"w0@local"},
                 std::string{"host 10.0.0.1:7000 lost: no answer"});
  r.run();
  // The moved vote went to the other worker.
  REQUIRE(other->calls() == 2);
  REQUIRE(r.sink.notes->size() == 1);
  auto& moved = r.sink.notes->at(0);
  CHECK(moved.type == audit_type::vote_moved);
  CHECK(moved.host == "local");
  CHECK(moved.body.find("\"from_worker\":\"w0@local\"") != std::string::npos);
  CHECK(moved.body.find("\"why\":\"host 10.0.0.1:7000 lost: no answer\"")
        != std::string::npos);
  // The lost worker answers late: dropped, noted, never counted.
  lost->complete_next(canonical("DIFFERENT"));
  r.run();
  REQUIRE(r.sink.notes->size() == 2);
  CHECK(r.sink.notes->at(1).type == audit_type::late_reply);
  CHECK_FALSE(res->done);
  other->complete_next(canonical("EQUIVALENT"));
  r.run();
  REQUIRE(res->value);
  CHECK(res->value->outcome.equivalent == std::optional<bool>{true});
  auto& recs = res->value->records;
  REQUIRE(recs.size() == 2);
  // Whichever vote the lost worker had, it kept its index and seed.
  std::set<std::uint32_t> indexes;
  for (auto& rec : recs) {
    CHECK(rec.worker_id == "w1@local");
    CHECK(rec.seed == 1000 + static_cast<std::int64_t>(rec.vote_index));
    CHECK(rec.decision == judge_decision::equivalent);
    indexes.insert(rec.vote_index);
  }
  CHECK(indexes == std::set<std::uint32_t>{0, 1});
  CHECK(res->value->counts.faults == 0);
}

TEST_CASE("failover never moves a vote to a worker of another judge, and a "
          "worker of its judge that joins in time takes it") {
  auto lost = std::make_shared<manual_adapter>();
  rig r({lost}, votes(1, 1), 1000, 1);
  auto res = r.vote(pair_of("1", "2", "p1"));
  r.run();
  REQUIRE(lost->calls() == 1);
  caf::anon_send(r.coordinator, left_atom::value, std::string{"w0@local"},
                 std::string{"lost"});
  auto stranger = std::make_shared<manual_adapter>();
  auto other = test_binding(stranger, 4, 1000, "other");
  other.spec.model = "another-model";
  auto ow = spawn_judge_worker(r.t.sys, other, "other@local");
  caf::anon_send(
    r.coordinator, joined_atom::value,
    worker_entry{ow, describe_worker(other, "other@local", "local")});
  r.run();
  CHECK(stranger->calls() == 0);
  // The lost worker's host comes back under a new worker of the same judge.
  auto back = std::make_shared<manual_adapter>();
  auto same = test_binding(back, 4);
  auto sw = spawn_judge_worker(r.t.sys, same, "w0b@local");
  caf::anon_send(r.coordinator, joined_atom::value,
                 worker_entry{sw, describe_worker(same, "w0b@local", "local")});
  r.run();
  REQUIRE(back->calls() == 1);
  back->complete_next(canonical("DIFFERENT"));
  r.run();
  REQUIRE(res->value);
  CHECK(res->value->outcome.equivalent == std::optional<bool>{false});
  CHECK(res->value->records[0].worker_id == "w0b@local");
  CHECK(res->value->records[0].vote_index == 0);
  while (lost->complete_next(canonical("EQUIVALENT")))
    r.run();
  caf::anon_send_exit(ow, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(sw, caf::exit_reason::user_shutdown);
}

TEST_CASE("host events from the directory become host notes for the run") {
  rig r({numeric_judge()}, votes(1, 1));
  host_event e;
  e.host = "10.0.0.1:7000";
  e.kind = host_event_kind::lost;
  e.detail = "host 10.0.0.1:7000 lost: no answer to pings for 5000 ms";
  e.workers = {"x#1@10.0.0.1:7000"};
  caf::anon_send(r.coordinator, e);
  r.run();
  REQUIRE(r.sink.notes->size() == 1);
  auto& n = r.sink.notes->at(0);
  CHECK(n.type == audit_type::host);
  CHECK(n.event == "lost");
  CHECK(n.host == "10.0.0.1:7000");
  CHECK(n.body.find("\"event\":\"lost\"") != std::string::npos);
  CHECK(n.body.find("x#1@10.0.0.1:7000") != std::string::npos);
}

TEST_CASE("a worker of the run's judge that joins is used, one of another "
          "judge is not") {
  auto manual = std::make_shared<manual_adapter>();
  rig r({manual}, votes(1, 1), 1000, 1);
  auto busy = r.vote(pair_of("1", "1", "p1"));
  auto waiting = r.vote(pair_of("2", "2", "p2"));
  r.run();
  CHECK(manual->calls() == 1); // capacity 1: p2 waits
  // Another judge's worker joins: not used.
  auto stranger = std::make_shared<manual_adapter>();
  auto other = test_binding(stranger, 4, 1000, "other");
  other.spec.model = "another-model";
  auto other_info = describe_worker(other, "other@local", "local");
  auto ow = spawn_judge_worker(r.t.sys, other, "other@local");
  caf::anon_send(r.coordinator, joined_atom::value,
                 worker_entry{ow, other_info});
  r.run();
  CHECK(stranger->calls() == 0);
  // A second worker of the same judge joins: p2 goes there.
  auto helper = std::make_shared<manual_adapter>();
  auto same = test_binding(helper, 4);
  auto same_info = describe_worker(same, "w9@local", "local");
  auto sw = spawn_judge_worker(r.t.sys, same, "w9@local");
  caf::anon_send(r.coordinator, joined_atom::value,
                 worker_entry{sw, same_info});
  r.run();
  CHECK(helper->calls() == 1);
  while (manual->complete_next(canonical("EQUIVALENT"))
         || helper->complete_next(canonical("DIFFERENT")))
    r.run();
  REQUIRE(busy->value);
  REQUIRE(waiting->value);
  CHECK(waiting->value->records[0].worker_id == "w9@local");
  CHECK(waiting->value->outcome.equivalent == std::optional<bool>{false});
  caf::anon_send_exit(ow, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(sw, caf::exit_reason::user_shutdown);
}

TEST_CASE("a cancelled coordinator makes no further call") {
  auto manual = std::make_shared<manual_adapter>();
  rig r({manual}, votes(3, 3), 1000, 1);
  auto res = r.vote(pair_of("1", "1"));
  r.run();
  CHECK(manual->calls() == 1);
  caf::anon_send(r.coordinator, cancel_atom::value);
  r.run();
  while (manual->complete_next(canonical("EQUIVALENT")))
    r.run();
  CHECK(manual->calls() == 1);
  CHECK_FALSE(res->done);
}

TEST_CASE("a cancel answers with the calls no record will show: replies of "
          "unfinished pairs, calls aborted sent or not") {
  auto manual = std::make_shared<manual_adapter>();
  manual->answer_aborts = false; // the test answers the aborts
  rig r({manual}, votes(3, 3), 1000, 2);
  auto res = r.vote(pair_of("1", "1"));
  r.run();
  CHECK(manual->calls() == 2); // the third vote waits for a credit
  REQUIRE(manual->complete_next(canonical("EQUIVALENT"))); // 10 in, 3 out
  r.run();
  CHECK(manual->calls() == 3);
  auto account = ask<std::vector<unrecorded_calls>>(r.t.sys, r.coordinator,
                                                    cancel_atom::value);
  r.run();
  CHECK(manual->aborted().size() == 2);
  CHECK_FALSE(account->done); // the worker has not said yet
  adapter_reply sent;
  sent.fault = fault_kind::aborted;
  sent.attempts = 1;
  adapter_reply unsent = sent;
  unsent.attempts = 0;
  REQUIRE(manual->complete_next(sent));
  REQUIRE(manual->complete_next(unsent));
  r.run();
  REQUIRE(account->done);
  REQUIRE(account->value);
  REQUIRE(account->value->size() == 1);
  auto& u = account->value->front();
  CHECK_FALSE(u.judge_id.empty());
  CHECK(u.answered == 1);
  CHECK(u.aborted_sent == 1);
  CHECK(u.aborted_unsent == 1);
  CHECK(u.input_tokens == 10);
  CHECK(u.output_tokens == 3);
  CHECK_FALSE(res->done); // the pair stays unfinished
  CHECK(manual->calls() == 3);
}

TEST_CASE(
  "a cancel counts the calls of a worker that never says as sent, after "
  "the wait") {
  auto manual = std::make_shared<manual_adapter>();
  manual->answer_aborts = false;
  auto vs = votes(1, 1);
  vs.abort_wait = std::chrono::seconds(2);
  rig r({manual}, vs, 1000, 4);
  for (int i = 0; i < 3; ++i)
    r.vote(pair_of("1", "1", "p" + std::to_string(i)));
  r.run();
  CHECK(manual->calls() == 3);
  auto account = ask<std::vector<unrecorded_calls>>(r.t.sys, r.coordinator,
                                                    cancel_atom::value);
  r.run();
  CHECK_FALSE(account->done);
  r.advance(std::chrono::seconds(2));
  REQUIRE(account->done);
  REQUIRE(account->value);
  REQUIRE(account->value->size() == 1);
  CHECK(account->value->front().aborted_sent == 3);
  CHECK(account->value->front().answered == 0);
  // The adapter answers at last (left open, its handlers, which hold it,
  // would never be freed): too late to change the account.
  adapter_reply cut;
  cut.fault = fault_kind::aborted;
  while (manual->complete_next(cut))
    r.run();
}

TEST_CASE(
  "votes=1 maps ABSTAIN as SPEC §3 says with abstain_as_neither either way") {
  for (bool aan : {true, false}) {
    auto vs = votes(1, 1);
    vs.abstain_as_neither = aan;
    rig r({always_abstain_judge()}, vs);
    auto res = r.vote(pair_of("1", "x"));
    r.run();
    REQUIRE(res->value);
    if (aan) {
      CHECK_FALSE(res->value->outcome.equivalent.has_value());
    } else {
      CHECK(res->value->outcome.equivalent == std::optional<bool>{false});
      CHECK(res->value->outcome.confidence == 0.0);
    }
    CHECK_FALSE(res->value->outcome.fault);
  }
}

TEST_CASE("votes>1: ABSTAIN never counts toward a side even with "
          "abstain_as_neither false") {
  auto vs = votes(3, 2);
  vs.abstain_as_neither = false;
  rig r({always_abstain_judge()}, vs);
  auto res = r.vote(pair_of("1", "x"));
  r.run();
  REQUIRE(res->value);
  CHECK_FALSE(res->value->outcome.equivalent.has_value());
  CHECK(res->value->counts.abstain >= 2);
}

TEST_CASE("the always-EQUIVALENT and always-DIFFERENT stubs decide as they "
          "say") {
  rig eq({always_equivalent_judge()}, votes(1, 1));
  auto a = eq.vote(pair_of("1", "2"));
  eq.run();
  REQUIRE(a->value);
  CHECK(a->value->outcome.equivalent == std::optional<bool>{true});
  rig diff({always_different_judge()}, votes(1, 1));
  auto b = diff.vote(pair_of("1", "1"));
  diff.run();
  REQUIRE(b->value);
  CHECK(b->value->outcome.equivalent == std::optional<bool>{false});
}

TEST_CASE("votes beyond a judge's capacity wait in the coordinator and their "
          "deadline runs from dispatch") {
  auto manual = std::make_shared<manual_adapter>();
  auto vs = votes(3, 3);
  vs.deadline = std::chrono::seconds(5);
  rig r({manual}, vs, 1000, 1);
  auto res = r.vote(pair_of("1", "1"));
  r.run();
  // Capacity 1: one vote at the judge, two waiting here.
  CHECK(manual->calls() == 1);
  for (int i = 0; i < 3; ++i) {
    // Each vote takes 4 s of the 5 s deadline: no vote times out, although
    // the last one waited 8 s before its judge had room.
    r.advance(std::chrono::seconds(4));
    REQUIRE(manual->complete_next(canonical("EQUIVALENT")));
    r.run();
  }
  CHECK(manual->calls() == 3);
  CHECK(manual->peak_open() == 1);
  REQUIRE(res->value);
  CHECK(res->value->counts.faults == 0);
  CHECK(res->value->counts.equivalent == 3);
  CHECK(res->value->outcome.equivalent == std::optional<bool>{true});
}

TEST_CASE("several pairs share the judges fairly and each gets its own "
          "result") {
  auto judge_stub = numeric_judge();
  rig r({judge_stub}, votes(3, 2), 1000, 2);
  std::vector<std::shared_ptr<reply<vote_result>>> results;
  for (int i = 0; i < 20; ++i)
    results.push_back(r.vote(pair_of(
      std::to_string(i % 4), std::to_string(i % 4), "p" + std::to_string(i))));
  r.run();
  for (int i = 0; i < 20; ++i) {
    REQUIRE(results[i]->value);
    CHECK(results[i]->value->pair_id == "p" + std::to_string(i));
    CHECK(results[i]->value->outcome.equivalent == std::optional<bool>{true});
    CHECK(results[i]->value->records.size() == 2);
  }
}

// --- Calibration and confidence-sequential voting (issue 16) -----------------

namespace {

std::string judge_id_for(const judge_adapter_ptr& a) {
  return describe_worker(test_binding(a, 16, 1000), "x@local", "local")
    .judge_id;
}

adapter_reply with_probs(const std::string& decision, std::vector<double> p) {
  auto r = canonical(decision);
  r.decision_probs = std::move(p);
  return r;
}

// A map for the adapter's judge: the identity, or the one given.
vote_settings calibrated(std::uint32_t n, std::uint32_t k,
                         const judge_adapter_ptr& a, std::optional<double> stop,
                         calibration_map m = {
                           "", "decision_probs", {0.0, 1.0}, {0.0, 1.0}}) {
  auto vs = votes(n, k);
  auto set = std::make_shared<calibration_set>();
  m.judge_id = judge_id_for(a);
  set->judges[m.judge_id].map = m;
  vs.calibration = set;
  vs.stop_probability = stop;
  return vs;
}

} // namespace

TEST_CASE("sequential voting stops once the calibrated probability reaches the "
          "threshold") {
  // 0.9 alone is below 0.99; with 0.95 the odds are 9 * 19 = 171.
  auto judge_stub =
    scripted_judge({with_probs("EQUIVALENT", {0.9, 0.08, 0.02}),
                    with_probs("EQUIVALENT", {0.95, 0.04, 0.01})},
                   script_end::fail);
  rig r({judge_stub}, calibrated(5, 3, judge_stub, 0.99));
  auto res = r.vote(pair_of("1", "1"));
  r.run();
  REQUIRE(res->value);
  CHECK(judge_stub->calls() == 2);
  CHECK(res->value->stop == "probability");
  CHECK(res->value->outcome.equivalent == std::optional<bool>{true});
  CHECK(res->value->outcome.probability == Approx(171.0 / 172.0));
  CHECK(res->value->counts.equivalent == 2);
  CHECK(res->value->counts.not_cast == 3);
  CHECK(res->value->records.size() == 2);
}

TEST_CASE("sequential voting never asks beyond N votes") {
  auto judge_stub = scripted_judge({with_probs("EQUIVALENT", {0.6, 0.3, 0.1}),
                                    with_probs("DIFFERENT", {0.3, 0.6, 0.1}),
                                    with_probs("EQUIVALENT", {0.6, 0.3, 0.1}),
                                    with_probs("DIFFERENT", {0.3, 0.6, 0.1}),
                                    with_probs("ABSTAIN", {0.1, 0.1, 0.8})},
                                   script_end::cycle);
  rig r({judge_stub}, calibrated(5, 3, judge_stub, 0.99));
  auto res = r.vote(pair_of("1", "1"));
  r.run();
  REQUIRE(res->value);
  CHECK(judge_stub->calls() == 5);
  CHECK(res->value->stop == "votes_exhausted");
  CHECK(res->value->counts.not_cast == 0);
  CHECK_FALSE(res->value->outcome.equivalent.has_value());
  CHECK(res->value->outcome.probability == Approx(0.5));
}

TEST_CASE(
  "a judge without decision probabilities is calibrated on its vote share") {
  // One EQUIVALENT vote: share 1, mapped to 0.995 >= 0.99.
  auto judge_stub =
    scripted_judge({canonical("EQUIVALENT")}, script_end::cycle);
  rig r({judge_stub},
        calibrated(5, 3, judge_stub, 0.99,
                   {"", "vote_share", {0.0, 1.0}, {0.02, 0.995}}));
  auto res = r.vote(pair_of("1", "1"));
  r.run();
  REQUIRE(res->value);
  CHECK(judge_stub->calls() == 1);
  CHECK(res->value->stop == "probability");
  CHECK(res->value->outcome.probability == Approx(0.995));
  CHECK(res->value->outcome.equivalent == std::optional<bool>{true});
}

TEST_CASE("with a map but no stop rule the waves and outcome are today's, with "
          "a probability") {
  auto judge_stub = scripted_judge(
    {with_probs("EQUIVALENT", {0.9, 0.08, 0.02})}, script_end::cycle);
  rig r({judge_stub}, calibrated(5, 3, judge_stub, std::nullopt));
  auto res = r.vote(pair_of("1", "1"));
  r.run();
  REQUIRE(res->value);
  CHECK(judge_stub->calls() == 3);
  CHECK(res->value->stop == "outcome_fixed");
  CHECK(res->value->outcome.confidence == Approx(0.6));
  CHECK(res->value->outcome.detail == "3/5 EQUIVALENT");
  CHECK(res->value->outcome.probability == Approx(729.0 / 730.0));
}

TEST_CASE("without a map a result has no probability") {
  auto judge_stub = scripted_judge(
    {with_probs("EQUIVALENT", {0.9, 0.08, 0.02})}, script_end::cycle);
  rig r({judge_stub}, votes(3, 2));
  auto res = r.vote(pair_of("1", "1"));
  r.run();
  REQUIRE(res->value);
  CHECK_FALSE(res->value->outcome.has_probability());
  CHECK(res->value->stop == "outcome_fixed");
  CHECK(res->value->records[0].decision_probs
        == std::vector<double>{0.9, 0.08, 0.02});
}
