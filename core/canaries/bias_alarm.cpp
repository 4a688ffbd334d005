#include "core/canaries/bias_alarm.hpp"

#include <algorithm>
#include <cmath>

namespace ij {

caf::error validate(const alarm_params& p) {
  auto bad = [](const char* what) {
    return make_error(errc::bad_config, what);
  };
  auto open_unit = [](double x) { return x > 0.0 && x < 1.0; };
  if (!open_unit(p.tolerated_rate))
    return bad("tolerated_rate must be between 0 and 1 (exclusive)");
  if (!open_unit(p.alarm_rate))
    return bad("alarm_rate must be between 0 and 1 (exclusive)");
  if (p.alarm_rate <= p.tolerated_rate)
    return bad("alarm_rate must be greater than tolerated_rate (the test "
               "tells a leaning judge from a tolerable one)");
  if (!(p.alpha > 0.0 && p.alpha < 0.5))
    return bad("alpha must be between 0 and 0.5 (exclusive)");
  if (!(p.beta > 0.0 && p.beta < 0.5))
    return bad("beta must be between 0 and 0.5 (exclusive)");
  return {};
}

bias_alarm::bias_alarm(alarm_params params)
    : params_(params),
      step_fail_(std::log(params.alarm_rate / params.tolerated_rate)),
      step_pass_(
        std::log((1.0 - params.alarm_rate) / (1.0 - params.tolerated_rate))),
      upper_(std::log((1.0 - params.beta) / params.alpha)),
      lower_(std::log(params.beta / (1.0 - params.alpha))) {}

std::optional<alarm_evidence>
bias_alarm::observe(const std::string& judge, control_kind kind, bool failed) {
  auto it =
    std::find_if(judges_.begin(), judges_.end(),
                 [&](const judge_tally& t) { return t.judge == judge; });
  if (it == judges_.end()) {
    judges_.push_back(judge_tally{judge, 0, 0, {}, false});
    it = std::prev(judges_.end());
  }
  auto& t = *it;
  ++t.canaries;
  t.failed += failed ? 1 : 0;
  auto mode = failure_mode_of(kind);
  auto& s = t.streams[static_cast<std::size_t>(mode)];
  ++s.observations;
  s.failures += failed ? 1 : 0;
  if (s.fired)
    return std::nullopt; // one alarm per judge and mode
  ++s.cycle_observations;
  s.cycle_failures += failed ? 1 : 0;
  s.llr += failed ? step_fail_ : step_pass_;
  // A tiny tolerance, for parameters whose threshold falls exactly on a
  // multiple of the step (rounding must not cost one more failure).
  if (s.llr >= upper_ - 1e-9) {
    s.fired = true;
    t.alarmed = true;
    return alarm_evidence{judge, mode, t.canaries, s, upper_, lower_};
  }
  if (s.llr <= lower_) {
    s.llr = 0.0;
    s.cycle_observations = 0;
    s.cycle_failures = 0;
    ++s.restarts;
  }
  return std::nullopt;
}

} // namespace ij
