#pragma once
// A run's totals: what every record the session sends to its audit logger
// adds to the run summary — calls, faults and tokens per judge and host,
// where the calls went (core/session/call_route), the faults' reasons
// (core/session/fault_reason_tally), pairs by rule, failover notes — and the
// panel, cascade and spend parts at the end (issue 10). Pure counting: the run
// session (actors/run_session) feeds it in write order, so the run-end
// record's totals agree with the records before it.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/agreement/cascade_tally.hpp"
#include "core/agreement/panel_tally.hpp"
#include "core/config/run_config.hpp"
#include "core/session/fault_reason_tally.hpp"
#include "messages/audit_type.hpp"
#include "messages/judge_info.hpp"
#include "messages/run_summary.hpp"
#include "messages/unrecorded_calls.hpp"
#include "messages/verdict.hpp"
#include "messages/vote_result.hpp"

namespace ij {

class run_tally {
public:
  /// Counts on from `start`: a resumed run's totals (every record already in
  /// its audit counts in its end), or nothing. The panel and cascade
  /// tallies follow `cfg` and start afresh either way.
  explicit run_tally(const run_config& cfg = run_config{},
                     run_summary start = {});

  /// The run's workers: each adds to its judge's usage line (usage is per
  /// judge name), and names its records' judge (judge_of).
  void name_workers(const std::vector<judge_info>& judges);

  /// One voted pair: its records (as add_records), its rule, and the panel's
  /// or cascade's tally.
  void add_pair(const vote_result& vr, std::optional<bool> label,
                verdict_rule rule);

  /// A canary's records (calls and tokens; never a pair), and its alarms.
  void add_canary(const vote_result& vr,
                  const std::vector<bias_alarm_event>& alarms);

  /// What one pair's (or canary's) records and votes not cast add.
  void add_records(const vote_result& vr);

  /// A cancelled run's calls no record shows (issue 26): calls sent,
  /// answered and aborted, and the spend of the replies that came back.
  void add_unrecorded(const std::vector<unrecorded_calls>& calls);

  /// A voted pair dropped after a cancel (never written): its calls sent
  /// count as answered and unrecorded.
  void add_dropped(const vote_result& vr);

  /// A failover note ("vote_moved", "late_reply", "host" with its event).
  void add_note(audit_type type, const std::string& host,
                const std::string& event);

  void add_rejected(std::uint64_t n) { summary_.rejected += n; }
  void add_items(std::uint64_t n) { summary_.items += n; }

  /// The usage line of a host ("local", a judge host's ADDR:PORT, "(none)"
  /// for votes no worker took), made on first use.
  host_usage& host(const std::string& host);

  /// The judge of a worker, {name, judge id}: workers the run started with
  /// are named by their judge; one unknown to them by its own id.
  std::pair<std::string, std::string>
  judge_of(const std::string& worker_id) const;

  /// The reasons of the faults so far, per judge and kind.
  const std::vector<fault_reason>& fault_reasons() const {
    return reasons_.reasons();
  }

  /// The panel, cascade and spend parts, as of now (the run's end).
  void fill_end_parts(const run_config& cfg);

  run_summary& summary() { return summary_; }
  const run_summary& summary() const { return summary_; }

private:
  void fill_spend(const run_config& cfg);

  run_summary summary_;
  /// worker id -> index in summary_.usage.
  std::unordered_map<std::string, std::size_t> usage_index_;
  /// host -> index in summary_.hosts.
  std::unordered_map<std::string, std::size_t> host_index_;
  /// Votes refused at a judge's budget, by index in summary_.usage.
  std::vector<std::uint64_t> budget_faults_;
  std::vector<judge_info> judges_;
  /// Calls no record shows, by judge id (spend counts them).
  std::vector<unrecorded_calls> unrecorded_;
  std::optional<panel_tally> panel_;
  std::optional<cascade_tally> cascade_;
  fault_reason_tally reasons_;
};

} // namespace ij
