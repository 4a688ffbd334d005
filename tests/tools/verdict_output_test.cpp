// The output lines: one JSON object each, with the documented fields.
#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include "tools/run_report.hpp"
#include "runio/verdict_output.hpp"

using namespace ij;

TEST_CASE("a pair verdict line carries verdict, rule, outcome, votes and label") {
  single_verdict v;
  v.pair_id = "p\"1";
  v.item = "q";
  v.verdict = verdict_kind::violated;
  v.rule = verdict_rule::i5;
  v.outcome.equivalent = false;
  v.outcome.confidence = 0.6;
  v.outcome.detail = "DIFFERENT";
  v.counts = vote_counts{5, 3, 1, 3, 0, 0, 0, 1};
  v.label = true;
  auto line = pair_verdict_line(v);
  rapidjson::Document d;
  d.Parse(line.c_str());
  REQUIRE_FALSE(d.HasParseError());
  CHECK(d["kind"].GetString() == std::string{"pair"});
  CHECK(d["id"].GetString() == std::string{"p\"1"});
  CHECK(d["item"].GetString() == std::string{"q"});
  CHECK(d["verdict"].GetString() == std::string{"VIOLATED"});
  CHECK(d["rule"].GetString() == std::string{"I5"});
  CHECK(d["equivalent"].IsFalse());
  CHECK(d["confidence"].GetDouble() == 0.6);
  CHECK(d["votes"]["votes"].GetUint() == 5);
  CHECK(d["votes"]["min_agreement"].GetUint() == 3);
  CHECK(d["votes"]["equivalent"].GetUint() == 1);
  CHECK(d["votes"]["different"].GetUint() == 3);
  CHECK(d["votes"]["abstain"].GetUint() == 0);
  CHECK(d["votes"]["parse_error"].GetUint() == 0);
  CHECK(d["votes"]["faults"].GetUint() == 0);
  CHECK(d["votes"]["not_cast"].GetUint() == 1);
  CHECK(d["label"].IsTrue());
  CHECK(line.find('\n') == std::string::npos);

  v.outcome.equivalent.reset();
  v.label.reset();
  auto unlabelled = pair_verdict_line(v);
  d.Parse(unlabelled.c_str());
  CHECK(d["equivalent"].IsNull());
  CHECK_FALSE(d.HasMember("label"));
}

TEST_CASE("an item verdict line carries counts, p and the interval") {
  statistical_verdict v;
  v.item = "q";
  v.verdict = verdict_kind::invariant;
  v.rule = verdict_rule::i4;
  v.c1 = 1;
  v.c3 = 2;
  v.c4 = 20;
  v.n = 23;
  v.decided = 20;
  v.p = 1.0;
  v.lo = 0.83;
  v.hi = 1.0;
  rapidjson::Document d;
  d.Parse(item_verdict_line(v).c_str());
  REQUIRE_FALSE(d.HasParseError());
  CHECK(d["kind"].GetString() == std::string{"item"});
  CHECK(d["item"].GetString() == std::string{"q"});
  CHECK(d["verdict"].GetString() == std::string{"INVARIANT"});
  CHECK(d["rule"].GetString() == std::string{"I4"});
  CHECK(d["counts"]["I1"].GetUint() == 1);
  CHECK(d["counts"]["I2"].GetUint() == 0);
  CHECK(d["counts"]["I3"].GetUint() == 2);
  CHECK(d["counts"]["I4"].GetUint() == 20);
  CHECK(d["counts"]["I5"].GetUint() == 0);
  CHECK(d["n"].GetUint() == 23);
  CHECK(d["decided"].GetUint() == 20);
  CHECK(d["p"].GetDouble() == 1.0);
  CHECK(d["lo"].GetDouble() == 0.83);
  CHECK(d["hi"].GetDouble() == 1.0);
}

TEST_CASE("the summary counts rules, calls, tokens and the confusion matrix") {
  run_report r;
  single_verdict eq;
  eq.rule = verdict_rule::i4;
  eq.outcome.equivalent = true;
  single_verdict neither;
  neither.rule = verdict_rule::i3;
  auto with = [](single_verdict v, std::optional<bool> label) {
    v.label = label;
    return v;
  };
  r.add(with(eq, true));
  r.add(with(eq, false));
  r.add(with(neither, true));
  r.add(with(neither, std::nullopt));
  run_summary s;
  s.judge_calls = 7;
  s.calls_sent = 7;
  s.calls_skipped = 2;
  s.usage = {judge_usage{"stub:numeric", 7, 0, 100, 20}};
  auto text = r.render(s, "a.jsonl", false);
  CHECK(text.find("run complete: 4 pairs judged") != std::string::npos);
  CHECK(text.find("7 recorded: 7 sent, 0 refused by the breaker, 0 refused by a budget; "
                  "2 skipped by early stop") != std::string::npos);
  CHECK(text.find("stub:numeric") != std::string::npos);
  CHECK(text.find("comparator outcome x label (3 labelled pairs)") != std::string::npos);
  CHECK(text.find("audit: a.jsonl") != std::string::npos);
  // Calls recorded but never sent are counted apart (issue 20).
  auto refused = s;
  refused.judge_calls = 37;
  refused.calls_sent = 6;
  refused.calls_refused_breaker = 29;
  refused.faults = 37;
  refused.cached = 1;
  CHECK(r.render(refused, "a.jsonl", false)
          .find("judge calls: 37 recorded: 6 sent, 29 refused by the breaker, 0 refused by "
                "a budget, 1 from the cache, 1 taken by no worker; 2 skipped by early stop; "
                "37 faults")
        != std::string::npos);
  s.final_hash = std::string(64, 'f');
  CHECK(r.render(s, "a.jsonl", false).find("final hash: " + s.final_hash)
        != std::string::npos);
  CHECK(r.render(s, "a.jsonl", true).find("run INTERRUPTED") != std::string::npos);
}
