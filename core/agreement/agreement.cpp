#include "core/agreement/agreement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/normal.hpp>

#include "core/verdicts/verdict_table.hpp"

namespace ij {

namespace {

// (p_o - p_e) / (1 - p_e); undefined (nullopt-like: NaN) when p_e is 1.
double kappa_of(double observed, double expected) {
  if (expected >= 1.0 - 1e-12)
    return std::numeric_limits<double>::quiet_NaN();
  return (observed - expected) / (1.0 - expected);
}

// A leave-one-out value and how many subjects give it.
struct jack_value {
  double kappa;
  std::uint64_t weight;
};

// kappa +- z * jackknife SE over n subjects, clipped to [-1, 1].
void jackknife_interval(kappa_estimate& out,
                        const std::vector<jack_value>& values, std::uint64_t n,
                        double alpha) {
  if (!out.defined || n < 2)
    return;
  double mean = 0.0;
  for (auto& v : values) {
    if (std::isnan(v.kappa))
      return;
    mean += v.kappa * static_cast<double>(v.weight);
  }
  mean /= static_cast<double>(n);
  double ss = 0.0;
  for (auto& v : values)
    ss += static_cast<double>(v.weight) * (v.kappa - mean) * (v.kappa - mean);
  auto nd = static_cast<double>(n);
  double se = std::sqrt((nd - 1.0) / nd * ss);
  double z = normal_z(alpha);
  out.interval_defined = true;
  out.lo = std::max(-1.0, out.value - z * se);
  out.hi = std::min(1.0, out.value + z * se);
}

rate_estimate rate(std::uint64_t successes, std::uint64_t n, double alpha) {
  rate_estimate r;
  r.successes = successes;
  r.n = n;
  if (n == 0)
    return r;
  r.value = static_cast<double>(successes) / static_cast<double>(n);
  // The Wilson interval takes 32-bit counts: scale a longer run down, which
  // keeps the share and makes the interval a little wider, never narrower.
  auto cap =
    static_cast<std::uint64_t>(std::numeric_limits<std::uint32_t>::max());
  auto s = successes, m = n;
  if (m > cap) {
    s = static_cast<std::uint64_t>(static_cast<double>(s) * cap / m);
    m = cap;
  }
  auto [lo, hi] = wilson_interval(static_cast<std::uint32_t>(s),
                                  static_cast<std::uint32_t>(m), alpha);
  r.lo = lo;
  r.hi = hi;
  return r;
}

} // namespace

double normal_z(double alpha) {
  boost::math::normal_distribution<double> standard;
  return boost::math::quantile(standard, 1.0 - alpha / 2.0);
}

// --- Cohen -------------------------------------------------------------------

cohen_table::cohen_table(std::size_t categories)
    : k_(categories), cells_(categories * categories, 0) {}

void cohen_table::add(std::size_t first, std::size_t second,
                      std::uint64_t times) {
  cells_[first * k_ + second] += times;
  n_ += times;
}

rate_estimate cohen_table::raw_agreement(double alpha) const {
  std::uint64_t same = 0;
  for (std::size_t i = 0; i < k_; ++i)
    same += cell(i, i);
  return rate(same, n_, alpha);
}

namespace {

// Cohen's kappa of a table, with one subject of cell `skip` left out
// (skip == cells.size(): none).
double cohen_kappa(const std::vector<std::uint64_t>& cells, std::size_t k,
                   std::uint64_t n, std::size_t skip) {
  auto at = [&](std::size_t i, std::size_t j) {
    auto c = cells[i * k + j];
    return static_cast<double>(i * k + j == skip ? c - 1 : c);
  };
  double total = static_cast<double>(skip < cells.size() ? n - 1 : n);
  if (total <= 0)
    return std::numeric_limits<double>::quiet_NaN();
  double observed = 0.0, expected = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    observed += at(i, i);
    double row = 0.0, col = 0.0;
    for (std::size_t j = 0; j < k; ++j) {
      row += at(i, j);
      col += at(j, i);
    }
    expected += (row / total) * (col / total);
  }
  return kappa_of(observed / total, expected);
}

} // namespace

