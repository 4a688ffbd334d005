#pragma once
// The audit trail's record format (SPEC §11), pure: JSON bodies of each
// record type, and the one function that turns a body into a chained line.
//
// A line is one JSON object: {"seq":N,"type":T,"ts":ISO-8601,"prev":H,...}
// followed by the body's own fields. "prev" is the lower-case hex SHA-256 of
// the previous line's exact bytes (without its '\n'); the first line's prev
// is 64 zeros. core/audit/audit_chain.hpp verifies files of such lines.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "messages/answer_pair.hpp"
#include "messages/audit_type.hpp"
#include "messages/judge_record.hpp"
#include "messages/run_summary.hpp"
#include "messages/verdict.hpp"
#include "messages/vote_result.hpp"

namespace ij {

/// The prev of the first line.
inline constexpr std::string_view audit_genesis_hash =
  "0000000000000000000000000000000000000000000000000000000000000000";

/// "2026-12-02T13:50:57.123Z" for milliseconds since the Unix epoch.
std::string iso8601_utc(std::int64_t unix_ms);

/// Appends the line (no '\n') for `body`, a JSON object text, to `out`.
/// The header fields come first so that a reader sees seq and type at once.
void append_audit_line(std::string& out, std::uint64_t seq,
                       std::string_view type, std::string_view ts,
                       std::string_view prev, std::string_view body);

/// The same for a record of the run (the writers name its type by the
/// enumeration; the text form above also serves tests writing types no
/// writer has).
inline void append_audit_line(std::string& out, std::uint64_t seq,
                              audit_type type, std::string_view ts,
                              std::string_view prev, std::string_view body) {
  append_audit_line(out, seq, to_string(type), ts, prev, body);
}

/// One judge call: every field of the record (never a key: records hold
/// none). NUMERIC_A/B empty are written as null.
std::string judge_call_body(const judge_record& rec);

/// The vote aggregate of one pair: the pair as read (id, item, A, B), the
/// outcome and the counts, votes not cast included. With a panel or a
/// cascade also "route" (the panel's agreement tier "all" / "majority" /
/// "split", or the cascade path "rules" / "fallback" / "audited") and
/// "parts": per judge {"judge", "role", "outcome", "counts"}; counts are
/// then the sums over the parts.
std::string vote_body(const answer_pair& pair, const vote_result& vr);

/// The single verdict of one pair, with its label and transform when given.
std::string verdict_body(const answer_pair& pair, const single_verdict& v);

/// The same three, appended to `out` (the audit logger renders every
/// pair's records into one reused buffer: no allocation per record).
void judge_call_body(rapidjson::StringBuffer& out, const judge_record& rec);
void vote_body(rapidjson::StringBuffer& out, const answer_pair& pair,
               const vote_result& vr);
void verdict_body(rapidjson::StringBuffer& out, const answer_pair& pair,
                  verdict_kind verdict, verdict_rule rule,
                  const equivalence_outcome& outcome);

/// "outcome": {...} and "counts": {...} members, the same in every record
/// that carries them (vote, verdict, canary); the vote counts also in the
/// output lines, under "votes", with the same names.
void write_outcome(rapidjson::Writer<rapidjson::StringBuffer>& w,
                   const equivalence_outcome& o);
void write_vote_counts(rapidjson::Writer<rapidjson::StringBuffer>& w,
                       const vote_counts& c, const char* key = "counts");

/// The statistical verdict of one item with counts, p, interval and params.
std::string item_verdict_body(const statistical_verdict& v);

/// A cascade disagreement: the pair (id, item, A, B, label), both judges'
/// names and outcomes.
std::string cascade_disagreement_body(const answer_pair& pair,
                                      const vote_result& vr);

/// An input line the driver rejected.
std::string rejected_body(std::string_view file, std::uint64_t line,
                          std::string_view reason);

/// The run-end record: the totals, whether the run was interrupted, the
/// pairs still being judged when it ended and the items left open; with a
/// panel "panel", with a cascade "cascade", with budgets or prices "spend"
/// (README, "Watching the judge", lists their fields).
std::string run_end_body(const run_summary& summary,
                         const std::vector<std::string>& unfinished_pairs,
                         std::uint32_t open_items);

} // namespace ij
