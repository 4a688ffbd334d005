#pragma once
// A run session's totals (actors/run_session): what every record sent to
// the logger adds to the run summary — calls, faults and tokens per judge
// and host, where the calls went (core/call_route), the faults' reasons
// (core/fault_reason_tally) — and the panel, cascade and spend parts at the
// end. Plain functions over the session's state; no messages.
#include <string>
#include <unordered_map>
#include <utility>

#include "actors/run_session.hpp"

namespace ij {

/// Counts one pair's (or canary's) records and votes not cast.
void account(run_session_state& st, const vote_result& vr);

/// The usage line of a host ("local", a judge host's ADDR:PORT, "(none)"
/// for votes no worker took), made on first use.
host_usage& host_line(run_session_state& st, const std::string& host);

/// The panel, cascade and budget parts of the summary (issue 10).
void fill_watch_summaries(run_session_state& st);

/// Maps each of the run's workers to its judge's usage line (usage is per
/// judge name; every worker of a judge adds to it).
void index_usage(run_session_state& st);

/// A meter per budgeted judge, by judge id (the coordinators' key); a
/// resumed run's meters start from what its audit says was spent.
std::unordered_map<std::string, budget_meter>
budget_meters(const run_config& cfg, const resume_point* resume);

/// The judge of a worker, {name, judge id}: workers the run started with
/// are named by their judge; one unknown to the manifest by its own id.
std::pair<std::string, std::string> judge_of(const run_session_state& st,
                                             const std::string& worker_id);

/// The run as its listener sees it now (state, pairs taken in and written,
/// I2 faults, judge calls), without the workers' loads.
run_progress snapshot(const run_session_state& st);

} // namespace ij
