// The judge actor: queue, in-flight cap, records (SPEC §10).
#include <catch2/catch.hpp>

#include <memory>

#include "actors/judge.hpp"
#include "adapters/stub_judges.hpp"
#include "core/prompt.hpp"
#include "test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

judge_spec spec_with_cap(std::uint32_t cap) {
  judge_spec s;
  s.name = "test";
  s.type = "test";
  s.model = "manual-model";
  s.temperature = 0.7;
  s.seed = 100;
  s.max_in_flight = cap;
  return s;
}

judge_request request_for(std::string id, std::uint32_t vote = 0) {
  judge_request r;
  r.pair_id = std::move(id);
  r.a = "The answer is 200.";
  r.b = "two hundred";
  r.vote_index = vote;
  r.has_seed = true;
  r.seed = 100 + vote;
  return r;
}

} // namespace

TEST_CASE("the judge actor keeps at most max_in_flight calls open and queues "
          "the rest") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  judge_actor j = t.sys.spawn(judge, spec_with_cap(2), adapter);
  std::vector<std::shared_ptr<reply<judge_record>>> replies;
  for (int i = 0; i < 5; ++i)
    replies.push_back(ask<judge_record>(t.sys, j, request_for("p" + std::to_string(i))));
  t.run();
  CHECK(adapter->calls() == 2);
  CHECK(adapter->open() == 2);
  for (auto& r : replies)
    CHECK_FALSE(r->done);
  // Each completion frees a slot for exactly one queued request.
  REQUIRE(adapter->complete_next(canonical("EQUIVALENT")));
  t.run();
  CHECK(adapter->calls() == 3);
  CHECK(replies[0]->done);
  while (adapter->complete_next(canonical("EQUIVALENT")))
    t.run();
  CHECK(adapter->calls() == 5);
  CHECK(adapter->peak_open() == 2);
  for (auto& r : replies) {
    REQUIRE(r->done);
    REQUIRE(r->value);
    CHECK(r->value->decision == judge_decision::equivalent);
  }
  CHECK(replies[4]->value->pair_id == "p4");
}

TEST_CASE("the adapter's own lower concurrency caps the judge actor") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>(true, 1);
  judge_actor j = t.sys.spawn(judge, spec_with_cap(8), adapter);
  auto r1 = ask<judge_record>(t.sys, j, request_for("a"));
  auto r2 = ask<judge_record>(t.sys, j, request_for("b"));
  t.run();
  CHECK(adapter->calls() == 1);
  adapter->complete_next(canonical("DIFFERENT"));
  t.run();
  CHECK(adapter->calls() == 2);
  adapter->complete_next(canonical("DIFFERENT"));
  t.run();
  CHECK(adapter->peak_open() == 1);
  REQUIRE(r2->value);
  CHECK(r2->value->decision == judge_decision::different);
}

TEST_CASE("a judge record carries every field of the call") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  judge_actor j = t.sys.spawn(judge, spec_with_cap(1), adapter);
  auto req = request_for("p7", 3);
  auto r = ask<judge_record>(t.sys, j, req);
  t.run();
  auto reply = canonical("EQUIVALENT", "200", "200");
  reply.text = "Sure!\n" + reply.text;
  reply.attempts = 2;
  adapter->complete_next(reply);
  t.run();
  REQUIRE(r->value);
  auto& rec = *r->value;
  CHECK(rec.pair_id == "p7");
  CHECK(rec.prompt_id == std::string{judge_prompt_id});
  CHECK(rec.adapter_id == "test:manual");
  CHECK(rec.model == "manual-model");
  CHECK(rec.temperature == 0.7);
  CHECK(rec.has_seed);
  CHECK(rec.seed == 103);
  CHECK(rec.vote_index == 3);
  CHECK_FALSE(rec.swapped);
  CHECK(rec.raw_text == reply.text);
  CHECK(rec.decision == judge_decision::equivalent);
  CHECK(rec.reason == "scripted");
  CHECK(rec.numeric_a == "200");
  CHECK(rec.numeric_b == "200");
  CHECK(rec.extra_text);
  CHECK_FALSE(rec.inconsistent);
  CHECK(rec.attempts == 2);
  CHECK(rec.input_tokens == 10);
  CHECK(rec.output_tokens == 3);
  CHECK(rec.started_at_ms > 0);
  CHECK(rec.finished_at_ms >= rec.started_at_ms);
  CHECK(rec.latency_ms >= 0.0);
  // The adapter got the canonical prompt and the request's seed.
  REQUIRE(adapter->prompts().size() == 1);
  CHECK(adapter->prompts()[0] == build_judge_prompt(req.a, req.b));
  CHECK(adapter->options()[0].seed == std::optional<std::int64_t>{103});
  CHECK(adapter->options()[0].model == "manual-model");
}

TEST_CASE("a request without seed reaches the adapter without seed") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  judge_actor j = t.sys.spawn(judge, spec_with_cap(1), adapter);
  auto req = request_for("p", 1);
  req.has_seed = false;
  auto r = ask<judge_record>(t.sys, j, req);
  t.run();
  adapter->complete_next(canonical("ABSTAIN"));
  t.run();
  REQUIRE(r->value);
  CHECK_FALSE(r->value->has_seed);
  CHECK_FALSE(adapter->options()[0].seed.has_value());
}

TEST_CASE("a transport failure is a record never an error reply") {
  test_system t;
  judge_actor j =
    t.sys.spawn(judge, spec_with_cap(1), failing_judge("connection refused"));
  auto r = ask<judge_record>(t.sys, j, request_for("p"));
  t.run();
  REQUIRE(r->done);
  REQUIRE(r->value);
  CHECK(r->value->transport_failed);
  CHECK(r->value->transport_error == "connection refused");
  CHECK(r->value->decision == judge_decision::parse_error);
}

TEST_CASE("synchronous stubs come back through the actor's mailbox") {
  test_system t;
  judge_actor j = t.sys.spawn(judge, spec_with_cap(1), numeric_judge());
  std::vector<std::shared_ptr<reply<judge_record>>> replies;
  for (int i = 0; i < 3; ++i)
    replies.push_back(ask<judge_record>(t.sys, j, request_for("p" + std::to_string(i))));
  t.run();
  for (auto& r : replies) {
    REQUIRE(r->value);
    CHECK(r->value->decision == judge_decision::equivalent);
  }
}

TEST_CASE("a swapped request swaps NUMERIC_A/B back into the pair's order") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  judge_actor j = t.sys.spawn(judge, spec_with_cap(1), adapter);
  auto req = request_for("p", 1);
  req.swapped = true;
  auto r = ask<judge_record>(t.sys, j, req);
  t.run();
  adapter->complete_next(canonical("DIFFERENT", "1", "2"));
  t.run();
  REQUIRE(r->value);
  CHECK(r->value->swapped);
  CHECK(r->value->numeric_a == "2");
  CHECK(r->value->numeric_b == "1");
}
