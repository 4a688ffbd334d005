#pragma once
// The audit records of live canaries (issue 10), beside those of
// core/audit/audit_record.hpp:
//  - "canary": one per canary judged, after its judge_call records: the
//    canary (id, kind, position among the real pairs, A, B, the right
//    answer), the outcome and vote counts as for a pair, and per judge
//    whether it failed the canary;
//  - "bias_alarm": one per alarm, with the sequential test's evidence, its
//    declared parameters and the action taken.
#include <string>
#include <vector>

#include "core/canaries/bias_alarm.hpp"
#include "messages/audit_type.hpp"
#include "messages/canary_result.hpp"
#include "messages/judge_watch.hpp"

namespace ij {

/// One judge's observation on a canary.
struct canary_judgement {
  std::string judge;
  /// Readable decisions it gave on the canary.
  std::uint32_t decisions = 0;
  /// nullopt: no readable decision (no evidence).
  std::optional<bool> failed;
};

/// The canary record's body; `judge_calls` is the number of judge_call
/// records written for it just before.
std::string canary_body(const canary_result& c, std::size_t judge_calls,
                        const std::vector<canary_judgement>& judges);

/// The bias_alarm record's body.
std::string bias_alarm_body(const bias_alarm_event& e,
                            const alarm_params& params);

} // namespace ij
