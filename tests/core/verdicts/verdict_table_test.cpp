#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

#include "core/verdicts/outcome_mapping.hpp"
#include "core/verdicts/verdict_table.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

void check_single(bool absent, const equivalence_outcome& o, verdict_kind v,
                  verdict_rule r) {
  auto d = single_invariance_verdict(absent, o);
  CHECK(d.verdict == v);
  CHECK(d.rule == r);
}

equivalence_outcome yes() {
  return outcome_of(judge_decision::equivalent);
}
equivalence_outcome no() {
  return outcome_of(judge_decision::different);
}

statistical_verdict stat(std::array<std::uint32_t, 5> c,
                         statistical_params p = {}) {
  REQUIRE_FALSE(validate(p));
  return statistical_invariance_verdict("item-1", c, p);
}

} // namespace

TEST_CASE("single verdict: every row I1-I5") {
  check_single(true, absent_outcome(), verdict_kind::neither, verdict_rule::i1);
  check_single(false, fault_outcome("timeout"), verdict_kind::neither,
               verdict_rule::i2);
  check_single(false, outcome_of(judge_decision::abstain),
               verdict_kind::neither, verdict_rule::i3);
  check_single(false, outcome_of(judge_decision::parse_error),
               verdict_kind::neither, verdict_rule::i3);
  check_single(false, yes(), verdict_kind::invariant, verdict_rule::i4);
  check_single(false, no(), verdict_kind::violated, verdict_rule::i5);
  // ABSTAIN with abstain_as_neither=false is false: VIOLATED, never null.
  check_single(false, outcome_of(judge_decision::abstain, false),
               verdict_kind::violated, verdict_rule::i5);
}

TEST_CASE("single verdict: precedence of the rows") {
  // Absent beats everything the outcome says.
  check_single(true, fault_outcome("lost"), verdict_kind::neither,
               verdict_rule::i1);
  check_single(true, yes(), verdict_kind::neither, verdict_rule::i1);
  check_single(true, no(), verdict_kind::neither, verdict_rule::i1);
  // A fault beats a value it may carry.
  auto f = yes();
  f.fault = true;
  check_single(false, f, verdict_kind::neither, verdict_rule::i2);
  auto g = no();
  g.fault = true;
  check_single(false, g, verdict_kind::neither, verdict_rule::i2);
}

TEST_CASE("wilson interval: independently computed vectors") {
  // Each vector computed twice in python3: the closed form with
  // statistics.NormalDist().inv_cdf, and by bisection on the score test
  // (p-q)^2 = z^2 q(1-q)/n; the two agree to 1e-9.
  struct row {
    std::uint32_t s, n;
    double alpha, lo, hi;
  };
  const row rows[] = {
    {8, 10, 0.05, 0.490162472, 0.943317849},
    {0, 10, 0.05, 0.0, 0.277532800},
    {10, 10, 0.05, 0.722467200, 1.0},
    {5, 5, 0.05, 0.565517535, 1.0},
    {45, 50, 0.05, 0.786397686, 0.956524235},
    {20, 20, 0.05, 0.838874842, 1.0},
    {3, 10, 0.10, 0.126876584, 0.558300204},
    {1, 1, 0.05, 0.206549314, 1.0},
    {50, 100, 0.01, 0.375279625, 0.624720375},
    {18, 20, 0.05, 0.698966355, 0.972133519},
    {4, 10, 0.05, 0.168180330, 0.687326230},
    {95, 100, 0.05, 0.888249531, 0.978456321},
  };
  for (const auto& x : rows) {
    CAPTURE(x.s, x.n, x.alpha);
    auto [lo, hi] = wilson_interval(x.s, x.n, x.alpha);
    CHECK(std::fabs(lo - x.lo) < 1e-6);
    CHECK(std::fabs(hi - x.hi) < 1e-6);
  }
}

TEST_CASE("wilson interval: n = 0 and the edges") {
  CHECK(wilson_interval(0, 0, 0.05) == std::pair<double, double>{0.0, 1.0});
  CHECK(wilson_interval(0, 7, 0.05).first == 0.0);
  CHECK(wilson_interval(7, 7, 0.05).second == 1.0);
  // Alpha outside (0, 1): the limits, not an exception.
  CHECK(wilson_interval(3, 4, 0.0) == std::pair<double, double>{0.0, 1.0});
  CHECK(wilson_interval(3, 4, 1.0) == std::pair<double, double>{0.75, 0.75});
}

TEST_CASE("statistical verdict: I1 absent rate exceeded") {
  auto v = stat({3, 0, 0, 7, 0}); // 3 > 0.2 * 10
  CHECK(v.verdict == verdict_kind::neither);
  CHECK(v.rule == verdict_rule::i1);
  // At the limit the row does not fire: 2 > 2 is false.
  auto w = stat({2, 0, 0, 30, 0});
  CHECK(w.rule != verdict_rule::i1);
}

TEST_CASE("statistical verdict: I2 fault rate exceeded") {
  auto v = stat({0, 3, 0, 7, 0});
  CHECK(v.verdict == verdict_kind::neither);
  CHECK(v.rule == verdict_rule::i2);
  // I1 comes first.
  CHECK(stat({3, 3, 0, 4, 0}).rule == verdict_rule::i1);
}

