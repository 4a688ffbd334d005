#pragma once
// Where the canaries of a live run go, and which (issue 10). Fixed by the
// declared rate and seed before the first call, so that a run can be
// repeated and an audit reader can check every position:
//  - before the real pair at input position i (0-based) goes one canary
//    when u(seed, i) < rate, u a uniform draw in [0, 1) from a counter-based
//    hash (splitmix64): no state, whatever the batching;
//  - the k-th canary (0-based) takes the kinds in turn — identity, mismatch,
//    master key, abstain, planted verdict, in an order the seed fixes — so
//    every five consecutive canaries test every failure mode; within a
//    kind, the pairs come in an order the seed shuffles.
// Pure: no I/O.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/canaries/bias_alarm.hpp"
#include "core/canaries/canary_set.hpp"
#include "messages/alarm_action.hpp"

namespace ij {

/// The canaries of a run as declared in its configuration ("canaries").
struct canary_settings {
  /// Canaries per real pair, in [0, 1]; 0: none.
  double rate = 0.0;
  std::uint64_t seed = 0;
  alarm_action on_alarm = alarm_action::warn;
  alarm_params alarm;

  bool enabled() const { return rate > 0.0; }
};

class canary_plan {
public:
  /// Precondition: 0 <= rate <= 1; `set` not empty and outliving the plan.
  canary_plan(double rate, std::uint64_t seed,
              const std::vector<control_pair>& set = canary_set());

  /// Whether a canary goes before the real pair at input position
  /// `position` (0-based).
  bool canary_before(std::uint64_t position) const;

  /// The index in the set of the k-th canary (0-based).
  std::size_t index(std::uint64_t k) const;

  /// The k-th canary.
  const control_pair& canary(std::uint64_t k) const {
    return (*set_)[index(k)];
  }

private:
  double rate_;
  std::uint64_t seed_;
  const std::vector<control_pair>* set_;
  /// The kinds present in the set, in the seed's order.
  std::vector<control_kind> kinds_;
  /// Per kind (same order), the indices of its pairs, seed-shuffled.
  std::vector<std::vector<std::size_t>> members_;
};

} // namespace ij
