#pragma once
// What the driver tells the user at the end of a run (on stderr): verdicts
// by rule, items by verdict, judge calls made and skipped, faults, tokens per
// judge, and, when the input had labels, the confusion matrix of the
// comparator outcome against the label (with a calibration map, the
// calibrated probability's ECE and Brier score against the labels).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "messages/run_summary.hpp"
#include "messages/verdict.hpp"

namespace ij {

class run_report {
public:
  /// Counts one pair's verdict and its label, if any.
  void add(const single_verdict& v);

  /// Counts one item's statistical verdict.
  void add(const statistical_verdict& v);

  std::uint64_t pairs() const { return pairs_; }
  std::uint64_t items() const { return items_; }
  std::uint64_t faults() const { return by_rule_[1]; }

  /// The table; `summary` holds the pipeline's totals (calls, tokens).
  std::string render(const run_summary& summary, const std::string& audit_path,
                     bool interrupted) const;

private:
  std::uint64_t pairs_ = 0;
  std::uint64_t items_ = 0;
  std::array<std::uint64_t, 5> by_rule_{};
  std::array<std::uint64_t, 3>
    items_by_verdict_{}; // invariant, violated, neither
  /// [outcome: true, false, neither][label: true, false]
  std::array<std::array<std::uint64_t, 2>, 3> confusion_{};
  std::uint64_t labelled_ = 0;
  /// Labelled pairs with a calibrated probability (issue 16): that of the
  /// leading decision, and whether the decision matched the label.
  std::vector<double> calibrated_;
  std::vector<bool> calibrated_right_;
};

} // namespace ij
