#pragma once
// Inter-rater agreement of judges that rate the same pairs (issue 10, cross-
// judge agreement): raw agreement, Cohen's kappa for two raters, Fleiss'
// kappa for more, each with a confidence interval. Pure.
//
// Ratings are category indices (a panel uses EQUIVALENT, DIFFERENT and
// NEITHER). Both tables keep only counts — Cohen's the k x k table, Fleiss'
// a histogram of per-subject count patterns (few: C(m+k-1, k-1)) — so a run
// of any length accumulates in bounded memory, and the jackknife over
// subjects is exact: leaving out any one of the subjects that share a cell
// (or pattern) gives the same kappa, so it is computed once per cell.
//
// Intervals: kappa +- z * SE, with SE the jackknife standard error over
// subjects, clipped to [-1, 1]; raw agreement uses the Wilson interval.
// Kappa is undefined when the expected agreement is 1 (every rating in one
// category: "one class only"); the interval is undefined when kappa is, when
// there are fewer than two subjects, or when leaving a subject out leaves one
// class only (the jackknife needs every leave-one-out value).
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace ij {

/// A kappa with its interval; `defined` false means no value (0/0).
struct kappa_estimate {
  bool defined = false;
  double value = 0.0;
  bool interval_defined = false;
  double lo = 0.0;
  double hi = 0.0;
};

/// A proportion with its Wilson interval.
struct rate_estimate {
  std::uint64_t successes = 0;
  std::uint64_t n = 0;
  double value = 0.0;
  double lo = 0.0;
  double hi = 1.0;
};

/// Two raters, k categories: the k x k table of (rater 1, rater 2).
class cohen_table {
public:
  explicit cohen_table(std::size_t categories);

  void add(std::size_t first, std::size_t second, std::uint64_t times = 1);

  std::uint64_t subjects() const { return n_; }
  std::uint64_t cell(std::size_t first, std::size_t second) const {
    return cells_[first * k_ + second];
  }

  /// Share of subjects both raters put in the same category.
  rate_estimate raw_agreement(double alpha) const;

  /// Cohen's kappa with its jackknife interval at confidence 1 - alpha.
  kappa_estimate kappa(double alpha) const;

private:
  std::size_t k_;
  std::vector<std::uint64_t> cells_;
  std::uint64_t n_ = 0;
};

/// m raters (interchangeable), k categories: each subject's counts per
/// category, as a histogram of count patterns.
class fleiss_table {
public:
  fleiss_table(std::size_t raters, std::size_t categories);

  /// One subject given by its category counts (summing to the raters).
  /// Returns false, adding nothing, when they do not.
  bool add_counts(const std::vector<std::uint32_t>& counts,
                  std::uint64_t times = 1);

  /// One subject given by each rater's category.
  void add_ratings(const std::vector<std::size_t>& ratings);

  std::uint64_t subjects() const { return n_; }

  /// Share of subjects on which all raters agree.
  rate_estimate unanimous(double alpha) const;

  /// Fleiss' P-bar: the mean share of agreeing rater pairs per subject.
  double mean_pairwise_agreement() const;

  /// Fleiss' kappa with its jackknife interval at confidence 1 - alpha.
  kappa_estimate kappa(double alpha) const;

private:
  std::size_t m_;
  std::size_t k_;
  std::map<std::vector<std::uint32_t>, std::uint64_t> patterns_;
  std::uint64_t n_ = 0;
};

/// The two-sided normal quantile z for confidence 1 - alpha.
double normal_z(double alpha);

} // namespace ij
