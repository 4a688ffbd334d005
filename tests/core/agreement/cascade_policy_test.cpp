// The cascade's audit draw and its tally (core/agreement/cascade_policy.hpp,
// core/agreement/cascade_tally.hpp).
#include <string>

#include <catch2/catch.hpp>

#include "core/agreement/cascade_policy.hpp"
#include "core/agreement/cascade_tally.hpp"

using namespace ij;

TEST_CASE(
  "the audit draw is fixed by seed and pair id, and near the declared rate") {
  std::size_t drawn = 0;
  for (int i = 0; i < 10000; ++i) {
    auto id = "pair-" + std::to_string(i);
    bool a = cascade_audits(7, id, 0.1);
    CHECK(a == cascade_audits(7, id, 0.1));
    drawn += a;
  }
  // Binomial(10000, 0.1): sd 30; 6 sd either side.
  CHECK(drawn > 820);
  CHECK(drawn < 1180);
  CHECK_FALSE(cascade_audits(7, "x", 0.0));
  CHECK(cascade_audits(7, "x", 1.0));
  std::size_t differ = 0;
  for (int i = 0; i < 200; ++i) {
    auto id = "p" + std::to_string(i);
    differ += cascade_audits(1, id, 0.5) != cascade_audits(2, id, 0.5);
  }
  CHECK(differ > 50); // another seed draws other pairs
}

TEST_CASE("disagreement needs both judges decided and different") {
  equivalence_outcome yes{true, 1, "", false}, no{false, 1, "", false},
    none{std::nullopt, 0, "", false}, fault{std::nullopt, 0, "", true};
  CHECK(cascade_disagrees(yes, no));
  CHECK_FALSE(cascade_disagrees(yes, yes));
  CHECK_FALSE(cascade_disagrees(yes, none));
  CHECK_FALSE(cascade_disagrees(none, no));
  CHECK(rules_decided(no));
  CHECK_FALSE(rules_decided(fault));
}

TEST_CASE("the cascade tally counts paths, audit findings, LLM calls and an "
          "LLM-only estimate") {
  cascade_tally t{cascade_config{"rules", "llm", 0.5, 1}};
  auto part = [](std::string role, std::optional<bool> eq,
                 std::uint32_t calls) {
    judge_part p;
    p.judge = role;
    p.role = role;
    p.outcome.equivalent = eq;
    p.counts.equivalent = eq && *eq ? calls : 0;
    p.counts.different = eq && !*eq ? calls : 0;
    p.counts.abstain = eq ? 0 : calls;
    return p;
  };
  auto add = [&](std::string route, std::vector<judge_part> parts,
                 std::uint64_t tokens) {
    vote_result vr;
    vr.route = route;
    for (auto& p : parts)
      for (std::uint32_t i = 0;
           i < p.counts.equivalent + p.counts.different + p.counts.abstain;
           ++i) {
        judge_record r;
        r.input_tokens = p.role == "llm" ? tokens : 0;
        r.output_tokens = p.role == "llm" ? 1 : 0;
        vr.records.push_back(r);
      }
    vr.parts = std::move(parts);
    t.add(vr);
  };
  add("rules", {part("rules", true, 1)}, 0);
  add("rules", {part("rules", false, 1)}, 0);
  add("fallback", {part("rules", std::nullopt, 1), part("llm", true, 2)}, 100);
  add("audited", {part("rules", true, 1), part("llm", false, 2)}, 100);
  add("audited", {part("rules", false, 1), part("llm", false, 2)}, 100);
  auto& s = t.summary();
  CHECK(s.pairs == 5);
  CHECK(s.rules_decided == 4);
  CHECK(s.fallback == 1);
  CHECK(s.audited == 2);
  CHECK(s.audit_agree == 1);
  CHECK(s.audit_disagree == 1);
  CHECK(s.equivalent_checked == 1);
  CHECK(s.equivalent_confirmed == 0);
  CHECK(s.different_confirmed == 1);
  CHECK(s.rules_calls == 5);
  CHECK(s.llm_calls == 6);
  CHECK(s.llm_pairs == 3);
  CHECK(s.llm_input_tokens == 600);
  auto e = estimate_llm_only(s);
  REQUIRE(e.known);
  CHECK(e.calls == Approx(10.0)); // 2 calls per pair, 5 pairs
  CHECK(e.saved_calls == Approx(4.0));
  CHECK(e.input_tokens == Approx(1000.0));
  CHECK_FALSE(estimate_llm_only(cascade_summary{}).known);
}
