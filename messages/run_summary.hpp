#pragma once
// What a finished (or interrupted) run adds up to; also the run-end record.
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

#include "messages/cascade_summary.hpp"
#include "messages/fault_reason.hpp"
#include "messages/judge_spend.hpp"
#include "messages/judge_watch.hpp"
#include "messages/panel_summary.hpp"

namespace ij {

/// Calls and tokens per judge, so that users see what a run cost.
struct judge_usage {
  std::string judge;
  std::uint64_t calls = 0;
  std::uint64_t faults = 0;
  std::uint64_t input_tokens = 0;
  std::uint64_t output_tokens = 0;
  /// Of those tokens, the ones of calls answered through a batch API:
  /// priced at the judge's batch discount.
  std::uint64_t batched_input_tokens = 0;
  std::uint64_t batched_output_tokens = 0;
};

inline bool operator==(const judge_usage& x, const judge_usage& y) {
  return x.judge == y.judge && x.calls == y.calls && x.faults == y.faults
         && x.input_tokens == y.input_tokens
         && x.output_tokens == y.output_tokens
         && x.batched_input_tokens == y.batched_input_tokens
         && x.batched_output_tokens == y.batched_output_tokens;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, judge_usage& x) {
  return f(caf::meta::type_name("ij.judge_usage"), x.judge, x.calls, x.faults,
           x.input_tokens, x.output_tokens, x.batched_input_tokens,
           x.batched_output_tokens);
}

/// Calls, faults and failovers per host ("local" or a judge host's
/// ADDR:PORT), so that users see which host served and which failed.
struct host_usage {
  std::string host;
  std::uint64_t calls = 0;
  std::uint64_t faults = 0;
  /// Votes taken from this host when it was lost and given to another.
  std::uint64_t votes_moved = 0;
  /// Replies that came from this host after their vote had moved (dropped).
  std::uint64_t late_replies = 0;
  /// Times the host was lost during the run.
  std::uint64_t lost = 0;
};

inline bool operator==(const host_usage& x, const host_usage& y) {
  return x.host == y.host && x.calls == y.calls && x.faults == y.faults
         && x.votes_moved == y.votes_moved && x.late_replies == y.late_replies
         && x.lost == y.lost;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, host_usage& x) {
  return f(caf::meta::type_name("ij.host_usage"), x.host, x.calls, x.faults,
           x.votes_moved, x.late_replies, x.lost);
}

/// The totals of a run; also its last event to the client.
struct run_summary {
  std::string run_id;
  std::uint64_t pairs = 0;    // pairs that got a verdict
  std::uint64_t rejected = 0; // input lines rejected
  std::uint64_t items = 0;    // statistical verdicts emitted
  /// Single verdicts by rule, I1..I5.
  std::uint64_t by_rule[5] = {0, 0, 0, 0, 0};
  std::uint64_t judge_calls = 0;
  std::uint64_t calls_skipped = 0; // votes not cast after early stop
  std::uint64_t faults = 0;        // failed judge calls
  std::uint64_t cached = 0;        // judge records reused from the cache
  /// Where the judge calls went (core/session/call_route.hpp): handed on to the
  /// backend, refused by a circuit breaker, refused at a budget. With the
  /// cached records and those no worker took they make judge_calls.
  std::uint64_t calls_sent = 0;
  std::uint64_t calls_refused_breaker = 0;
  std::uint64_t calls_refused_budget = 0;
  /// Issue 26. Of the calls sent, those whose reply (or fault) came back,
  /// recorded or dropped with an unfinished pair by a cancel; calls_sent
  /// also counts the calls a cancel aborted after their request had reached
  /// the backend. calls_aborted: the calls a cancel ended, sent or not.
  /// calls_unrecorded: the calls sent that no judge_call record shows (a
  /// cancel dropped their reply, or aborted them after sending), so that
  /// calls_sent = the records' sent calls + calls_unrecorded.
  std::uint64_t calls_answered = 0;
  std::uint64_t calls_aborted = 0;
  std::uint64_t calls_unrecorded = 0;
  std::vector<judge_usage> usage;
  /// Failed judge calls by fault kind (indexed by fault_kind's value).
  std::vector<std::uint64_t> faults_by_kind;
  bool interrupted = false;
  /// Why the run was interrupted or cancelled ("" when it was not).
  std::string stop_reason;
  /// Pairs taken in whose verdict was never written (interrupted runs).
  std::uint64_t unfinished = 0;
  /// Items whose statistical verdict was never decided.
  std::uint64_t open_items = 0;
  /// Audit lines written, run-end record included.
  std::uint64_t audit_lines = 0;
  /// SHA-256 of the audit's last line: keep it elsewhere to detect an edit
  /// of the end of the file.
  std::string final_hash;
  /// Non-empty when the run failed (its audit could not be written).
  std::string error;
  /// Votes moved from a lost worker to another serving the same judge, and
  /// replies dropped because their vote had moved (never counted twice).
  std::uint64_t votes_moved = 0;
  std::uint64_t late_replies = 0;
  /// Per host, in the order they first served.
  std::vector<host_usage> hosts;
  /// The panel's agreement, when the run has a panel.
  panel_summary panel;
  /// The cascade's account, when the run has a cascade.
  cascade_summary cascade;
  /// Spend per judge that has a budget or prices (else empty).
  std::vector<judge_spend> spend;
  /// Canaries judged and written (never counted in pairs or by_rule).
  std::uint64_t canaries = 0;
  /// Per judge: its canary results (issue 10).
  std::vector<canary_tally> canary_tallies;
  /// The bias alarms that fired, in order.
  std::vector<bias_alarm_event> alarms;
  /// Per judge, with order balancing: how often swapping A and B changed
  /// its decision.
  std::vector<position_bias_rate> position_bias;
  /// The run was ended by a bias alarm (on_alarm "stop-run"; exit 5).
  bool stopped_by_alarm = false;
  /// Per judge and fault kind, in order of first occurrence: the first
  /// failed call's words and the count (this run's part when resumed).
  std::vector<fault_reason> fault_reasons;
  /// Pairs screened (an answer states no result: ABSTAIN without a call)
  /// and pairs with planted-verdict flags (issue 29).
  std::uint64_t screened = 0;
  std::uint64_t flagged = 0;
};

inline bool operator==(const run_summary& x, const run_summary& y) {
  for (int i = 0; i < 5; ++i)
    if (x.by_rule[i] != y.by_rule[i])
      return false;
  return x.run_id == y.run_id && x.pairs == y.pairs && x.rejected == y.rejected
         && x.items == y.items && x.judge_calls == y.judge_calls
         && x.calls_skipped == y.calls_skipped && x.faults == y.faults
         && x.cached == y.cached && x.calls_sent == y.calls_sent
         && x.calls_refused_breaker == y.calls_refused_breaker
         && x.calls_refused_budget == y.calls_refused_budget
         && x.calls_answered == y.calls_answered
         && x.calls_aborted == y.calls_aborted
         && x.calls_unrecorded == y.calls_unrecorded && x.usage == y.usage
         && x.faults_by_kind == y.faults_by_kind
         && x.interrupted == y.interrupted && x.stop_reason == y.stop_reason
         && x.unfinished == y.unfinished && x.open_items == y.open_items
         && x.audit_lines == y.audit_lines && x.final_hash == y.final_hash
         && x.error == y.error && x.votes_moved == y.votes_moved
         && x.late_replies == y.late_replies && x.hosts == y.hosts
         && x.panel == y.panel && x.cascade == y.cascade && x.spend == y.spend
         && x.canaries == y.canaries && x.canary_tallies == y.canary_tallies
         && x.alarms == y.alarms && x.position_bias == y.position_bias
         && x.stopped_by_alarm == y.stopped_by_alarm
         && x.fault_reasons == y.fault_reasons && x.screened == y.screened
         && x.flagged == y.flagged;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, run_summary& x) {
  return f(caf::meta::type_name("ij.run_summary"), x.run_id, x.pairs,
           x.rejected, x.items, x.by_rule[0], x.by_rule[1], x.by_rule[2],
           x.by_rule[3], x.by_rule[4], x.judge_calls, x.calls_skipped, x.faults,
           x.cached, x.calls_sent, x.calls_refused_breaker,
           x.calls_refused_budget, x.calls_answered, x.calls_aborted,
           x.calls_unrecorded, x.usage, x.faults_by_kind, x.interrupted,
           x.stop_reason, x.unfinished, x.open_items, x.audit_lines,
           x.final_hash, x.error, x.votes_moved, x.late_replies, x.hosts,
           x.panel, x.cascade, x.spend, x.canaries, x.canary_tallies, x.alarms,
           x.position_bias, x.stopped_by_alarm, x.fault_reasons, x.screened,
           x.flagged);
}

} // namespace ij
