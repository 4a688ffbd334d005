#include "answers/expression_equality.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace ij {

namespace {

using GiNaC::ex;

// Agreement within 1e-9 relative is equality (the number reader's policy
// for a decimal against a value that does not terminate); the gap to 1e-7
// keeps a float's noise from ever deciding DIFFERENT.
constexpr double equal_tolerance = 1e-9;
constexpr double different_tolerance = 1e-7;
constexpr int points_each = 5;
constexpr std::size_t max_symbols = 6;
// Exact simplification only below these sizes: GiNaC's normal() and
// expand() grow with the expanded size, and the budget cannot interrupt them.
constexpr std::size_t max_exact_nodes = 300;
constexpr long max_expanded_exponent = 12;

/// Nodes of the expression tree, stopping at `cap`.
std::size_t node_count(const ex& e, std::size_t cap) {
  std::size_t n = 1;
  for (std::size_t i = 0; i < e.nops() && n < cap; ++i)
    n += node_count(e.op(i), cap - n);
  return n;
}

/// A power of a sum with a large integer exponent expands into too many
/// terms for exact simplification.
bool has_large_power(const ex& e) {
  if (GiNaC::is_a<GiNaC::power>(e) && GiNaC::is_a<GiNaC::numeric>(e.op(1))) {
    const auto n = GiNaC::ex_to<GiNaC::numeric>(e.op(1));
    if (n.is_integer() && GiNaC::abs(n) > max_expanded_exponent
        && !GiNaC::is_a<GiNaC::numeric>(e.op(0)))
      return true;
  }
  for (std::size_t i = 0; i < e.nops(); ++i)
    if (has_large_power(e.op(i)))
      return true;
  return false;
}

bool exactly_zero(const ex& d) {
  if (d.is_zero())
    return true;
  if (node_count(d, max_exact_nodes + 1) > max_exact_nodes
      || has_large_power(d))
    return false;
  try {
    return GiNaC::normal(d).is_zero() || GiNaC::expand(d).is_zero();
  } catch (const std::exception&) {
    return false;
  }
}

void collect_symbols(const ex& e, GiNaC::exset& out) {
  if (GiNaC::is_a<GiNaC::symbol>(e)) {
    out.insert(e);
    return;
  }
  for (std::size_t i = 0; i < e.nops(); ++i)
    collect_symbols(e.op(i), out);
}

double scale_of(std::complex<double> x, std::complex<double> y) {
  return std::max({1.0, std::abs(x), std::abs(y)});
}

/// Half a unit in the last written place of the side with fewer places.
double rounding_gap(int places_a, int places_b) {
  int p = places_a < 0
            ? places_b
            : (places_b < 0 ? places_a : std::min(places_a, places_b));
  return p < 0 ? 0.0 : 0.5 * std::pow(10.0, -p) * (1 + 1e-9);
}

struct point_tally {
  int agree = 0, differ = 0, rounded = 0;
};

void tally_point(point_tally& t, std::complex<double> x, std::complex<double> y,
                 double gap) {
  const double d = std::abs(x - y);
  if (d <= equal_tolerance * std::max(std::abs(x), std::abs(y)) || x == y)
    ++t.agree;
  else if (gap > 0 && d <= gap)
    ++t.rounded;
  else if (d > different_tolerance * scale_of(x, y))
    ++t.differ;
  else
    ++t.rounded; // between the tolerances: not sure either way
}

point_tally evaluate_at(const ex& a, const ex& b,
                        const std::vector<GiNaC::exmap>& points, double gap,
                        const pair_budget& budget) {
  point_tally t;
  for (const auto& p : points) {
    if (budget.spent())
      break;
    auto x = value_at(a, p);
    auto y = value_at(b, p);
    if (x && y)
      tally_point(t, *x, *y, gap);
  }
  return t;
}

math_outcome constants(const ex& a, const ex& b, double gap) {
  auto x = value_at(a, {});
  auto y = value_at(b, {});
  if (!x || !y)
    return {math_verdict::undecided, math_method::evaluation};
  point_tally t;
  tally_point(t, *x, *y, gap);
  if (t.agree)
    return {math_verdict::equal, math_method::evaluation};
  if (t.differ)
    return {math_verdict::different, math_method::evaluation};
  return {math_verdict::undecided, math_method::rounding};
}

} // namespace

