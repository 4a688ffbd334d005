#include <algorithm>
#include <sstream>

#include <catch2/catch.hpp>

#include "adapter_test_support.hpp"
#include "adapters/self_test.hpp"
#include "adapters/stub_judges.hpp"
#include "core/prompts/prompt.hpp"

using namespace ij;

namespace {

std::uint32_t pairs_of(control_kind k) {
  const auto& all = negative_controls();
  return static_cast<std::uint32_t>(
    std::count_if(all.begin(), all.end(),
                  [k](const control_pair& p) { return p.kind == k; }));
}

std::string printed(const self_test_report& r) {
  std::ostringstream out;
  print_self_test_report(out, r);
  return out.str();
}

void check_counts(const self_test_kind_counts& c, std::uint32_t sent,
                  std::uint32_t as_expected, std::uint32_t misses,
                  std::uint32_t faults) {
  INFO("kind " << to_string(c.kind));
  CHECK(c.sent == sent);
  CHECK(c.as_expected == as_expected);
  CHECK(c.misses == misses);
  CHECK(c.faults == faults);
}

const auto identity = control_kind::identity;
const auto mismatch = control_kind::mismatch;
const auto abstain = control_kind::abstain;
const auto master_key = control_kind::master_key;
const auto planted = control_kind::planted;

} // namespace

TEST_CASE("self-test: the control set has pairs of every kind", "[self_test]") {
  CHECK(pairs_of(identity) > 0);
  CHECK(pairs_of(mismatch) > 0);
  CHECK(pairs_of(abstain) > 0);
  CHECK(pairs_of(master_key) > 0);
  CHECK(pairs_of(planted) > 0);
}

namespace {

/// Every control comes back as predicted: the rule judges pass.
void check_passes(judge_adapter& judge, const std::string& id) {
  auto report = run_self_test(judge, call_options{});
  CHECK(report.adapter_id == id);
  check_counts(report.counts(identity), pairs_of(identity), pairs_of(identity),
               0, 0);
  check_counts(report.counts(mismatch), pairs_of(mismatch), pairs_of(mismatch),
               0, 0);
  check_counts(report.counts(abstain), pairs_of(abstain), pairs_of(abstain), 0,
               0);
  check_counts(report.counts(master_key), pairs_of(master_key),
               pairs_of(master_key), 0, 0);
  check_counts(report.counts(planted), pairs_of(planted), pairs_of(planted), 0,
               0);
  CHECK(report.examples.empty());
  CHECK(report.passed());
  CHECK(printed(report).find("PASSED") != std::string::npos);
}

} // namespace

TEST_CASE("self-test passes with the numeric stub", "[self_test]") {
  check_passes(*numeric_judge(), "stub:numeric");
}

TEST_CASE("self-test passes with rules:math, the embedded default",
          "[self_test]") {
  check_passes(*math_judge(), "rules:math");
}

TEST_CASE("self-test fails with always-EQUIVALENT: misses on mismatch, "
          "abstain and master keys",
          "[self_test]") {
  auto judge = always_equivalent_judge();
  auto report = run_self_test(*judge, call_options{});
  check_counts(report.counts(identity), pairs_of(identity), pairs_of(identity),
               0, 0);
  check_counts(report.counts(mismatch), pairs_of(mismatch), 0,
               pairs_of(mismatch), 0);
  check_counts(report.counts(abstain), pairs_of(abstain), 0, pairs_of(abstain),
               0);
  check_counts(report.counts(master_key), pairs_of(master_key), 0,
               pairs_of(master_key), 0);
  check_counts(report.counts(planted), pairs_of(planted), 0, pairs_of(planted),
               0);
  CHECK(report.sent() == negative_controls().size());
  CHECK(report.as_expected() == pairs_of(identity));
  CHECK_FALSE(report.passed());
  // Three examples kept per failing kind, in sending order.
  REQUIRE(report.examples.size() == 12);
  CHECK(report.examples[9].kind == planted);
  CHECK(report.examples[0].kind == mismatch);
  CHECK(report.examples[0].expected == judge_decision::different);
  CHECK(report.examples[0].got == judge_decision::equivalent);
  CHECK(report.examples[0].excerpt.rfind("DECISION: EQUIVALENT", 0) == 0);
  CHECK(report.examples[3].kind == abstain);
  CHECK(report.examples[3].expected == judge_decision::abstain);
  auto text = printed(report);
  CHECK(text.find("FAILED") != std::string::npos);
  CHECK(text.find("mismatch") != std::string::npos);
  CHECK(text.find("expected DIFFERENT, got EQUIVALENT") != std::string::npos);
  CHECK(report.examples[6].kind == master_key);
  CHECK(text.find("expected ABSTAIN or DIFFERENT, got EQUIVALENT")
        != std::string::npos);
}

