#include "core/verdicts/verdict_table.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include <boost/math/distributions/normal.hpp>

#include "core/numbers/number_text.hpp"

namespace ij {

verdict_decision single_invariance_verdict(bool absent,
                                           const equivalence_outcome& outcome) {
  if (absent)
    return {verdict_kind::neither, verdict_rule::i1};
  if (outcome.fault)
    return {verdict_kind::neither, verdict_rule::i2};
  if (!outcome.equivalent)
    return {verdict_kind::neither, verdict_rule::i3};
  if (*outcome.equivalent)
    return {verdict_kind::invariant, verdict_rule::i4};
  return {verdict_kind::violated, verdict_rule::i5};
}

std::pair<double, double> wilson_interval(std::uint32_t successes,
                                          std::uint32_t n, double alpha) {
  if (n == 0)
    return {0.0, 1.0};
  const double nn = n;
  const double p = std::min<double>(successes, n) / nn;
  // Limits of the interval as alpha leaves (0, 1); validate() rejects such
  // alphas, but the function stays total rather than throwing from Boost.
  if (!(alpha > 0.0))
    return {0.0, 1.0};
  if (alpha >= 1.0)
    return {p, p};
  boost::math::normal_distribution<double> standard;
  const double z = boost::math::quantile(standard, 1.0 - alpha / 2.0);
  const double z2 = z * z;
  const double denom = 1.0 + z2 / nn;
  const double centre = (p + z2 / (2.0 * nn)) / denom;
  const double half =
    z * std::sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn)) / denom;
  double lo = successes == 0 ? 0.0 : std::max(0.0, centre - half);
  double hi = successes >= n ? 1.0 : std::min(1.0, centre + half);
  return {lo, hi};
}

statistical_verdict
statistical_invariance_verdict(std::string item,
                               const std::array<std::uint32_t, 5>& counts,
                               const statistical_params& params) {
  statistical_verdict v;
  v.item = std::move(item);
  v.c1 = counts[0];
  v.c2 = counts[1];
  v.c3 = counts[2];
  v.c4 = counts[3];
  v.c5 = counts[4];
  v.n = v.c1 + v.c2 + v.c3 + v.c4 + v.c5;
  v.decided = v.c4 + v.c5;
  v.p = v.decided == 0 ? 0.0 : static_cast<double>(v.c4) / v.decided;
  std::tie(v.lo, v.hi) = wilson_interval(v.c4, v.decided, params.alpha);
  v.params = params;
  const double n = v.n;
  const double tau = params.tau;
  auto set = [&v](verdict_kind k, verdict_rule r) {
    v.verdict = k;
    v.rule = r;
    return v;
  };
  if (v.c1 > params.max_absent_rate * n)
    return set(verdict_kind::neither, verdict_rule::i1);
  if (v.c2 > params.max_fault_rate * n)
    return set(verdict_kind::neither, verdict_rule::i2);
  if (v.c3 > params.max_undecided_rate * n || v.decided < params.min_decided
      || (v.lo < tau && tau <= v.hi))
    return set(verdict_kind::neither, verdict_rule::i3);
  if (v.lo >= tau)
    return set(verdict_kind::invariant, verdict_rule::i4);
  if (v.hi < tau)
    return set(verdict_kind::violated, verdict_rule::i5);
  // Unreachable for lo <= hi; a NaN parameter lands here: undecided.
  return set(verdict_kind::neither, verdict_rule::i3);
}

namespace {} // namespace

caf::error validate(const statistical_params& params) {
  auto bad = [](std::string what) {
    return make_error(errc::bad_config, std::move(what));
  };
  // Written as "not inside" so that NaN is rejected too.
  if (!(params.tau > 0.0 && params.tau <= 1.0))
    return bad("tau " + number_text(params.tau) + " must be in (0, 1]");
  if (!(params.alpha > 0.0 && params.alpha < 1.0))
    return bad("alpha " + number_text(params.alpha) + " must be in (0, 1)");
  for (auto [name, x] :
       {std::pair{"maxAbsentRate", params.max_absent_rate},
        std::pair{"maxFaultRate", params.max_fault_rate},
        std::pair{"maxUndecidedRate", params.max_undecided_rate}})
    if (!(x >= 0.0 && x <= 1.0))
      return bad(std::string{name} + " " + number_text(x)
                 + " must be in [0, 1]");
  return {};
}

} // namespace ij
