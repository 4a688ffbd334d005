#include <optional>
#include <stdexcept>

#include <catch2/catch.hpp>

#include "adapter_test_support.hpp"
#include "adapters/llm_judge_comparator.hpp"
#include "adapters/stub_judges.hpp"
#include "core/prompts/prompt.hpp"
#include "core/verdicts/outcome_mapping.hpp"
#include "core/wall_clock.hpp"

using namespace ij;

namespace {

equivalence_outcome compare(const async_comparator& cmp, std::string_view a,
                            std::string_view b) {
  std::optional<equivalence_outcome> got;
  int calls = 0;
  cmp(a, b, [&](equivalence_outcome o) {
    ++calls;
    got = std::move(o);
  });
  REQUIRE(calls == 1);
  return *got;
}

judge_options with_abstain(bool abstain_as_neither) {
  judge_options opts;
  opts.abstain_as_neither = abstain_as_neither;
  return opts;
}

const std::string eq_text =
  canonical_reply(judge_decision::equivalent, "Same.", "4", "4");

} // namespace

TEST_CASE("comparator: absent A or B gives the absent outcome without calling "
          "the judge",
          "[comparator]") {
  auto judge = scripted_judge({text_reply(eq_text)}, script_end::cycle);
  auto cmp = llm_judge_comparator(judge);
  for (auto [a, b] :
       {std::pair{"", "4"}, std::pair{"4", ""}, std::pair{"  \n\t", "4"},
        std::pair{"4", " "}, std::pair{"", ""}}) {
    auto out = compare(cmp, a, b);
    CHECK_FALSE(out.equivalent);
    CHECK(out.confidence == 0.0);
    CHECK(out.detail == "absent");
    CHECK_FALSE(out.fault);
  }
  CHECK(judge->calls() == 0);
  // A present pair does reach the judge, with the canonical prompt.
  compare(cmp, "4", "four");
  CHECK(judge->calls() == 1);
  CHECK(judge->prompts().at(0) == build_judge_prompt("4", "four"));
}

TEST_CASE("comparator: EQUIVALENT gives true with confidence 1",
          "[comparator]") {
  for (bool neither : {true, false}) {
    auto out = compare(
      llm_judge_comparator(always_equivalent_judge(), with_abstain(neither)),
      "4", "4");
    CHECK(out.equivalent == std::optional<bool>{true});
    CHECK(out.confidence == 1.0);
    CHECK_FALSE(out.fault);
  }
}

TEST_CASE("comparator: DIFFERENT gives false with confidence 1",
          "[comparator]") {
  for (bool neither : {true, false}) {
    auto out = compare(
      llm_judge_comparator(always_different_judge(), with_abstain(neither)),
      "4", "5");
    CHECK(out.equivalent == std::optional<bool>{false});
    CHECK(out.confidence == 1.0);
    CHECK_FALSE(out.fault);
  }
}

TEST_CASE("comparator: ABSTAIN gives null by default, false when "
          "abstain_as_neither is off",
          "[comparator]") {
  auto neither =
    compare(llm_judge_comparator(always_abstain_judge()), "4", "x");
  CHECK_FALSE(neither.equivalent);
  CHECK(neither.confidence == 0.0);
  CHECK_FALSE(neither.fault);
  auto safer =
    compare(llm_judge_comparator(always_abstain_judge(), with_abstain(false)),
            "4", "x");
  CHECK(safer.equivalent == std::optional<bool>{false});
  CHECK(safer.confidence == 0.0);
  CHECK_FALSE(safer.fault);
}

TEST_CASE("comparator: adapter transport error gives a null fault carrying "
          "the error",
          "[comparator]") {
  for (bool neither : {true, false}) {
    auto out = compare(llm_judge_comparator(failing_judge("HTTP 503 after 3 "
                                                          "attempts"),
                                            with_abstain(neither)),
                       "4", "4");
    CHECK_FALSE(out.equivalent);
    CHECK(out.confidence == 0.0);
    CHECK(out.fault);
    CHECK(out.detail == "HTTP 503 after 3 attempts");
  }
}

TEST_CASE("comparator: PARSE_ERROR gives null, not a fault", "[comparator]") {
  for (bool neither : {true, false}) {
    auto out = compare(
      llm_judge_comparator(malformed_judge(), with_abstain(neither)), "4", "4");
    CHECK_FALSE(out.equivalent);
    CHECK(out.confidence == 0.0);
    CHECK_FALSE(out.fault);
  }
}

TEST_CASE("comparator: an exception from the adapter becomes a fault",
          "[comparator]") {
  auto out = compare(
    llm_judge_comparator(std::make_shared<test::throwing_judge>()), "4", "4");
  CHECK_FALSE(out.equivalent);
  CHECK(out.fault);
  CHECK(out.detail == "judge adapter threw: socket exploded");
}

