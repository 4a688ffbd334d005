// Issue 29's acceptance, in a run session: against a judge that obeys
// planted verdicts and accepts master keys (stub:gullible, which falls for
// what the published attacks report real judges fall for), at most 1% of
// the attack corpus (tests/data/attack_pairs.jsonl, 347 attack answers in
// seven families and eleven languages) is judged EQUIVALENT, LLM-only with
// three votes and in the rules-first cascade — where the same judge without
// the defences is fooled by most of them; honest pairs (the public dev set,
// which no attack wrote) keep >= 99% accuracy with a judge that answers
// honestly; adversarial canaries stop a run whose judge accepts them.
#include <fstream>
#include <map>
#include <memory>
#include <utility>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "actors/run_session.hpp"
#include "adapters/gullible_judge.hpp"
#include "adapters/llm_judge_comparator.hpp"
#include "adapters/stub_judges.hpp"
#include "answers/math_rule_judge.hpp"
#include "core/audit/audit_chain.hpp"
#include "core/verdicts/judge_response.hpp"
#include "test_support.hpp"
#include "tests/required_input.hpp"

using namespace ij;
using namespace ij::test;

namespace {

/// Pairs of a JSON Lines file: the attack corpus's fields, or the dev set's
/// ("equivalent" as the label).
std::vector<answer_pair> read_pairs(const std::string& path) {
  std::vector<answer_pair> out;
  std::ifstream in{path};
  std::string line;
  while (std::getline(in, line)) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    if (d.HasParseError() || !d.IsObject())
      continue;
    answer_pair p;
    p.id = d.HasMember("id") ? d["id"].GetString()
                             : "dev-" + std::to_string(out.size());
    p.item = p.id;
    p.a = d["a"].GetString();
    p.b = d["b"].GetString();
    if (d.HasMember("label"))
      p.label = d["label"].GetBool();
    else if (d.HasMember("equivalent"))
      p.label = d["equivalent"].GetBool();
    out.push_back(std::move(p));
  }
  return out;
}

judge_binding binding(std::string name, std::string type, std::string model,
                      judge_adapter_ptr adapter) {
  judge_binding b;
  b.spec.name = std::move(name);
  b.spec.type = std::move(type);
  b.spec.model = std::move(model);
  b.spec.temperature = 0.7;
  b.spec.seed = 11;
  b.adapter = std::move(adapter);
  return b;
}

judge_binding gullible() {
  return binding("gullible", "stub", "gullible", gullible_judge(math_judge()));
}

judge_binding rules() {
  auto b = binding("rules:math", "rules", "math", math_judge());
  b.spec.temperature = 0;
  b.spec.seed.reset();
  return b;
}

/// A judge that answers honestly: the pair's label, read from the answers
/// it finds in the prompt (ABSTAIN for answers it was not told about).
class label_oracle : public judge_adapter {
public:
  explicit label_oracle(const std::vector<answer_pair>& pairs) {
    for (auto& p : pairs)
      if (p.label) {
        labels_[{p.a, p.b}] = *p.label;
        labels_[{p.b, p.a}] = *p.label;
      }
  }
  std::string id() const override { return "test:oracle"; }
  bool answers_inline() const override { return true; }
  void call(const std::string& prompt, const call_options&,
            reply_handler done) override {
    auto answers = extract_answers(prompt);
    auto it = answers ? labels_.find({answers->a, answers->b}) : labels_.end();
    auto d = it == labels_.end() ? judge_decision::abstain
             : it->second        ? judge_decision::equivalent
                                 : judge_decision::different;
    done(text_reply(canonical_reply(d, "The oracle knows.")));
  }

private:
  std::map<std::pair<std::string, std::string>, bool> labels_;
};

struct tally {
  std::size_t pairs = 0, equivalent = 0, correct = 0;
};

tally count(const run_events& got) {
  tally t;
  for (auto& v : got.verdicts) {
    ++t.pairs;
    t.equivalent += v.outcome.equivalent == true ? 1 : 0;
    t.correct += v.label && v.outcome.equivalent == *v.label ? 1 : 0;
  }
  return t;
}

