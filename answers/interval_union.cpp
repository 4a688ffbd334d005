#include "answers/interval_union.hpp"

#include <cmath>

#include "answers/expression_equality.hpp"

namespace ij {

namespace {

/// Where an end lies: -1, 0 or 1 for below, at, above `y`; nullopt when
/// evaluation cannot tell and exact simplification does not show equality.
std::optional<int> order(const interval_end& x, const interval_end& y) {
  auto rank = [](const interval_end& e) {
    return e.infinite ? (e.value.is_equal(GiNaC::ex(1)) ? 1 : -1) : 0;
  };
  if (x.infinite || y.infinite) {
    const int rx = rank(x), ry = rank(y);
    return rx < ry ? -1 : rx > ry ? 1 : 0;
  }
  const GiNaC::ex d = (x.value - y.value).expand();
  if (d.is_zero())
    return 0;
  auto v = value_at(d, {});
  auto vx = value_at(x.value, {});
  if (!v || !vx || v->imag() != 0.0 || vx->imag() != 0.0)
    return std::nullopt;
  if (std::abs(v->real()) <= 1e-9 * std::max(1.0, std::abs(vx->real())))
    return std::nullopt; // too close to order, not shown equal
  return v->real() < 0 ? -1 : 1;
}

bool usable(const interval_end& e, bool decimals) {
  if (e.infinite)
    return true;
  if (e.places >= 0 && !decimals)
    return false;
  auto v = value_at(e.value, {});
  return v && v->imag() == 0.0;
}

} // namespace

std::optional<std::vector<math_interval>>
canonical_union(const std::vector<math_interval>& pieces,
                bool decimals_as_written) {
  std::vector<math_interval> v;
  for (const auto& p : pieces) {
    if (!usable(p.lo, decimals_as_written)
        || !usable(p.hi, decimals_as_written))
      return std::nullopt;
    auto o = order(p.lo, p.hi);
    if (!o || *o > 0 || (*o == 0 && !(p.lo.closed && p.hi.closed)))
      return std::nullopt; // empty or reversed: not a piece anyone writes
    // Insertion by lower end (unions are short).
    std::size_t at = v.size();
    while (at > 0) {
      auto c = order(v[at - 1].lo, p.lo);
      if (!c)
        return std::nullopt;
      if (*c <= 0)
        break;
      --at;
    }
    v.insert(v.begin() + static_cast<long>(at), p);
  }
  std::vector<math_interval> out;
  for (auto& p : v) {
    if (out.empty()) {
      out.push_back(p);
      continue;
    }
    auto& cur = out.back();
    auto gap = order(cur.hi, p.lo);
    if (!gap)
      return std::nullopt;
    const bool joined =
      *gap > 0 || (*gap == 0 && (cur.hi.closed || p.lo.closed));
    if (!joined) {
      out.push_back(p);
      continue;
    }
    auto same_lo = order(cur.lo, p.lo);
    if (!same_lo)
      return std::nullopt;
    if (*same_lo == 0)
      cur.lo.closed = cur.lo.closed || p.lo.closed;
    auto reach = order(p.hi, cur.hi);
    if (!reach)
      return std::nullopt;
    if (*reach > 0)
      cur.hi = p.hi;
    else if (*reach == 0)
      cur.hi.closed = cur.hi.closed || p.hi.closed;
  }
  return out;
}

} // namespace ij
