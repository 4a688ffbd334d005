#pragma once
// The bias alarm (issue 10): per judge, Wald's sequential probability ratio
// test on its canary results, one test per failure mode
// (core/canaries/canary_set: false EQUIVALENT, decided abstain pairs, failed
// identity pairs).
//
// Each observation is one canary judged by one judge: failed or not. H0: the
// judge fails canaries at the tolerated rate p0; H1: at the alarm rate p1 >
// p0. The log-likelihood ratio moves by ln(p1/p0) on a failure and by
// ln((1-p1)/(1-p0)) on a pass. It fires when the ratio reaches
// ln((1-beta)/alpha) (H1 accepted: the judge leans). When it falls to
// ln(beta/(1-alpha)) (H0 accepted) the test starts again from zero, so a long
// good history never hides a judge that turns bad later ("repeated SPRT").
// alpha bounds the chance of a false alarm per test cycle and per mode, beta
// the chance of missing a judge that fails at p1.
//
// With the defaults (p0 0.05, p1 0.5, alpha = beta = 0.01) two failures in a
// row fire, and about seven passes restart the test. Pure: no I/O.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <caf/error.hpp>

#include "core/canaries/canary_set.hpp"
#include "messages/error.hpp"

namespace ij {

/// The declared parameters of the test (recorded in the manifest).
struct alarm_params {
  /// p0: the false-EQUIVALENT (or other canary failure) rate tolerated.
  double tolerated_rate = 0.05;
  /// p1: a rate the test must tell from p0 (a leaning judge).
  double alarm_rate = 0.5;
  /// The chance of a false alarm per test cycle and mode.
  double alpha = 0.01;
  /// The chance of missing a judge that fails at the alarm rate.
  double beta = 0.01;
};

/// errc::bad_config with a clear message when a parameter is out of range;
/// no error when valid.
caf::error validate(const alarm_params& p);

/// One mode's test for one judge.
struct sprt_stream {
  std::uint64_t observations = 0;
  std::uint64_t failures = 0;
  /// The log-likelihood ratio of the current cycle.
  double llr = 0.0;
  /// Observations and failures of the current cycle.
  std::uint64_t cycle_observations = 0;
  std::uint64_t cycle_failures = 0;
  /// Cycles ended by accepting H0.
  std::uint32_t restarts = 0;
  bool fired = false;
};

/// Why an alarm fired: enough to check the arithmetic by hand.
struct alarm_evidence {
  std::string judge;
  canary_failure_mode mode = canary_failure_mode::false_equivalent;
  /// Canaries this judge had answered when the alarm fired (all modes).
  std::uint64_t canaries = 0;
  sprt_stream stream;
  /// The thresholds: fire at upper, restart at lower.
  double upper = 0.0;
  double lower = 0.0;
};

class bias_alarm {
public:
  struct judge_tally {
    std::string judge;
    std::uint64_t canaries = 0;
    std::uint64_t failed = 0;
    /// Indexed by canary_failure_mode.
    std::array<sprt_stream, 3> streams{};
    bool alarmed = false;
  };

  /// Precondition: validate(params) holds.
  explicit bias_alarm(alarm_params params);

  /// One canary of `kind` judged by `judge`, failed or not. Returns the
  /// evidence when this observation makes the test of that judge and mode
  /// fire; each (judge, mode) fires at most once.
  std::optional<alarm_evidence> observe(const std::string& judge,
                                        control_kind kind, bool failed);

  double upper() const { return upper_; }
  double lower() const { return lower_; }
  const alarm_params& params() const { return params_; }
  /// Every judge observed so far, in order of first observation.
  const std::vector<judge_tally>& judges() const { return judges_; }

private:
  alarm_params params_;
  double step_fail_;
  double step_pass_;
  double upper_;
  double lower_;
  std::vector<judge_tally> judges_;
};

} // namespace ij
