// The driver's run summary: what `invjudge run` prints at the end.
#include <catch2/catch.hpp>

#include "tools/run_report.hpp"

using namespace ij;

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
  CHECK(
    text.find(
      "7 recorded: 7 sent, 0 refused by the breaker, 0 refused by a budget; "
      "2 skipped by early stop")
    != std::string::npos);
  CHECK(text.find("stub:numeric") != std::string::npos);
  CHECK(text.find("comparator outcome x label (3 labelled pairs)")
        != std::string::npos);
  CHECK(text.find("audit: a.jsonl") != std::string::npos);
  // Calls recorded but never sent are counted apart (issue 20).
  auto refused = s;
  refused.judge_calls = 37;
  refused.calls_sent = 6;
  refused.calls_refused_breaker = 29;
  refused.faults = 37;
  refused.cached = 1;
  CHECK(r.render(refused, "a.jsonl", false)
          .find("judge calls: 37 recorded: 6 sent, 29 refused by the breaker, "
                "0 refused by "
                "a budget, 1 from the cache, 1 taken by no worker; 2 skipped "
                "by early stop; "
                "37 faults")
        != std::string::npos);
  s.final_hash = std::string(64, 'f');
  CHECK(r.render(s, "a.jsonl", false).find("final hash: " + s.final_hash)
        != std::string::npos);
  CHECK(r.render(s, "a.jsonl", true).find("run INTERRUPTED")
        != std::string::npos);
}
