#pragma once
// The audit trail's record types (SPEC §11), as written in each line's
// "type". The writers (actors/audit_logger and what hands it records) carry
// the enumeration; to_string and audit_type_from_string are the only places
// the texts are spelled. A reader meeting a type it does not know
// (audit_type_from_string: nullopt) passes over the line, as readers always
// have: the hash chain still covers it.
#include <cstdint>
#include <optional>
#include <string_view>

#include "messages/enum_text.hpp"

namespace ij {

enum class audit_type : std::uint8_t {
  manifest,
  judge_call,
  vote,
  verdict,
  item_verdict,
  rejected,
  run_end,
  /// A resumed run continues here (core/audit/audit_resume.hpp): after an
  /// interrupted run_end, or after the last committed record of a killed run.
  resumed,
  /// A cascade's audited pair on which the LLM judge decided otherwise than
  /// the rule judge (issue 10).
  cascade_disagreement,
  /// A step of a batched judge's batch (core/audit/batch_record.hpp, issue 17),
  /// written and fsynced before the judge acts on it.
  batch,
  /// A canary's judge observation and a bias alarm (core/audit/canary_records).
  canary,
  bias_alarm,
  /// A judge host connected or lost, a vote moved off a lost worker, a reply
  /// that came after its vote was moved (core/audit/failover_records).
  host,
  vote_moved,
  late_reply,
};

constexpr std::string_view to_string(audit_type t) {
  switch (t) {
    case audit_type::manifest: return "manifest";
    case audit_type::judge_call: return "judge_call";
    case audit_type::vote: return "vote";
    case audit_type::verdict: return "verdict";
    case audit_type::item_verdict: return "item_verdict";
    case audit_type::rejected: return "rejected";
    case audit_type::run_end: return "run_end";
    case audit_type::resumed: return "resumed";
    case audit_type::cascade_disagreement: return "cascade_disagreement";
    case audit_type::batch: return "batch";
    case audit_type::canary: return "canary";
    case audit_type::bias_alarm: return "bias_alarm";
    case audit_type::host: return "host";
    case audit_type::vote_moved: return "vote_moved";
    case audit_type::late_reply: return "late_reply";
  }
  return "manifest";
}

/// Every type, in declaration order.
inline constexpr audit_type all_audit_types[] = {
  audit_type::manifest,
  audit_type::judge_call,
  audit_type::vote,
  audit_type::verdict,
  audit_type::item_verdict,
  audit_type::rejected,
  audit_type::run_end,
  audit_type::resumed,
  audit_type::cascade_disagreement,
  audit_type::batch,
  audit_type::canary,
  audit_type::bias_alarm,
  audit_type::host,
  audit_type::vote_moved,
  audit_type::late_reply,
};

/// Reads a type written by to_string back; nullopt for anything else.
inline std::optional<audit_type> audit_type_from_string(std::string_view s) {
  return enum_from_text(all_audit_types, s);
}

} // namespace ij
