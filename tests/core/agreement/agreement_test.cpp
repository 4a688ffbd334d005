// Cohen's and Fleiss' kappa, raw agreement and their intervals, against
// values computed here independently: textbook tables, and a direct
// leave-one-out over the expanded list of subjects (the implementation
// works on cells and patterns instead).
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "core/agreement/agreement.hpp"

using namespace ij;

namespace {

using subject = std::vector<int>; // each rater's category

double direct_cohen(const std::vector<subject>& s, int k) {
  double n = static_cast<double>(s.size());
  double po = 0;
  std::vector<double> a(k, 0), b(k, 0);
  for (auto& x : s) {
    po += x[0] == x[1];
    a[x[0]] += 1;
    b[x[1]] += 1;
  }
  double pe = 0;
  for (int c = 0; c < k; ++c)
    pe += a[c] / n * b[c] / n;
  return (po / n - pe) / (1 - pe);
}

double direct_fleiss(const std::vector<subject>& s, int k) {
  double n = static_cast<double>(s.size());
  double m = static_cast<double>(s[0].size());
  std::vector<double> p(k, 0);
  double pbar = 0;
  for (auto& x : s) {
    std::vector<double> c(k, 0);
    for (int r : x)
      c[r] += 1;
    double agree = 0;
    for (int j = 0; j < k; ++j) {
      agree += c[j] * (c[j] - 1);
      p[j] += c[j];
    }
    pbar += agree / (m * (m - 1));
  }
  pbar /= n;
  double pe = 0;
  for (int j = 0; j < k; ++j)
    pe += (p[j] / (n * m)) * (p[j] / (n * m));
  return (pbar - pe) / (1 - pe);
}

// kappa +- z * jackknife SE, by leaving out each subject of the list.
std::pair<double, double>
direct_jackknife(const std::vector<subject>& s,
                 const std::function<double(const std::vector<subject>&)>& f,
                 double z) {
  double n = static_cast<double>(s.size());
  std::vector<double> loo;
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto rest = s;
    rest.erase(rest.begin() + static_cast<long>(i));
    loo.push_back(f(rest));
  }
  double mean = 0;
  for (auto v : loo)
    mean += v / n;
  double ss = 0;
  for (auto v : loo)
    ss += (v - mean) * (v - mean);
  double se = std::sqrt((n - 1) / n * ss);
  double k = f(s);
  return {std::max(-1.0, k - z * se), std::min(1.0, k + z * se)};
}

std::vector<subject> expand(const std::vector<std::vector<std::uint64_t>>& t) {
  std::vector<subject> out;
  for (int i = 0; i < static_cast<int>(t.size()); ++i)
    for (int j = 0; j < static_cast<int>(t[i].size()); ++j)
      for (std::uint64_t n = 0; n < t[i][j]; ++n)
        out.push_back({i, j});
  return out;
}

cohen_table cohen_of(const std::vector<std::vector<std::uint64_t>>& t) {
  cohen_table c{t.size()};
  for (std::size_t i = 0; i < t.size(); ++i)
    for (std::size_t j = 0; j < t.size(); ++j)
      if (t[i][j] > 0)
        c.add(i, j, t[i][j]);
  return c;
}

} // namespace

TEST_CASE("Cohen's kappa of the textbook 2x2 table is 0.4") {
  // 50 subjects: both yes 20, yes/no 5, no/yes 10, both no 15:
  // p_o = 0.7, p_e = 0.5*0.6 + 0.5*0.4 = 0.5, kappa = 0.4.
  auto c = cohen_of({{20, 5}, {10, 15}});
  auto k = c.kappa(0.05);
  REQUIRE(k.defined);
  CHECK(k.value == Approx(0.4));
  auto raw = c.raw_agreement(0.05);
  CHECK(raw.value == Approx(0.7));
  CHECK(raw.successes == 35);
  CHECK(raw.lo < 0.7);
  CHECK(raw.hi > 0.7);
}

TEST_CASE("Cohen's kappa and its interval agree with a direct leave-one-out") {
  std::vector<std::vector<std::uint64_t>> t{{11, 2, 1}, {3, 9, 0}, {1, 2, 4}};
  auto subjects = expand(t);
  auto f = [](const std::vector<subject>& s) { return direct_cohen(s, 3); };
  auto k = cohen_of(t).kappa(0.05);
  REQUIRE(k.defined);
  REQUIRE(k.interval_defined);
  CHECK(k.value == Approx(f(subjects)));
  auto [lo, hi] = direct_jackknife(subjects, f, 1.959963984540054);
  CHECK(k.lo == Approx(lo));
  CHECK(k.hi == Approx(hi));
  CHECK(k.lo < k.value);
  CHECK(k.hi > k.value);
  // A wider confidence gives a wider interval.
  auto k99 = cohen_of(t).kappa(0.01);
  CHECK(k99.lo < k.lo);
}