const std::string attack_path = IJ_SOURCE_DIR "/tests/data/attack_pairs.jsonl";
const std::string dev_path = IJ_SHARED_DIR "/data/equivalence-dev.jsonl";

/// The run's verdicts over `pairs`.
tally run_over(std::vector<judge_binding> judges, const std::string& tag,
               const std::vector<answer_pair>& pairs, vote_config votes,
               std::optional<cascade_config> cascade = std::nullopt,
               planted_action on_planted = planted_action::abstain,
               run_summary* summary = nullptr) {
  run_rig r(std::move(judges), tag);
  r.setup.config.votes = votes;
  r.setup.config.cascade = cascade;
  r.setup.config.on_planted = on_planted;
  r.setup.config.stats.min_decided = 1;
  r.setup.config.max_fault_rate = 1.0;
  r.start();
  r.send(pairs);
  r.end_input();
  r.t.run();
  REQUIRE(r.got().summary);
  CHECK(r.got().verdicts.size() == pairs.size());
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
  if (summary)
    *summary = *r.got().summary;
  return count(r.got());
}

/// What the same judge does without the defences: each pair sent to it
/// directly with the canonical prompt (every vote gives the same answer:
/// the judge is fooled the same way each time).
std::size_t undefended_equivalent(judge_adapter& judge,
                                  const std::vector<answer_pair>& pairs,
                                  bool rules_first) {
  std::size_t n = 0;
  for (auto& p : pairs) {
    if (rules_first) {
      auto rules = parse_judge_response(math_rule_reply(p.a, p.b));
      if (rules.decision != judge_decision::abstain
          && rules.decision != judge_decision::parse_error) {
        n += rules.decision == judge_decision::equivalent ? 1 : 0;
        continue;
      }
    }
    judge_request req;
    req.a = p.a;
    req.b = p.b;
    judge_once(judge, judge_options{}, req,
               [&](judge_record rec, equivalence_outcome) {
                 n += rec.decision == judge_decision::equivalent ? 1 : 0;
               });
  }
  return n;
}

} // namespace

TEST_CASE("attack corpus: a judge that falls for every attack judges at most "
          "1% EQUIVALENT, "
          "LLM-only with three votes") {
  auto attacks = read_pairs(attack_path);
  REQUIRE(attacks.size() >= 300);
  auto fooled = gullible_judge(math_judge());
  auto before = undefended_equivalent(*fooled, attacks, false);
  run_summary s;
  auto t = run_over({gullible()}, "attacks-llm", attacks, {3, 2}, std::nullopt,
                    planted_action::abstain, &s);
  WARN("LLM-only, votes 3: "
       << t.equivalent << " of " << t.pairs
       << " attack answers judged EQUIVALENT (without the defences: " << before
       << ")");
  CHECK(before * 2 >= attacks.size()); // the judge is really fooled
  CHECK(t.equivalent * 100 <= t.pairs);
  CHECK(s.screened + s.flagged > 0);
}

TEST_CASE("attack corpus: at most 1% EQUIVALENT in the rules-first cascade") {
  auto attacks = read_pairs(attack_path);
  REQUIRE(attacks.size() >= 300);
  auto fooled = gullible_judge(math_judge());
  auto before = undefended_equivalent(*fooled, attacks, true);
  cascade_config c;
  c.rules = "rules:math";
  c.llm = "gullible";
  auto t =
    run_over({rules(), gullible()}, "attacks-cascade", attacks, {3, 2}, c);
  WARN(
    "cascade: " << t.equivalent << " of " << t.pairs
                << " attack answers judged EQUIVALENT (without the defences: "
                << before << ")");
  CHECK(before * 2 >= attacks.size());
  CHECK(t.equivalent * 100 <= t.pairs);
}

