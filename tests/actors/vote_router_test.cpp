// Panels, the rules-first cascade and budgets through a whole run session
// (issue 10): which judge is called for which pair and how often, the
// records each leaves in the audit, and the run's summary.
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "actors/judge_directory.hpp"
#include "actors/judge_worker.hpp"
#include "actors/run_session.hpp"
#include "adapters/stub_judges.hpp"
#include "core/audit/audit_chain.hpp"
#include "messages/error.hpp"
#include "test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

/// A judge of the rig: its configured spec and adapter.
judge_binding judge(std::string name, std::string type, std::string model,
                    judge_adapter_ptr adapter) {
  judge_binding b;
  b.spec.name = std::move(name);
  b.spec.type = std::move(type);
  b.spec.model = std::move(model);
  b.spec.max_in_flight = 4;
  b.adapter = std::move(adapter);
  return b;
}

answer_pair pair_of(std::string id, std::string a, std::string b,
                    std::optional<bool> label = std::nullopt) {
  answer_pair p;
  p.id = id;
  p.item = id;
  p.a = std::move(a);
  p.b = std::move(b);
  p.label = label;
  return p;
}

/// A directory with one worker per judge, and a run over them.
struct rig : run_rig {
  rig(std::vector<judge_binding> judges, const std::string& tag)
      : run_rig(std::move(judges), tag, "run-router") {}

  /// Starts the run with all its input, and runs what can run.
  void start(std::vector<answer_pair> pairs) {
    run_rig::start();
    send(std::move(pairs));
    end_input();
    t.run();
  }

  /// Runs the pairs to the run's end (judges that answer at once).
  void judge_all(std::vector<answer_pair> pairs) {
    start(std::move(pairs));
    REQUIRE(events.got->summary);
  }

  const run_summary& summary() const { return *events.got->summary; }

  std::map<std::string, single_verdict> verdicts() const {
    std::map<std::string, single_verdict> out;
    for (auto& v : events.got->verdicts)
      out[v.pair_id] = v;
    return out;
  }

  /// The audit's records of one type, parsed.
  std::vector<std::shared_ptr<rapidjson::Document>>
  records(const std::string& type) const {
    std::vector<std::shared_ptr<rapidjson::Document>> out;
    for (auto& line : lines_of(read_file(path))) {
      auto d = std::make_shared<rapidjson::Document>();
      d->Parse(line.c_str());
      REQUIRE_FALSE(d->HasParseError());
      if (type == (*d)["type"].GetString())
        out.push_back(d);
    }
    return out;
  }
};

std::string str(const rapidjson::Value& v) {
  return {v.GetString(), v.GetStringLength()};
}

// Pairs the rule judge decides (p-eq, p-diff), one it cannot read (p-words),
// and one with an absent answer (p-absent).
std::vector<answer_pair> cascade_pairs() {
  return {pair_of("p-eq", "The answer is 42.", "\\boxed{42}", true),
          pair_of("p-diff", "7", "8", false),
          pair_of("p-words", "no idea", "cannot tell", false),
          pair_of("p-absent", "5", "")};
}

} // namespace

TEST_CASE("cascade: only the pairs the rule judge leaves undecided reach the "
          "LLM judge") {
  auto llm = scripted_judge({canonical("DIFFERENT")}, script_end::cycle);
  rig r({judge("rules:math", "rules", "math", math_judge()),
         judge("llm", "stub", "scripted", llm)},
        "cascade-fallback");
  r.setup.config.votes = {3, 2};
  r.setup.config.cascade = cascade_config{"rules:math", "llm", 0.0, 1};
  r.judge_all(cascade_pairs());
  // One pair went on, with the run's votes (2 agreeing of 3 stop early).
  CHECK(llm->calls() == 2);
  auto v = r.verdicts();
  CHECK(v["p-eq"].rule == verdict_rule::i4);
  CHECK(v["p-diff"].rule == verdict_rule::i5);
  CHECK(v["p-words"].rule == verdict_rule::i5); // the LLM judge's outcome
  CHECK(v["p-absent"].rule == verdict_rule::i1);
  auto& c = r.summary().cascade;
  REQUIRE(c.enabled);
  CHECK(c.pairs == 3);
  CHECK(c.rules_decided == 2);
  CHECK(c.fallback == 1);
  CHECK(c.audited == 0);
  CHECK(c.rules_calls == 3);
  CHECK(c.llm_calls == 2);
  CHECK(c.llm_input_tokens == 20);
  CHECK(r.summary().judge_calls == 5);
  CHECK(r.records("cascade_disagreement").empty());
  // The vote record shows the path and each judge's part.
  for (auto& vote : r.records("vote")) {
    auto id = str((*vote)["pair_id"]);
    if (id == "p-absent") {
      CHECK_FALSE(vote->HasMember("parts"));
      continue;
    }
    auto& parts = (*vote)["parts"];
    CHECK(str(parts[0]["judge"]) == "rules:math");
    CHECK(str(parts[0]["role"]) == "rules");
    if (id == "p-words") {
      CHECK(str((*vote)["route"]) == "fallback");
      REQUIRE(parts.Size() == 2);
      CHECK(str(parts[1]["role"]) == "llm");
      CHECK(parts[1]["counts"]["different"].GetUint() == 2);
      CHECK((*vote)["judge_calls"].GetUint() == 3);
    } else {
      CHECK(str((*vote)["route"]) == "rules");
      CHECK(parts.Size() == 1);
    }
  }
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
}