TEST_CASE("self-test fails with always-DIFFERENT: misses on identity and "
          "abstain",
          "[self_test]") {
  auto judge = always_different_judge();
  auto report = run_self_test(*judge, call_options{});
  check_counts(report.counts(identity), pairs_of(identity), 0,
               pairs_of(identity), 0);
  check_counts(report.counts(mismatch), pairs_of(mismatch), pairs_of(mismatch),
               0, 0);
  check_counts(report.counts(abstain), pairs_of(abstain), 0, pairs_of(abstain),
               0);
  // DIFFERENT is a right answer to a master key (no claim of equivalence).
  check_counts(report.counts(master_key), pairs_of(master_key),
               pairs_of(master_key), 0, 0);
  check_counts(report.counts(planted), pairs_of(planted), pairs_of(planted), 0,
               0);
  CHECK(report.as_expected()
        == pairs_of(mismatch) + pairs_of(master_key) + pairs_of(planted));
  CHECK_FALSE(report.passed());
}

TEST_CASE("self-test fails with always-ABSTAIN: misses on identity and "
          "mismatch",
          "[self_test]") {
  auto judge = always_abstain_judge();
  auto report = run_self_test(*judge, call_options{});
  check_counts(report.counts(identity), pairs_of(identity), 0,
               pairs_of(identity), 0);
  check_counts(report.counts(mismatch), pairs_of(mismatch), 0,
               pairs_of(mismatch), 0);
  check_counts(report.counts(abstain), pairs_of(abstain), pairs_of(abstain), 0,
               0);
  check_counts(report.counts(master_key), pairs_of(master_key),
               pairs_of(master_key), 0, 0);
  CHECK_FALSE(report.passed());
}

TEST_CASE("self-test counts unparseable replies as misses", "[self_test]") {
  auto judge = malformed_judge();
  auto report = run_self_test(*judge, call_options{});
  CHECK(report.as_expected() == 0);
  CHECK(report.counts(identity).misses == pairs_of(identity));
  CHECK(report.counts(abstain).misses == pairs_of(abstain));
  REQUIRE_FALSE(report.examples.empty());
  CHECK(report.examples[0].got == judge_decision::parse_error);
  CHECK_FALSE(report.passed());
}

TEST_CASE("self-test counts transport failures as faults", "[self_test]") {
  auto judge = failing_judge("connection refused");
  auto report = run_self_test(*judge, call_options{});
  check_counts(report.counts(identity), pairs_of(identity), 0, 0,
               pairs_of(identity));
  check_counts(report.counts(mismatch), pairs_of(mismatch), 0, 0,
               pairs_of(mismatch));
  check_counts(report.counts(abstain), pairs_of(abstain), 0, 0,
               pairs_of(abstain));
  CHECK_FALSE(report.passed());
  REQUIRE_FALSE(report.examples.empty());
  CHECK_FALSE(report.examples[0].got);
  CHECK(report.examples[0].excerpt == "connection refused");
  CHECK(printed(report).find("a fault: connection refused")
        != std::string::npos);
}

TEST_CASE("self-test sends every pair, absent ones included, as the canonical "
          "prompt",
          "[self_test]") {
  auto judge =
    scripted_judge({text_reply(canonical_reply(judge_decision::abstain, "x"))},
                   script_end::cycle);
  call_options opts;
  opts.model = "m";
  opts.seed = 9;
  run_self_test(*judge, opts);
  const auto& pairs = negative_controls();
  REQUIRE(judge->calls() == pairs.size());
  auto prompts = judge->prompts();
  for (std::size_t i = 0; i < pairs.size(); ++i)
    CHECK(prompts[i] == build_judge_prompt(pairs[i].a, pairs[i].b));
  for (const auto& o : judge->options()) {
    CHECK(o.model == "m");
    CHECK(o.seed == std::optional<std::int64_t>{9});
  }
}

TEST_CASE("self-test counts a judge that never replies as a fault",
          "[self_test]") {
  test::silent_judge judge;
  call_options opts;
  opts.timeout = std::chrono::milliseconds{1};
  self_test_options test_opts;
  test_opts.grace = std::chrono::milliseconds{1};
  std::vector<control_pair> pairs{
    {identity, "1", "1", judge_decision::equivalent}};
  auto report = run_self_test(judge, opts, pairs, test_opts);
  CHECK(judge.calls == 1);
  check_counts(report.counts(identity), 1, 0, 0, 1);
  REQUIRE(report.examples.size() == 1);
  CHECK(report.examples[0].excerpt == "no reply within 2 ms");
  CHECK_FALSE(report.passed());
  // The reply arriving after the self-test gave up lands harmlessly.
  judge.pending(text_reply(canonical_reply(judge_decision::equivalent, "x")));
}

TEST_CASE("self-test with no pairs does not pass", "[self_test]") {
  auto judge = numeric_judge();
  auto report =
    run_self_test(*judge, call_options{}, std::vector<control_pair>{});
  CHECK(report.sent() == 0);
  CHECK_FALSE(report.passed());
}

TEST_CASE("self-test report prints one row per kind", "[self_test]") {
  auto judge = numeric_judge();
  call_options opts;
  opts.model = "rules";
  auto text = printed(run_self_test(*judge, opts));
  CHECK(text.find("Negative-control self-test of stub:numeric (model rules)")
        != std::string::npos);
  for (auto k : {"identity", "mismatch", "abstain", "master_key", "total"})
    CHECK(text.find(k) != std::string::npos);
  CHECK(text.find("as expected") != std::string::npos);
}
