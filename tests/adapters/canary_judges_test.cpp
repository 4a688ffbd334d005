// The bias alarm with the real stub judges (issue 10): each canary of the
// set goes through the judge once (the stubs are deterministic), then a run
// is simulated over the canary plan. The alarm fires within 30 canaries for
// stub:equivalent and stub:different and never for stub:numeric or
// rules:math on a 100,000-pair run.
#include <optional>
#include <vector>

#include <catch2/catch.hpp>

#include "adapters/llm_judge_comparator.hpp"
#include "adapters/stub_judges.hpp"
#include "core/canaries/bias_alarm.hpp"
#include "core/canaries/canary_plan.hpp"
#include "core/canaries/canary_set.hpp"

using namespace ij;

namespace {

/// The judge's decision on every canary of the set, in set order.
std::vector<judge_decision> decisions_of(judge_adapter& judge) {
  std::vector<judge_decision> out;
  judge_options opts;
  for (auto& c : canary_set()) {
    judge_request req;
    req.pair_id = "canary";
    req.a = c.a;
    req.b = c.b;
    std::optional<judge_record> got;
    judge_once(judge, opts, req, [&](judge_record rec, equivalence_outcome) {
      got = std::move(rec);
    });
    REQUIRE(got); // the stubs answer inline
    REQUIRE_FALSE(got->transport_failed);
    out.push_back(got->decision);
  }
  return out;
}

/// Canaries judged when the alarm first fired over `pairs` real pairs;
/// nullopt when it never did.
std::optional<std::uint64_t>
canaries_to_alarm(const std::vector<judge_decision>& d, double rate,
                  std::uint64_t seed, std::uint64_t pairs,
                  std::uint64_t* placed = nullptr) {
  canary_plan plan{rate, seed};
  bias_alarm alarm{alarm_params{}};
  std::uint64_t k = 0;
  std::optional<std::uint64_t> fired;
  for (std::uint64_t i = 0; i < pairs && !fired; ++i) {
    if (!plan.canary_before(i))
      continue;
    auto index = plan.index(k++);
    auto kind = canary_set()[index].kind;
    auto failed = canary_failed(kind, {d[index]});
    if (failed && alarm.observe("judge", kind, *failed))
      fired = k;
  }
  if (placed)
    *placed = k;
  return fired;
}

} // namespace

TEST_CASE("the rule judges answer every canary right: stub:numeric and "
          "rules:math never fail one") {
  for (auto judge : {numeric_judge(), math_judge()}) {
    auto d = decisions_of(*judge);
    for (std::size_t i = 0; i < d.size(); ++i) {
      auto& c = canary_set()[i];
      INFO(judge->id() << ": " << to_string(c.kind) << " A=" << c.a
                       << " B=" << c.b << " -> " << to_string(d[i]));
      CHECK(canary_failed(c.kind, {d[i]}) == false);
    }
  }
}

TEST_CASE("the bias alarm never fires for stub:numeric on a 100,000-pair run") {
  auto d = decisions_of(*numeric_judge());
  for (std::uint64_t seed : {0ull, 1ull, 2026ull})
    for (double rate : {0.01, 0.05, 0.5}) {
      std::uint64_t placed = 0;
      CAPTURE(seed, rate);
      CHECK_FALSE(canaries_to_alarm(d, rate, seed, 100000, &placed));
      CHECK(placed > 100000 * rate / 2);
    }
}

TEST_CASE("the bias alarm fires within 30 canaries for stub:equivalent and "
          "stub:different") {
  auto eq = decisions_of(*always_equivalent_judge());
  auto diff = decisions_of(*always_different_judge());
  for (std::uint64_t seed = 0; seed < 100; ++seed)
    for (double rate : {0.01, 0.05, 1.0}) {
      CAPTURE(seed, rate);
      auto a = canaries_to_alarm(eq, rate, seed, 100000);
      REQUIRE(a);
      CHECK(*a <= 30);
      auto b = canaries_to_alarm(diff, rate, seed, 100000);
      REQUIRE(b);
      CHECK(*b <= 30);
    }
}