TEST_CASE("cascade: audited pairs keep the rule judge's outcome, and each "
          "disagreement is a record") {
  // The LLM judge says DIFFERENT to everything: it disagrees with the rule
  // judge on p-eq only.
  auto llm = scripted_judge({canonical("DIFFERENT")}, script_end::cycle);
  rig r({judge("rules:math", "rules", "math", math_judge()),
         judge("llm", "stub", "scripted", llm)},
        "cascade-audit");
  r.setup.config.cascade = cascade_config{"rules:math", "llm", 1.0, 1};
  r.judge_all(cascade_pairs());
  CHECK(llm->calls() == 3); // two audited, one fallback; never the absent pair
  auto v = r.verdicts();
  CHECK(v["p-eq"].rule == verdict_rule::i4);
  CHECK(v["p-diff"].rule == verdict_rule::i5);
  auto& c = r.summary().cascade;
  CHECK(c.audited == 2);
  CHECK(c.audit_agree == 1);
  CHECK(c.audit_disagree == 1);
  CHECK(c.equivalent_checked == 1);
  CHECK(c.equivalent_confirmed == 0);
  CHECK(c.different_confirmed == 1);
  auto dis = r.records("cascade_disagreement");
  REQUIRE(dis.size() == 1);
  auto& d = *dis[0];
  CHECK(str(d["pair_id"]) == "p-eq");
  CHECK(str(d["rules"]["judge"]) == "rules:math");
  CHECK(d["rules"]["outcome"]["equivalent"].GetBool());
  CHECK_FALSE(d["llm"]["outcome"]["equivalent"].GetBool());
  auto ends = r.records("run_end");
  REQUIRE(ends.size() == 1);
  CHECK((*ends[0])["cascade"]["audit_disagree"].GetUint() == 1);
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
}

TEST_CASE(
  "panel: every judge judges every pair, unanimous decides only on agreement") {
  auto yes = scripted_judge({canonical("EQUIVALENT")}, script_end::cycle);
  rig r({judge("always-yes", "stub", "yes", yes),
         judge("numeric", "stub", "numeric", numeric_judge())},
        "panel");
  r.setup.config.panel =
    panel_config{{"always-yes", "numeric"}, panel_rule::unanimous};
  r.judge_all({pair_of("same", "12", "twelve", true),
               pair_of("other", "12", "13", false),
               pair_of("gone", "", "13", false)});
  CHECK(yes->calls() == 2);
  auto v = r.verdicts();
  CHECK(v["same"].rule == verdict_rule::i4);
  CHECK(v["other"].rule == verdict_rule::i3); // split: no decision
  CHECK(v["gone"].rule == verdict_rule::i1);
  auto& p = r.summary().panel;
  REQUIRE(p.enabled);
  CHECK(p.pairs == 2);
  CHECK(p.all == 1);
  CHECK(p.split == 1);
  CHECK(p.rated == 2);
  CHECK(p.raw == Approx(0.5));
  CHECK(p.kappa_kind == "cohen");
  REQUIRE(p.confusion.size() == 2);
  // always-yes: EQUIVALENT on one true and one false label.
  CHECK(p.confusion[0].cells == std::vector<std::uint64_t>{1, 1, 0, 0, 0, 0});
  CHECK(p.confusion[1].cells == std::vector<std::uint64_t>{1, 0, 0, 1, 0, 0});
  for (auto& vote : r.records("vote")) {
    if (str((*vote)["pair_id"]) != "other")
      continue;
    CHECK(str((*vote)["route"]) == "split");
    CHECK((*vote)["parts"].Size() == 2);
    CHECK((*vote)["parts"][0]["outcome"]["equivalent"].GetBool());
  }
  auto ends = r.records("run_end");
  REQUIRE(ends.size() == 1);
  CHECK(str((*ends[0])["panel"]["rule"]) == "unanimous");
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
}

