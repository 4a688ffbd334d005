// A panel's rule over its judges' outcomes, the agreement tiers, and the
// run's panel tally (core/agreement/panel_rule.hpp,
// core/agreement/panel_tally.hpp).
#include <catch2/catch.hpp>

#include "core/agreement/panel_rule.hpp"
#include "core/agreement/panel_tally.hpp"

using namespace ij;

namespace {

equivalence_outcome eq() {
  return {true, 1.0, "eq", false};
}
equivalence_outcome diff() {
  return {false, 1.0, "diff", false};
}
equivalence_outcome neither() {
  return {std::nullopt, 0.0, "no agreement", false};
}
equivalence_outcome fault() {
  return {std::nullopt, 0.0, "votes failed", true};
}

} // namespace

TEST_CASE("unanimous: decided only when every judge gives the same decision") {
  auto all = decide_panel(panel_rule::unanimous, {eq(), eq(), eq()});
  CHECK(all.outcome.equivalent == true);
  CHECK_FALSE(all.outcome.fault);
  CHECK(all.tier == agreement_tier::all);
  auto two = decide_panel(panel_rule::unanimous, {diff(), diff()});
  CHECK(two.outcome.equivalent == false);
  auto split = decide_panel(panel_rule::unanimous, {eq(), diff()});
  CHECK_FALSE(split.outcome.equivalent.has_value());
  CHECK_FALSE(split.outcome.fault);
  CHECK(split.tier == agreement_tier::split);
  auto most = decide_panel(panel_rule::unanimous, {eq(), eq(), diff()});
  CHECK_FALSE(most.outcome.equivalent.has_value());
  CHECK(most.tier == agreement_tier::majority);
  auto abstained = decide_panel(panel_rule::unanimous, {eq(), neither()});
  CHECK_FALSE(abstained.outcome.equivalent.has_value());
  CHECK_FALSE(abstained.outcome.fault);
}

TEST_CASE("majority: decided when more than half of the panel agrees") {
  auto most = decide_panel(panel_rule::majority, {eq(), eq(), diff()});
  CHECK(most.outcome.equivalent == true);
  CHECK(most.outcome.confidence == Approx(2.0 / 3.0));
  CHECK(most.tier == agreement_tier::majority);
  // Half is not more than half.
  auto half = decide_panel(panel_rule::majority, {eq(), eq(), diff(), diff()});
  CHECK_FALSE(half.outcome.equivalent.has_value());
  CHECK(half.tier == agreement_tier::split);
  // Of the whole panel, not of those that answered.
  auto thin = decide_panel(panel_rule::majority, {eq(), neither(), neither()});
  CHECK_FALSE(thin.outcome.equivalent.has_value());
}

TEST_CASE(
  "a faulted judge that could have made the agreement makes the pair a fault") {
  auto u = decide_panel(panel_rule::unanimous, {eq(), fault()});
  CHECK(u.outcome.fault);
  CHECK_FALSE(u.outcome.equivalent.has_value());
  // The others already disagree: no fault could have decided it.
  auto d = decide_panel(panel_rule::unanimous, {eq(), diff(), fault()});
  CHECK_FALSE(d.outcome.fault);
  auto m = decide_panel(panel_rule::majority, {eq(), fault(), diff()});
  CHECK(m.outcome.fault);
  // A majority despite the fault decides.
  auto ok = decide_panel(panel_rule::majority, {eq(), eq(), fault()});
  CHECK(ok.outcome.equivalent == true);
  CHECK(decide_panel(panel_rule::unanimous, {fault(), fault()}).tier
        == agreement_tier::all);
}

TEST_CASE("rule names round-trip, other names are refused") {
  for (auto r : {panel_rule::unanimous, panel_rule::majority})
    CHECK(panel_rule_from_string(to_string(r)) == r);
  CHECK_FALSE(panel_rule_from_string("all"));
}

TEST_CASE("the panel tally counts tiers, skips faulted pairs in kappa, and "
          "keeps a confusion per judge") {
  panel_config pc{{"a", "b"}, panel_rule::unanimous};
  panel_tally t{pc, 0.05};
  auto pair = [&](equivalence_outcome x, equivalence_outcome y,
                  std::optional<bool> label) {
    vote_result vr;
    vr.parts = {judge_part{"a", "panel", x, {}},
                judge_part{"b", "panel", y, {}}};
    vr.route = std::string{to_string(decide_panel(pc.rule, {x, y}).tier)};
    t.add(vr, label);
  };
  pair(eq(), eq(), true);
  pair(eq(), eq(), true);
  pair(diff(), diff(), false);
  pair(diff(), eq(), false);
  pair(eq(), fault(), true);
  vote_result absent;
  absent.absent = true;
  t.add(absent, true);
  auto s = t.summary();
  CHECK(s.enabled);
  CHECK(s.pairs == 5);
  CHECK(s.all == 3);
  CHECK(s.split == 2);
  CHECK(s.rated == 4);
  CHECK(s.raw == Approx(0.75));
  CHECK(s.kappa_kind == "cohen");
  // Ratings (a, b): (E,E) x2, (D,D), (D,E): p_o 3/4, p_e = 2/4*3/4 + 2/4*1/4.
  REQUIRE(s.kappa_defined);
  CHECK(s.kappa == Approx((0.75 - 0.5) / (1 - 0.5)));
  REQUIRE(s.confusion.size() == 2);
  // Judge b: EQUIVALENT on 2 true, 1 false; the fault counts as NEITHER.
  CHECK(s.confusion[1].cells == std::vector<std::uint64_t>{2, 1, 0, 1, 1, 0});
  CHECK(s.confusion[0].cells == std::vector<std::uint64_t>{3, 0, 0, 2, 0, 0});
}

TEST_CASE("without labels the panel summary has no confusion, three judges use "
          "Fleiss") {
  panel_config pc{{"a", "b", "c"}, panel_rule::majority};
  panel_tally t{pc, 0.05};
  vote_result vr;
  vr.parts = {judge_part{"a", "panel", eq(), {}},
              judge_part{"b", "panel", eq(), {}},
              judge_part{"c", "panel", diff(), {}}};
  vr.route = "majority";
  t.add(vr, std::nullopt);
  auto s = t.summary();
  CHECK(s.kappa_kind == "fleiss");
  CHECK(s.majority == 1);
  CHECK(s.confusion.empty());
}