TEST_CASE("comparator: a null adapter is a fault, not a crash",
          "[comparator]") {
  auto out = compare(llm_judge_comparator(nullptr), "4", "4");
  CHECK_FALSE(out.equivalent);
  CHECK(out.fault);
  CHECK(out.detail == "no judge adapter");
}

TEST_CASE("comparator: an adapter replying twice is heard once",
          "[comparator]") {
  struct twice : judge_adapter {
    std::string id() const override { return "test:twice"; }
    void call(const std::string&, const call_options&,
              reply_handler done) override {
      done(text_reply(canonical_reply(judge_decision::equivalent, "x")));
      done(text_reply(canonical_reply(judge_decision::different, "y")));
      throw std::runtime_error("and then threw");
    }
  };
  auto out = compare(llm_judge_comparator(std::make_shared<twice>()), "4", "4");
  CHECK(out.equivalent == std::optional<bool>{true});
  CHECK_FALSE(out.fault);
}

TEST_CASE("comparator: a reply arriving later is delivered then, and keeps "
          "the adapter alive",
          "[comparator]") {
  auto judge = std::make_shared<test::silent_judge>();
  std::weak_ptr<test::silent_judge> watch = judge;
  std::optional<equivalence_outcome> got;
  {
    auto cmp = llm_judge_comparator(judge);
    cmp("4", "4", [&](equivalence_outcome o) { got = std::move(o); });
  }
  CHECK_FALSE(got);
  CHECK(judge->calls == 1);
  auto pending = std::move(judge->pending);
  judge.reset();
  CHECK_FALSE(watch.expired()); // held by the pending call
  pending(text_reply(canonical_reply(judge_decision::different, "No.")));
  REQUIRE(got);
  CHECK(got->equivalent == std::optional<bool>{false});
  pending = nullptr;
  CHECK(watch.expired());
}

TEST_CASE("comparator: an exception from the caller's own handler propagates",
          "[comparator]") {
  auto cmp = llm_judge_comparator(always_equivalent_judge());
  int calls = 0;
  CHECK_THROWS_WITH(cmp("4", "4",
                        [&](equivalence_outcome) {
                          ++calls;
                          throw std::runtime_error("caller bug");
                        }),
                    "caller bug");
  CHECK(calls == 1);
}

TEST_CASE("judge_once fills every field of the record",
          "[comparator][record]") {
  auto text =
    std::string{"Sure.\n"}
    + canonical_reply(judge_decision::equivalent, "Both are 12.", "12", "12.0");
  adapter_reply reply = text_reply(text);
  reply.attempts = 2;
  reply.input_tokens = 300;
  reply.output_tokens = 25;
  auto judge = scripted_judge({reply});
  judge_options opts;
  opts.call.model = "qwen2.5:7b";
  opts.call.temperature = 0.7;
  opts.call.seed = 100;
  judge_request req;
  req.pair_id = "p-17";
  req.a = "12";
  req.b = "twelve";
  req.vote_index = 3;
  req.has_seed = true;
  req.seed = 103;
  std::optional<judge_record> rec;
  std::optional<equivalence_outcome> out;
  auto before = wall_clock_ms();
  judge_once(judge, opts, req, [&](judge_record r, equivalence_outcome o) {
    rec = std::move(r);
    out = std::move(o);
  });
  auto after = wall_clock_ms();
  REQUIRE(rec);
  CHECK(rec->pair_id == "p-17");
  CHECK(rec->prompt_id == "invariance-checker/judge/v1");
  CHECK(rec->adapter_id == "stub:scripted");
  CHECK(rec->model == "qwen2.5:7b");
  CHECK(rec->temperature == 0.7);
  CHECK(rec->has_seed);
  CHECK(rec->seed == 103); // the request's seed wins
  CHECK(judge->options().at(0).seed == std::optional<std::int64_t>{103});
  CHECK(judge->prompts().at(0) == build_judge_prompt("12", "twelve"));
  CHECK(rec->vote_index == 3);
  CHECK_FALSE(rec->swapped);
  CHECK(rec->raw_text == text);
  CHECK(rec->decision == judge_decision::equivalent);
  CHECK(rec->reason == "Both are 12"); // the parser drops a final "."
  CHECK(rec->numeric_a == "12");
  CHECK(rec->numeric_b == "12.0");
  CHECK(rec->extra_text);
  CHECK_FALSE(rec->inconsistent);
  CHECK_FALSE(rec->transport_failed);
  CHECK(rec->transport_error.empty());
  CHECK(rec->attempts == 2);
  CHECK(rec->input_tokens == 300);
  CHECK(rec->output_tokens == 25);
  CHECK(rec->latency_ms >= 0.0);
  CHECK(before <= rec->started_at_ms);
  CHECK(rec->started_at_ms <= rec->finished_at_ms);
  CHECK(rec->finished_at_ms <= after);
  REQUIRE(out);
  CHECK(out->equivalent == std::optional<bool>{true});
}