TEST_CASE("statistical verdict: I3 undecided, three ways") {
  // Too many undecided pairs.
  auto a = stat({0, 0, 3, 7, 0});
  CHECK(a.verdict == verdict_kind::neither);
  CHECK(a.rule == verdict_rule::i3);
  // Fewer decided pairs than minDecided (all of them invariant).
  auto b = stat({0, 0, 0, 4, 0});
  CHECK(b.rule == verdict_rule::i3);
  CHECK(b.decided == 4);
  // The interval straddles tau: [0.490, 0.943] around 0.8.
  auto c = stat({0, 0, 0, 8, 2});
  CHECK(c.rule == verdict_rule::i3);
  CHECK(c.lo < 0.8);
  CHECK(c.hi >= 0.8);
  // I2 comes before I3.
  CHECK(stat({0, 3, 3, 4, 0}).rule == verdict_rule::i2);
}

TEST_CASE("statistical verdict: I4 invariant") {
  auto v = stat({0, 0, 0, 20, 0}); // lo 0.8389 >= 0.8
  CHECK(v.verdict == verdict_kind::invariant);
  CHECK(v.rule == verdict_rule::i4);
  // Some absent, fault and undecided pairs within their rates.
  auto w = stat({1, 1, 1, 30, 0});
  CHECK(w.verdict == verdict_kind::invariant);
  // A lower tau is met with fewer pairs.
  statistical_params p;
  p.tau = 0.5;
  CHECK(stat({0, 0, 0, 9, 1}, p).verdict == verdict_kind::invariant);
}

TEST_CASE("statistical verdict: I5 violated") {
  auto v = stat({0, 0, 0, 4, 6}); // hi 0.687 < 0.8
  CHECK(v.verdict == verdict_kind::violated);
  CHECK(v.rule == verdict_rule::i5);
  CHECK(stat({0, 0, 0, 0, 5}).verdict == verdict_kind::violated);
}

TEST_CASE("statistical verdict: every field is filled") {
  statistical_params p;
  p.tau = 0.7;
  p.alpha = 0.1;
  p.min_decided = 3;
  auto v = stat({1, 2, 3, 8, 2}, p);
  CHECK(v.item == "item-1");
  CHECK(v.c1 == 1);
  CHECK(v.c2 == 2);
  CHECK(v.c3 == 3);
  CHECK(v.c4 == 8);
  CHECK(v.c5 == 2);
  CHECK(v.n == 16);
  CHECK(v.decided == 10);
  CHECK(v.p == 0.8);
  auto [lo, hi] = wilson_interval(8, 10, 0.1);
  CHECK(v.lo == lo);
  CHECK(v.hi == hi);
  CHECK(v.params == p);
  // 3 > 0.2*16 = 3.2 is false: the rows pass to the interval, which
  // straddles 0.7.
  CHECK(v.rule == verdict_rule::i3);
}

TEST_CASE("statistical verdict: n = 0") {
  auto v = stat({0, 0, 0, 0, 0});
  CHECK(v.n == 0);
  CHECK(v.decided == 0);
  CHECK(v.p == 0.0);
  CHECK(v.lo == 0.0);
  CHECK(v.hi == 1.0);
  CHECK(v.verdict == verdict_kind::neither);
  CHECK(v.rule == verdict_rule::i3);
  // minDecided 0 still leaves it undecided: [0, 1] straddles any tau.
  statistical_params p;
  p.min_decided = 0;
  CHECK(stat({0, 0, 0, 0, 0}, p).rule == verdict_rule::i3);
}

TEST_CASE("statistical params: validation") {
  CHECK_FALSE(validate(statistical_params{}));
  auto with = [](auto set) {
    statistical_params p;
    set(p);
    return ::test::why(validate(p));
  };
  CHECK(with([](auto& p) { p.tau = 0.0; }) == "tau 0 must be in (0, 1]");
  CHECK(with([](auto& p) { p.tau = 1.5; }) == "tau 1.5 must be in (0, 1]");
  CHECK(with([](auto& p) { p.tau = 1.0; }).empty());
  CHECK(with([](auto& p) { p.alpha = 0.0; }) == "alpha 0 must be in (0, 1)");
  CHECK(with([](auto& p) { p.alpha = 1.0; }) == "alpha 1 must be in (0, 1)");
  CHECK(with([](auto& p) { p.alpha = std::nan(""); })
        == "alpha nan must be in (0, 1)");
  CHECK(with([](auto& p) { p.max_absent_rate = -0.1; })
        == "maxAbsentRate -0.1 must be in [0, 1]");
  CHECK(with([](auto& p) { p.max_fault_rate = 1.2; })
        == "maxFaultRate 1.2 must be in [0, 1]");
  CHECK(with([](auto& p) { p.max_undecided_rate = 2; })
        == "maxUndecidedRate 2 must be in [0, 1]");
  CHECK(with([](auto& p) {
          p.max_absent_rate = 0;
          p.max_fault_rate = 1;
          p.max_undecided_rate = 0;
        }).empty());
}
