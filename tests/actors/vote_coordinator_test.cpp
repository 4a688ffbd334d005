// The vote coordinator: multiVoteJudge with early stop, deadline, balancing
// (SPEC §7).
#include <catch2/catch.hpp>

#include <chrono>
#include <memory>

#include "actors/judge.hpp"
#include "actors/vote_coordinator.hpp"
#include "adapters/stub_judges.hpp"
#include "core/prompt.hpp"
#include "test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

struct rig {
  test_system t;
  std::vector<judge_adapter_ptr> adapters;
  vote_coordinator_actor coordinator;

  rig(std::vector<judge_adapter_ptr> as, vote_settings vs,
      std::optional<std::int64_t> seed = 1000, std::uint32_t cap = 16)
    : adapters(std::move(as)) {
    std::vector<vote_judge> vjs;
    for (auto& a : adapters) {
      judge_spec spec;
      spec.type = "test";
      spec.model = "m";
      spec.seed = seed;
      spec.max_in_flight = cap;
      judge_actor j = t.sys.spawn(judge, spec, a);
      this->judges.push_back(j);
      vjs.push_back({j, a->id(), spec.model, spec.temperature, seed, cap});
    }
    coordinator = t.sys.spawn(vote_coordinator, vjs, vs);
  }

  // Pending deadline timers keep the coordinator referenced: end it (and
  // its judges) explicitly, as the pipeline does.
  ~rig() {
    caf::anon_send_exit(coordinator, caf::exit_reason::user_shutdown);
    for (auto& j : judges)
      caf::anon_send_exit(j, caf::exit_reason::user_shutdown);
  }

  std::vector<judge_actor> judges;

  std::shared_ptr<reply<vote_result>> vote(answer_pair p) {
    return ask<vote_result>(t.sys, coordinator, std::move(p));
  }
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
  auto judge_stub = scripted_judge({canonical("EQUIVALENT")}, script_end::cycle);
  rig r({judge_stub}, votes(3, 2));
  auto res = r.vote(pair_of("  ", "5"));
  r.t.run();
  REQUIRE(res->value);
  CHECK(res->value->absent);
  CHECK(res->value->outcome.detail == "absent");
  CHECK_FALSE(res->value->outcome.equivalent.has_value());
  CHECK(res->value->records.empty());
  CHECK(judge_stub->calls() == 0);
}

TEST_CASE("votes=5 k=3 all EQUIVALENT: exactly 3 calls and 2 not cast") {
  auto judge_stub = scripted_judge({canonical("EQUIVALENT")}, script_end::cycle);
  rig r({judge_stub}, votes(5, 3));
  auto res = r.vote(pair_of("200", "two hundred"));
  r.t.run();
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
  auto judge_stub = scripted_judge({canonical("EQUIVALENT"),
                                    canonical("EQUIVALENT"),
                                    canonical("DIFFERENT"),
                                    canonical("EQUIVALENT")});
  rig r({judge_stub}, votes(5, 3));
  auto res = r.vote(pair_of("1", "1"));
  r.t.run();
  REQUIRE(res->value);
  CHECK(judge_stub->calls() == 4);
  CHECK(res->value->counts.equivalent == 3);
  CHECK(res->value->counts.different == 1);
  CHECK(res->value->counts.not_cast == 1);
  CHECK(res->value->outcome.equivalent == std::optional<bool>{true});
}

TEST_CASE("votes=3 k=3 with a 2-1 split yields null and never true or false") {
  auto judge_stub = scripted_judge({canonical("EQUIVALENT"),
                                    canonical("EQUIVALENT"),
                                    canonical("DIFFERENT")});
  rig r({judge_stub}, votes(3, 3));
  auto res = r.vote(pair_of("1", "1"));
  r.t.run();
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
  r.t.run();
  CHECK(silent->calls() == 1);
  CHECK_FALSE(res->done);
  r.t.advance(std::chrono::seconds(4));
  CHECK_FALSE(res->done);
  r.t.advance(std::chrono::seconds(2));
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
    r.t.run();
}

TEST_CASE("a judge failing every call gives a fault outcome and never true "
          "or false") {
  rig r({failing_judge()}, votes(3, 2));
  auto res = r.vote(pair_of("1", "1"));
  r.t.run();
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
  r.t.run();
  REQUIRE(silent->calls() == 2);
  // The judge reads its own "A" as 1 and its own "B" as 2 every time.
  silent->complete_next(canonical("DIFFERENT", "1", "2"));
  silent->complete_next(canonical("DIFFERENT", "1", "2"));
  r.t.run();
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

TEST_CASE("votes spread over several judges with the least loaded first") {
  auto j1 = std::make_shared<manual_adapter>();
  auto j2 = std::make_shared<manual_adapter>();
  rig r({j1, j2}, votes(4, 3));
  auto res = r.vote(pair_of("1", "1"));
  r.t.run();
  CHECK(j1->calls() + j2->calls() == 3);
  CHECK(j1->calls() >= 1);
  CHECK(j2->calls() >= 1);
  while (j1->complete_next(canonical("EQUIVALENT"))
         || j2->complete_next(canonical("EQUIVALENT")))
    r.t.run();
  REQUIRE(res->value);
  CHECK(res->value->outcome.equivalent == std::optional<bool>{true});
  CHECK(res->value->counts.not_cast == 1);
}

TEST_CASE("votes=1 maps ABSTAIN as SPEC §3 says with abstain_as_neither either way") {
  for (bool aan : {true, false}) {
    auto vs = votes(1, 1);
    vs.abstain_as_neither = aan;
    rig r({always_abstain_judge()}, vs);
    auto res = r.vote(pair_of("1", "x"));
    r.t.run();
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
  r.t.run();
  REQUIRE(res->value);
  CHECK_FALSE(res->value->outcome.equivalent.has_value());
  CHECK(res->value->counts.abstain >= 2);
}

TEST_CASE("the always-EQUIVALENT and always-DIFFERENT stubs decide as they "
          "say") {
  rig eq({always_equivalent_judge()}, votes(1, 1));
  auto a = eq.vote(pair_of("1", "2"));
  eq.t.run();
  REQUIRE(a->value);
  CHECK(a->value->outcome.equivalent == std::optional<bool>{true});
  rig diff({always_different_judge()}, votes(1, 1));
  auto b = diff.vote(pair_of("1", "1"));
  diff.t.run();
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
  r.t.run();
  // Capacity 1: one vote at the judge, two waiting here.
  CHECK(manual->calls() == 1);
  for (int i = 0; i < 3; ++i) {
    // Each vote takes 4 s of the 5 s deadline: no vote times out, although
    // the last one waited 8 s before its judge had room.
    r.t.advance(std::chrono::seconds(4));
    REQUIRE(manual->complete_next(canonical("EQUIVALENT")));
    r.t.run();
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
    results.push_back(r.vote(pair_of(std::to_string(i % 4), std::to_string(i % 4),
                                     "p" + std::to_string(i))));
  r.t.run();
  for (int i = 0; i < 20; ++i) {
    REQUIRE(results[i]->value);
    CHECK(results[i]->value->pair_id == "p" + std::to_string(i));
    CHECK(results[i]->value->outcome.equivalent == std::optional<bool>{true});
    CHECK(results[i]->value->records.size() == 2);
  }
}