TEST_CASE("judge_once swaps NUMERIC_A/B back when the vote was swapped",
          "[comparator][record]") {
  // The coordinator swapped: the judge saw the pair's B as "Answer A".
  auto judge = scripted_judge({text_reply(
    canonical_reply(judge_decision::different, "Differ.", "9", "NULL"))});
  judge_request req;
  req.pair_id = "p";
  req.a = "nine";
  req.b = "I give up";
  req.swapped = true;
  std::optional<judge_record> rec;
  judge_once(judge, {}, req,
             [&](judge_record r, equivalence_outcome) { rec = std::move(r); });
  REQUIRE(rec);
  CHECK(rec->swapped);
  CHECK(rec->numeric_a.empty());
  CHECK(rec->numeric_b == "9");
  CHECK(judge->prompts().at(0) == build_judge_prompt("nine", "I give up"));
}

TEST_CASE("judge_once keeps the options' seed when the request has none",
          "[comparator][record]") {
  auto judge = scripted_judge({text_reply(eq_text), text_reply(eq_text)});
  judge_options opts;
  opts.call.seed = 5;
  std::optional<judge_record> rec;
  judge_once(judge, opts, judge_request{},
             [&](judge_record r, equivalence_outcome) { rec = std::move(r); });
  REQUIRE(rec);
  CHECK(rec->has_seed);
  CHECK(rec->seed == 5);
  opts.call.seed.reset();
  judge_once(judge, opts, judge_request{},
             [&](judge_record r, equivalence_outcome) { rec = std::move(r); });
  CHECK_FALSE(rec->has_seed);
  CHECK(rec->seed == 0);
}

TEST_CASE("judge_once records a transport failure as a fault with its error",
          "[comparator][record]") {
  adapter_reply reply = error_reply("read timeout after 60000 ms");
  reply.text = "partial DECISION: EQUIV";
  reply.attempts = 3;
  auto judge = scripted_judge({reply});
  std::optional<judge_record> rec;
  std::optional<equivalence_outcome> out;
  judge_once(judge, {}, judge_request{},
             [&](judge_record r, equivalence_outcome o) {
               rec = std::move(r);
               out = std::move(o);
             });
  REQUIRE(rec);
  CHECK(rec->transport_failed);
  CHECK(rec->transport_error == "read timeout after 60000 ms");
  CHECK(rec->raw_text == "partial DECISION: EQUIV"); // kept, never parsed
  CHECK(rec->decision == judge_decision::parse_error);
  CHECK(rec->attempts == 3);
  REQUIRE(out);
  CHECK(out->fault);
  CHECK_FALSE(out->equivalent);
  CHECK(out->detail == "read timeout after 60000 ms");
}

TEST_CASE("judge_once does not shortcut absent answers: the judge is asked",
          "[comparator][record]") {
  auto judge = scripted_judge(
    {text_reply(canonical_reply(judge_decision::abstain, "A is missing."))});
  judge_request req;
  req.b = "4";
  std::optional<judge_record> rec;
  judge_once(judge, {}, req,
             [&](judge_record r, equivalence_outcome) { rec = std::move(r); });
  CHECK(judge->calls() == 1);
  REQUIRE(rec);
  CHECK(rec->decision == judge_decision::abstain);
}

TEST_CASE("make_judge_record flags an inconsistent decision",
          "[comparator][record]") {
  judge_request req;
  call_timing timing{1000, 1250, 250.0};
  auto rec = make_judge_record(
    req, {}, "stub:x",
    text_reply(canonical_reply(judge_decision::equivalent, "Same.", "3", "4")),
    timing);
  CHECK(rec.decision == judge_decision::equivalent);
  CHECK(rec.inconsistent);
  CHECK(rec.started_at_ms == 1000);
  CHECK(rec.finished_at_ms == 1250);
  CHECK(rec.latency_ms == 250.0);
  CHECK(outcome_of_record(rec, true).equivalent == std::optional<bool>{true});
}

TEST_CASE("outcome_of_record maps each decision and the fault",
          "[comparator][record]") {
  judge_record rec;
  rec.decision = judge_decision::abstain;
  CHECK_FALSE(outcome_of_record(rec, true).equivalent);
  CHECK(outcome_of_record(rec, false).equivalent == std::optional<bool>{false});
  rec.decision = judge_decision::parse_error;
  CHECK_FALSE(outcome_of_record(rec, false).equivalent);
  CHECK_FALSE(outcome_of_record(rec, false).fault);
  rec.decision = judge_decision::equivalent;
  rec.transport_failed = true;
  rec.transport_error = "boom";
  auto out = outcome_of_record(rec, false);
  CHECK(out.fault);
  CHECK_FALSE(out.equivalent);
  CHECK(out.detail == "boom");
}
