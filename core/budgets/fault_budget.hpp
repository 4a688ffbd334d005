#pragma once
// The run's fault budget (configuration max_fault_rate): the fault rate is
// the share of judged pairs whose verdict is I2 (a judge fault decided it).
// Above the maximum the run has failed: its verdicts are mostly "the judge
// did not answer". While input remains the run stops as soon as the rate
// is above it with at least min_pairs_to_stop pairs judged (a judge that is
// down or misconfigured: the rest would only add faults, waiting and cost);
// at the end any rate above it makes the run incomplete (exit 4). Pure.
#include <cstdint>
#include <string>

#include "messages/verdict.hpp"

namespace ij {

class fault_budget {
public:
  /// Judged pairs needed before a high rate stops a run early: a few early
  /// faults (a slow start, one bad host) must not end a long run.
  static constexpr std::uint64_t min_pairs_to_stop = 20;

  explicit fault_budget(double max_rate) : max_rate_(max_rate) {}

  /// Counts one judged pair.
  void add(verdict_rule rule) {
    ++pairs_;
    faults_ += rule == verdict_rule::i2;
  }

  /// I2 verdicts / judged pairs; 0 before any pair.
  double rate() const {
    return pairs_ == 0 ? 0.0 : double(faults_) / double(pairs_);
  }

  /// The rate is above the maximum (the run has failed).
  bool exceeded() const { return pairs_ > 0 && rate() > max_rate_; }

  /// Exceeded with enough pairs judged to stop reading now.
  bool stop_now() const { return exceeded() && pairs_ >= min_pairs_to_stop; }

  /// "fault rate 100.0% (39 of 39 judged pairs were I2 faults) is above
  /// max_fault_rate 0.5"
  std::string explanation() const;

private:
  double max_rate_;
  std::uint64_t pairs_ = 0;
  std::uint64_t faults_ = 0;
};

} // namespace ij
