#pragma once
// What a run learns about its judges while it judges (issue 10): canary
// results and bias alarms per judge, and position bias (how often swapping A
// and B changed a judge's decision). Part of the run summary and the run-end
// record.
#include <cstdint>
#include <string>

#include <caf/meta/type_name.hpp>

#include "messages/alarm_action.hpp"

namespace ij {

/// One judge's canaries: answered, failed, failed by mode.
struct canary_tally {
  std::string judge;
  /// Canaries this judge gave a readable decision on.
  std::uint64_t canaries = 0;
  std::uint64_t failed = 0;
  std::uint64_t false_equivalent = 0;
  std::uint64_t decided_abstain = 0;
  std::uint64_t failed_identity = 0;
  bool alarmed = false;
};

inline bool operator==(const canary_tally& x, const canary_tally& y) {
  return x.judge == y.judge && x.canaries == y.canaries && x.failed == y.failed
         && x.false_equivalent == y.false_equivalent
         && x.decided_abstain == y.decided_abstain
         && x.failed_identity == y.failed_identity && x.alarmed == y.alarmed;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, canary_tally& x) {
  return f(caf::meta::type_name("ij.canary_tally"), x.judge, x.canaries,
           x.failed, x.false_equivalent, x.decided_abstain, x.failed_identity,
           x.alarmed);
}

/// A bias alarm that fired: the judge, the failure mode, the evidence of the
/// sequential test (core/canaries/bias_alarm.hpp) and the action taken.
struct bias_alarm_event {
  std::string judge;
  /// "false_equivalent", "decided_abstain" or "failed_identity".
  std::string mode;
  /// Canaries the judge had answered when it fired.
  std::uint64_t canaries = 0;
  /// That mode's observations and failures, in all and in the last cycle.
  std::uint64_t observations = 0;
  std::uint64_t failures = 0;
  std::uint64_t cycle_observations = 0;
  std::uint64_t cycle_failures = 0;
  double llr = 0.0;
  double threshold = 0.0;
  alarm_action action = alarm_action::warn;
  /// Where in the run it fired: the run's canaries judged, this one included.
  std::uint64_t at_canary = 0;
};

inline bool operator==(const bias_alarm_event& x, const bias_alarm_event& y) {
  return x.judge == y.judge && x.mode == y.mode && x.canaries == y.canaries
         && x.observations == y.observations && x.failures == y.failures
         && x.cycle_observations == y.cycle_observations
         && x.cycle_failures == y.cycle_failures && x.llr == y.llr
         && x.threshold == y.threshold && x.action == y.action
         && x.at_canary == y.at_canary;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, bias_alarm_event& x) {
  return f(caf::meta::type_name("ij.bias_alarm_event"), x.judge, x.mode,
           x.canaries, x.observations, x.failures, x.cycle_observations,
           x.cycle_failures, x.llr, x.threshold, x.action, x.at_canary);
}

/// Position bias of one judge (order balancing on): of the pairs where it
/// gave a readable decision both ways round, how many changed when A and B
/// were swapped, with the Wilson interval of that rate.
struct position_bias_rate {
  std::string judge;
  std::uint64_t comparisons = 0;
  std::uint64_t changed = 0;
  double rate = 0.0;
  double lo = 0.0;
  double hi = 0.0;
};

inline bool operator==(const position_bias_rate& x,
                       const position_bias_rate& y) {
  return x.judge == y.judge && x.comparisons == y.comparisons
         && x.changed == y.changed && x.rate == y.rate && x.lo == y.lo
         && x.hi == y.hi;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, position_bias_rate& x) {
  return f(caf::meta::type_name("ij.position_bias_rate"), x.judge,
           x.comparisons, x.changed, x.rate, x.lo, x.hi);
}

} // namespace ij