TEST_CASE(
  "Fleiss' kappa of the textbook table (10 subjects, 14 raters) is 0.210") {
  // Fleiss (1971) as reproduced in most references: P-bar 0.378,
  // P-bar-e 0.213, kappa 0.210.
  std::vector<std::vector<std::uint32_t>> rows{
    {0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0},
    {2, 2, 8, 1, 1},  {7, 7, 0, 0, 0}, {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2},
    {6, 5, 2, 1, 0},  {0, 2, 2, 3, 7}};
  fleiss_table f{14, 5};
  for (auto& r : rows)
    REQUIRE(f.add_counts(r));
  CHECK(f.subjects() == 10);
  CHECK(f.mean_pairwise_agreement() == Approx(0.378).margin(0.0005));
  auto k = f.kappa(0.05);
  REQUIRE(k.defined);
  CHECK(k.value == Approx(0.210).margin(0.0005));
  CHECK(f.unanimous(0.05).successes == 1);
}

TEST_CASE("Fleiss' kappa and its interval agree with a direct leave-one-out") {
  std::vector<subject> subjects{{0, 0, 0}, {0, 0, 1}, {1, 1, 1}, {2, 2, 2},
                                {0, 1, 2}, {1, 1, 0}, {0, 0, 0}, {2, 2, 1},
                                {1, 1, 1}, {0, 0, 0}, {2, 0, 2}, {1, 1, 1}};
  fleiss_table f{3, 3};
  for (auto& s : subjects)
    f.add_ratings({static_cast<std::size_t>(s[0]),
                   static_cast<std::size_t>(s[1]),
                   static_cast<std::size_t>(s[2])});
  auto fn = [](const std::vector<subject>& s) { return direct_fleiss(s, 3); };
  auto k = f.kappa(0.05);
  REQUIRE(k.defined);
  REQUIRE(k.interval_defined);
  CHECK(k.value == Approx(fn(subjects)));
  auto [lo, hi] = direct_jackknife(subjects, fn, 1.959963984540054);
  CHECK(k.lo == Approx(lo));
  CHECK(k.hi == Approx(hi));
  auto raw = f.unanimous(0.05);
  CHECK(raw.successes == 7);
  CHECK(raw.n == 12);
}

TEST_CASE("one class only: raw agreement 1, kappa undefined, no interval") {
  auto c = cohen_of({{9, 0}, {0, 0}});
  auto k = c.kappa(0.05);
  CHECK_FALSE(k.defined);
  CHECK_FALSE(k.interval_defined);
  CHECK(c.raw_agreement(0.05).value == 1.0);
  fleiss_table f{4, 3};
  for (int i = 0; i < 6; ++i)
    f.add_ratings({1, 1, 1, 1});
  CHECK_FALSE(f.kappa(0.05).defined);
  CHECK(f.unanimous(0.05).value == 1.0);
  CHECK(f.mean_pairwise_agreement() == 1.0);
}

TEST_CASE(
  "perfect agreement over two classes: kappa 1 with a zero-width interval") {
  auto c = cohen_of({{5, 0}, {0, 4}});
  auto k = c.kappa(0.05);
  REQUIRE(k.defined);
  CHECK(k.value == Approx(1.0));
  REQUIRE(k.interval_defined);
  CHECK(k.lo == Approx(1.0));
  CHECK(k.hi == Approx(1.0));
  fleiss_table f{3, 3};
  for (int i = 0; i < 4; ++i) {
    f.add_ratings({0, 0, 0});
    f.add_ratings({2, 2, 2});
  }
  auto fk = f.kappa(0.05);
  REQUIRE(fk.defined);
  CHECK(fk.value == Approx(1.0));
  CHECK(fk.lo == Approx(1.0));
}

TEST_CASE("perfect agreement where leaving one subject out leaves one class: "
          "no interval") {
  auto k = cohen_of({{6, 0}, {0, 1}}).kappa(0.05);
  REQUIRE(k.defined);
  CHECK(k.value == Approx(1.0));
  CHECK_FALSE(k.interval_defined);
}

TEST_CASE("empty and single-subject tables have no kappa interval") {
  cohen_table empty{3};
  CHECK_FALSE(empty.kappa(0.05).defined);
  CHECK(empty.raw_agreement(0.05).n == 0);
  fleiss_table one{3, 3};
  one.add_ratings({0, 1, 1});
  CHECK_FALSE(one.kappa(0.05).interval_defined);
  CHECK_FALSE(one.add_counts({1, 1, 0})); // sums to 2, not 3 raters
  CHECK(one.subjects() == 1);
}