TEST_CASE("budget: a judge at max_calls makes no more calls, its remaining "
          "votes are budget faults") {
  auto pairs = [] {
    std::vector<answer_pair> out;
    for (int i = 0; i < 8; ++i)
      out.push_back(pair_of("p" + std::to_string(i), std::to_string(i),
                            std::to_string(i % 2 ? i : i + 1)));
    return out;
  };
  // The same run without a budget, for the verdicts.
  std::map<std::string, single_verdict> free;
  {
    rig r({judge("n", "stub", "numeric", numeric_judge())}, "budget-free");
    r.judge_all(pairs());
    free = r.verdicts();
  }
  rig r({judge("n", "stub", "numeric", numeric_judge())}, "budget");
  r.setup.config.judges[0].budget.max_calls = 3;
  r.setup.config.judges[0].prices = token_prices{1.0, 2.0};
  r.judge_all(pairs());
  // The run ended (no hang), every pair with a verdict.
  auto v = r.verdicts();
  REQUIRE(v.size() == 8);
  std::size_t faults = 0;
  for (auto& [id, x] : v) {
    if (x.rule == verdict_rule::i2) {
      ++faults;
      continue;
    }
    CHECK(x.rule == free[id].rule);
    CHECK(x.outcome.equivalent == free[id].outcome.equivalent);
  }
  CHECK(faults == 5);
  auto& s = r.summary();
  REQUIRE(s.spend.size() == 1);
  CHECK(s.spend[0].judge == "n");
  CHECK(s.spend[0].calls == 3);
  CHECK(s.spend[0].budget_faults == 5);
  CHECK(s.spend[0].has_max_calls);
  CHECK(s.spend[0].max_calls == 3);
  CHECK(s.spend[0].priced);
  CHECK(s.faults_by_kind[static_cast<std::size_t>(fault_kind::budget)] == 5);
  std::size_t budget_records = 0;
  for (auto& call : r.records("judge_call"))
    if ((*call)["fault_kind"].IsString()
        && str((*call)["fault_kind"]) == "budget") {
      ++budget_records;
      CHECK(str((*call)["transport_error"]).find("max_calls 3 reached")
            != std::string::npos);
    }
  CHECK(budget_records == 5);
  auto ends = r.records("run_end");
  REQUIRE(ends.size() == 1);
  CHECK((*ends[0])["spend"][0]["budget_faults"].GetUint() == 5);
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
}

TEST_CASE("budget: a token limit reached mid-run stops the calls, the votes "
          "left are faults at once") {
  auto slow = std::make_shared<manual_adapter>();
  auto b = judge("slow", "stub", "manual", slow);
  b.spec.max_in_flight = 2;
  rig r({b}, "budget-tokens");
  // 10 input tokens per reply: reached with the third.
  r.setup.config.judges[0].budget.max_input_tokens = 30;
  std::vector<answer_pair> pairs;
  for (int i = 0; i < 10; ++i)
    pairs.push_back(pair_of("q" + std::to_string(i), "1", "1"));
  r.start(pairs);
  CHECK(slow->calls() == 2); // its capacity
  std::size_t replies = 0;
  while (slow->complete_next(canonical("EQUIVALENT"))) {
    ++replies;
    r.t.run();
  }
  // Two calls were in flight when the limit was reached; none after it.
  CHECK(slow->calls() == 4);
  CHECK(replies == 4);
  REQUIRE(r.events.got->summary);
  std::size_t decided = 0, refused = 0;
  for (auto& [id, x] : r.verdicts()) {
    decided += x.rule == verdict_rule::i4;
    refused += x.rule == verdict_rule::i2;
  }
  CHECK(decided == 4);
  CHECK(refused == 6);
  auto& s = r.summary();
  REQUIRE(s.spend.size() == 1);
  CHECK(s.spend[0].input_tokens == 40);
  CHECK(s.spend[0].has_max_input_tokens);
  CHECK(s.spend[0].budget_faults == 6);
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
}

TEST_CASE("budget: with pooled votes, a judge at its budget leaves the votes "
          "to the others") {
  auto capped = scripted_judge({canonical("EQUIVALENT")}, script_end::cycle);
  auto spare = scripted_judge({canonical("EQUIVALENT")}, script_end::cycle);
  auto a = judge("capped", "stub", "scripted", capped);
  auto b = judge("spare", "stub", "scripted-2", spare);
  rig r({a, b}, "budget-pooled");
  r.setup.config.judges[0].budget.max_calls = 2;
  std::vector<answer_pair> pairs;
  for (int i = 0; i < 12; ++i)
    pairs.push_back(pair_of("q" + std::to_string(i), "1", "1"));
  r.judge_all(pairs);
  CHECK(capped->calls() == 2);
  CHECK(spare->calls() == 10);
  for (auto& [id, x] : r.verdicts())
    CHECK(x.rule == verdict_rule::i4);
  CHECK(r.summary().faults == 0);
}

TEST_CASE("a panel or cascade naming a judge that is not configured is refused "
          "before anything is spawned") {
  rig r({judge("numeric", "stub", "numeric", numeric_judge())},
        "routes-refused");
  r.setup.config.cascade = cascade_config{"numeric", "nobody", 0.0, 0};
  auto run = spawn_run(r.t.sys, r.setup);
  REQUIRE_FALSE(run);
  CHECK(render_error(run.error())
          .find("the cascade names judge \"nobody\", which is not configured")
        != std::string::npos);
  r.setup.config.cascade.reset();
  r.setup.config.panel = panel_config{{"numeric"}, panel_rule::majority};
  CHECK_FALSE(spawn_run(r.t.sys, r.setup));
}