kappa_estimate cohen_table::kappa(double alpha) const {
  kappa_estimate out;
  if (n_ == 0)
    return out;
  out.value = cohen_kappa(cells_, k_, n_, cells_.size());
  out.defined = !std::isnan(out.value);
  std::vector<jack_value> values;
  for (std::size_t c = 0; c < cells_.size(); ++c)
    if (cells_[c] > 0)
      values.push_back({cohen_kappa(cells_, k_, n_, c), cells_[c]});
  jackknife_interval(out, values, n_, alpha);
  return out;
}

// --- Fleiss ------------------------------------------------------------------

fleiss_table::fleiss_table(std::size_t raters, std::size_t categories)
    : m_(raters), k_(categories) {}

bool fleiss_table::add_counts(const std::vector<std::uint32_t>& counts,
                              std::uint64_t times) {
  std::uint64_t sum = 0;
  for (auto c : counts)
    sum += c;
  if (counts.size() != k_ || sum != m_ || times == 0)
    return false;
  patterns_[counts] += times;
  n_ += times;
  return true;
}

void fleiss_table::add_ratings(const std::vector<std::size_t>& ratings) {
  std::vector<std::uint32_t> counts(k_, 0);
  for (auto r : ratings)
    if (r < k_)
      ++counts[r];
  add_counts(counts);
}

rate_estimate fleiss_table::unanimous(double alpha) const {
  std::uint64_t all = 0;
  for (auto& [p, times] : patterns_)
    if (std::find(p.begin(), p.end(), m_) != p.end())
      all += times;
  return rate(all, n_, alpha);
}

namespace {

// P_i of one subject: the share of its rater pairs that agree.
double subject_agreement(const std::vector<std::uint32_t>& p, std::size_t m) {
  double sq = 0.0;
  for (auto c : p)
    sq += static_cast<double>(c) * c;
  auto md = static_cast<double>(m);
  return (sq - md) / (md * (md - 1.0));
}

} // namespace

double fleiss_table::mean_pairwise_agreement() const {
  if (n_ == 0 || m_ < 2)
    return 0.0;
  double sum = 0.0;
  for (auto& [p, times] : patterns_)
    sum += static_cast<double>(times) * subject_agreement(p, m_);
  return sum / static_cast<double>(n_);
}

kappa_estimate fleiss_table::kappa(double alpha) const {
  kappa_estimate out;
  if (n_ == 0 || m_ < 2)
    return out;
  // Sums over subjects, so that leaving one out is a subtraction.
  double agreement = 0.0;
  std::vector<double> totals(k_, 0.0);
  for (auto& [p, times] : patterns_) {
    agreement += static_cast<double>(times) * subject_agreement(p, m_);
    for (std::size_t j = 0; j < k_; ++j)
      totals[j] += static_cast<double>(times) * p[j];
  }
  auto md = static_cast<double>(m_);
  auto kappa_without = [&](const std::vector<std::uint32_t>* left_out) {
    double n = static_cast<double>(n_) - (left_out ? 1.0 : 0.0);
    if (n <= 0)
      return std::numeric_limits<double>::quiet_NaN();
    double a = agreement - (left_out ? subject_agreement(*left_out, m_) : 0.0);
    double expected = 0.0;
    for (std::size_t j = 0; j < k_; ++j) {
      double pj = (totals[j] - (left_out ? (*left_out)[j] : 0.0)) / (n * md);
      expected += pj * pj;
    }
    return kappa_of(a / n, expected);
  };
  out.value = kappa_without(nullptr);
  out.defined = !std::isnan(out.value);
  std::vector<jack_value> values;
  for (auto& [p, times] : patterns_)
    values.push_back({kappa_without(&p), times});
  jackknife_interval(out, values, n_, alpha);
  return out;
}

} // namespace ij