namespace {

using complex = std::complex<double>;

/// base^exponent in doubles; an integer exponent by repeated squaring, so
/// that (-2)^3 stays real.
std::optional<complex> power_value(complex base, complex exponent) {
  if (base == 0.0 && exponent.real() <= 0)
    return std::nullopt; // 0^0, 1/0: no value
  if (exponent.imag() == 0 && std::abs(exponent.real()) <= 64
      && exponent.real() == std::floor(exponent.real())) {
    long n = static_cast<long>(exponent.real());
    const bool invert = n < 0;
    complex r = 1.0, b = base;
    for (n = std::labs(n); n > 0; n >>= 1, b *= b)
      if (n & 1)
        r *= b;
    return invert ? 1.0 / r : r;
  }
  return std::pow(base, exponent);
}

std::optional<complex> function_value(const std::string& f, complex x) {
  if (f == "sin")
    return std::sin(x);
  if (f == "cos")
    return std::cos(x);
  if (f == "tan")
    return std::tan(x);
  if (f == "asin")
    return std::asin(x);
  if (f == "acos")
    return std::acos(x);
  if (f == "atan")
    return std::atan(x);
  if (f == "sinh")
    return std::sinh(x);
  if (f == "cosh")
    return std::cosh(x);
  if (f == "tanh")
    return std::tanh(x);
  if (f == "exp")
    return std::exp(x);
  if (f == "log" && x != 0.0)
    return std::log(x);
  if (f == "abs")
    return complex{std::abs(x)};
  if (f == "factorial" && x.imag() == 0 && x.real() >= 0 && x.real() <= 170
      && x.real() == std::floor(x.real()))
    return std::tgamma(x.real() + 1);
  return std::nullopt;
}

/// The value of `e` at `point`, walking GiNaC's tree in doubles: no GiNaC
/// object is made, so no evaluation can throw out of a half-built one
/// (GiNaC leaks a power whose eval() throws, as 0^(-1) does).
std::optional<complex> tree_value(const ex& e, const GiNaC::exmap& point,
                                  int depth) {
  if (depth > 200)
    return std::nullopt;
  std::optional<complex> out;
  if (GiNaC::is_a<GiNaC::numeric>(e)) {
    const auto& n = GiNaC::ex_to<GiNaC::numeric>(e);
    out = complex{GiNaC::real(n).to_double(), GiNaC::imag(n).to_double()};
  } else if (GiNaC::is_a<GiNaC::symbol>(e)) {
    const auto it = point.find(e);
    if (it != point.end())
      out = tree_value(it->second, {}, depth + 1);
  } else if (GiNaC::is_a<GiNaC::constant>(e)) {
    if (e.is_equal(GiNaC::Pi))
      out = complex{3.14159265358979323846};
  } else if (GiNaC::is_a<GiNaC::add>(e) || GiNaC::is_a<GiNaC::mul>(e)) {
    const bool sum = GiNaC::is_a<GiNaC::add>(e);
    complex acc = sum ? 0.0 : 1.0;
    for (std::size_t i = 0; i < e.nops(); ++i) {
      auto v = tree_value(e.op(i), point, depth + 1);
      if (!v)
        return std::nullopt;
      acc = sum ? acc + *v : acc * *v;
    }
    out = acc;
  } else if (GiNaC::is_a<GiNaC::power>(e)) {
    auto b = tree_value(e.op(0), point, depth + 1);
    auto x = tree_value(e.op(1), point, depth + 1);
    if (b && x)
      out = power_value(*b, *x);
  } else if (GiNaC::is_a<GiNaC::function>(e) && e.nops() == 1) {
    if (auto x = tree_value(e.op(0), point, depth + 1))
      out = function_value(GiNaC::ex_to<GiNaC::function>(e).get_name(), *x);
  }
  if (out && (!std::isfinite(out->real()) || !std::isfinite(out->imag())))
    return std::nullopt;
  return out;
}

} // namespace

std::optional<std::complex<double>> value_at(const ex& e,
                                             const GiNaC::exmap& point) {
  try {
    return tree_value(e, point, 0);
  } catch (const std::exception&) {
    return std::nullopt; // a number GiNaC cannot convert: no point to judge by
  }
}

std::vector<GiNaC::exmap> sample_points(const ex& e1, const ex& e2,
                                        bool positive, int count) {
  GiNaC::exset symbols;
  collect_symbols(e1, symbols);
  collect_symbols(e2, symbols);
  std::vector<GiNaC::exmap> out;
  if (symbols.empty() || symbols.size() > max_symbols)
    return out;
  std::mt19937 rng(positive ? 1647u : 4711u);
  std::uniform_real_distribution<double> mag(0.5, 3.5);
  for (int k = 0; k < count; ++k) {
    GiNaC::exmap p;
    unsigned j = 0;
    for (const auto& s : symbols) {
      double v = mag(rng);
      // Off the positive reals, point k takes the signs of k's bits (all
      // negative first): every sign pattern of up to three symbols shows.
      if (!positive && (((~static_cast<unsigned>(k)) >> (j % 3)) & 1u))
        v = -v;
      p[s] = GiNaC::numeric(v);
      ++j;
    }
    out.push_back(std::move(p));
  }
  return out;
}

math_outcome compare_expressions(const ex& a, int places_a, const ex& b,
                                 int places_b, const pair_budget& budget) {
  const ex d = a - b;
  if (exactly_zero(d))
    return {math_verdict::equal, math_method::exact};
  if (budget.spent())
    return {math_verdict::undecided, math_method::budget};
  const double gap = rounding_gap(places_a, places_b);
  auto positive = sample_points(a, b, true, points_each);
  if (positive.empty()) {
    GiNaC::exset symbols;
    collect_symbols(a, symbols);
    collect_symbols(b, symbols);
    if (!symbols.empty()) // more symbols than sampling can cover
      return {math_verdict::undecided, math_method::evaluation};
    return constants(a, b, gap);
  }
  auto on_positive = evaluate_at(a, b, positive, gap, budget);
  if (on_positive.differ > 0)
    return {math_verdict::different, math_method::evaluation};
  if (on_positive.rounded > 0)
    return {math_verdict::undecided, math_method::rounding};
  auto general = sample_points(a, b, false, 8);
  auto elsewhere = evaluate_at(a, b, general, gap, budget);
  if (budget.spent())
    return {math_verdict::undecided, math_method::budget};
  if (elsewhere.differ > 0 || elsewhere.rounded > 0)
    return {math_verdict::undecided, math_method::domain};
  if (on_positive.agree + elsewhere.agree >= 4)
    return {math_verdict::equal, math_method::evaluation};
  return {math_verdict::undecided, math_method::evaluation};
}

} // namespace ij
