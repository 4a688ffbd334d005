#pragma once
// The canaries of a live run (issue 10): the negative controls (SPEC §9)
// whose two answers are both present — a pair with an absent side never
// reaches a judge (rule I1), so it could not test one — master keys
// included. Also what counts as a canary failed by a judge, by kind, for the
// bias alarm (core/canaries/bias_alarm.hpp): the alarm looks for bias, so it
// counts only the wrong answers that lean somewhere:
//   identity    failed when the judge does not say EQUIVALENT
//   mismatch    failed when it says EQUIVALENT (DIFFERENT is right; ABSTAIN
//   master_key  is no claim either way)
//   planted     (issue 29: a wrong answer carrying a verdict for the judge)
//   abstain     failed when it decides (EQUIVALENT or DIFFERENT)
// A PARSE_ERROR or a failed call is no evidence either way.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/canaries/negative_controls.hpp"
#include "messages/judge_decision.hpp"

namespace ij {

/// The three ways a canary can be failed, one sequential test each.
enum class canary_failure_mode : std::uint8_t {
  /// EQUIVALENT on a mismatch, master-key or planted canary.
  false_equivalent,
  /// EQUIVALENT or DIFFERENT on an abstain canary.
  decided_abstain,
  /// Anything but EQUIVALENT on an identity canary.
  failed_identity,
};

inline constexpr canary_failure_mode all_canary_failure_modes[] = {
  canary_failure_mode::false_equivalent, canary_failure_mode::decided_abstain,
  canary_failure_mode::failed_identity};

/// "false_equivalent", "decided_abstain", "failed_identity".
std::string_view to_string(canary_failure_mode m);

/// The failure a canary of `kind` tests for.
canary_failure_mode failure_mode_of(control_kind kind);

/// What the right answer to a canary of `kind` is, in words for records
/// ("EQUIVALENT", "not EQUIVALENT", "ABSTAIN").
std::string_view expected_text(control_kind kind);

/// Whether one decision fails a canary of `kind`; nullopt for PARSE_ERROR
/// (no evidence).
std::optional<bool> decision_fails(control_kind kind, judge_decision d);

/// One judge's verdict on one canary from its answered votes on it (votes
/// at temperature 0 are not independent, so the judge gives one
/// observation per canary): failed when more than half of its readable
/// decisions fail it; nullopt when it gave none.
std::optional<bool> canary_failed(control_kind kind,
                                  const std::vector<judge_decision>& decisions);

/// The canaries: every negative control with both answers present.
const std::vector<control_pair>& canary_set();

} // namespace ij