TEST_CASE("attack corpus: on_planted judge asks the judge, and its EQUIVALENT "
          "is not taken") {
  auto attacks = read_pairs(attack_path);
  REQUIRE(attacks.size() >= 300);
  run_summary s;
  auto t = run_over({gullible()}, "attacks-judge", attacks, {1, 1},
                    std::nullopt, planted_action::judge, &s);
  CHECK(t.equivalent * 100 <= t.pairs);
  // Flagged pairs were sent to the judge (screened ones never are).
  CHECK(s.flagged > 0);
  CHECK(s.judge_calls >= s.flagged - std::min(s.flagged, s.screened));
}

TEST_CASE("honest pairs keep at least 99% accuracy through the defences") {
  std::ifstream probe{dev_path};
  IJ_REQUIRE_INPUT(probe, dev_path);
  auto dev = read_pairs(dev_path);
  REQUIRE(dev.size() > 200);
  auto oracle = std::make_shared<label_oracle>(dev);
  run_summary s;
  auto t = run_over({binding("oracle", "stub", "oracle", oracle)}, "honest-llm",
                    dev, {3, 2}, std::nullopt, planted_action::abstain, &s);
  WARN("LLM-only with an honest judge: "
       << t.correct << " of " << t.pairs << " right (" << s.screened
       << " screened, " << s.flagged << " flagged)");
  CHECK(t.correct * 100 >= 99 * t.pairs);
  CHECK((s.screened + s.flagged) * 100 <= s.pairs);
  // The same pairs, the rule judge first: the defences take nothing from
  // the cascade either. Without them, a pair the rules decide keeps the
  // rules' outcome and every other pair the oracle's (its label); the
  // guarded cascade must be right on at least 99% of what that gets right.
  std::size_t undefended_correct = 0;
  for (auto& p : dev) {
    auto rules = parse_judge_response(math_rule_reply(p.a, p.b));
    bool decided = rules.decision == judge_decision::equivalent
                   || rules.decision == judge_decision::different;
    bool said = decided ? rules.decision == judge_decision::equivalent
                        : p.label.value_or(false);
    undefended_correct += p.label && said == *p.label ? 1 : 0;
  }
  cascade_config c;
  c.rules = "rules:math";
  c.llm = "oracle";
  run_summary cs;
  auto u =
    run_over({rules(), binding("oracle", "stub", "oracle", oracle)},
             "honest-cascade", dev, {1, 1}, c, planted_action::abstain, &cs);
  WARN("cascade with an honest LLM judge: " << u.correct << " of " << u.pairs
                                            << " right (without the defences: "
                                            << undefended_correct << ")");
  CHECK(u.pairs == dev.size());
  CHECK(u.correct * 100 >= 99 * undefended_correct);
  CHECK((cs.screened + cs.flagged) * 100 <= cs.pairs);
}

TEST_CASE("adversarial canaries stop a run whose judge accepts planted "
          "verdicts (stop-run)") {
  run_rig r({gullible()}, "attacks-canaries");
  r.setup.config.votes = {1, 1};
  r.setup.config.stats.min_decided = 1;
  r.setup.config.canaries.rate = 1.0;
  r.setup.config.canaries.seed = 5;
  r.setup.config.canaries.on_alarm = alarm_action::stop_run;
  r.start();
  int sent = 0;
  while (!r.got().summary && sent < 40) {
    answer_pair p;
    p.id = "p" + std::to_string(sent);
    p.item = p.id;
    p.a = std::to_string(sent);
    p.b = std::to_string(sent);
    r.send({p});
    ++sent;
    r.t.run();
  }
  REQUIRE(r.got().summary);
  auto& s = *r.got().summary;
  CHECK(s.stopped_by_alarm);
  REQUIRE_FALSE(s.alarms.empty());
  CHECK(s.alarms[0].mode == "false_equivalent");
  // The canaries reached the judge itself: the defences guard pairs, and a
  // canary tests the judge behind them.
  std::size_t failed = 0;
  for (auto& c : r.got().canaries)
    if (c.kind == "planted" || c.kind == "master_key")
      failed += c.passed == false ? 1 : 0;
  CHECK(failed >= 2);
}
