#pragma once
// The vote coordinator (SPEC §7, §10): multiVoteJudge for one run, over the
// judge workers that serve the run's judges.
//
// Per pair: absent A or B -> a result at once, no call (rule I1). Otherwise
// votes go out in waves: each wave asks for just as many votes as could still
// fix the outcome (k minus the larger side so far, at most the votes left);
// the next wave goes out only when the previous one is back and the tally is
// not fixed. So N=5, k=3 with three agreeing votes costs three calls, and the
// two votes not cast are recorded in counts.not_cast.
//
// Votes wait here, in a FIFO backlog, until a worker grants a credit (the
// worker's capacity is the worker's, shared by every run); the coordinator
// tells each worker how many votes wait (demand) and sends one call per
// credit, to the worker with credits and the fewest of this run's calls
// outstanding. Every vote has the vote deadline from the moment it is sent
// to a call: no answer in time is a fault ("deadline exceeded"), like a
// transport failure. A worker across a network grants credits beyond its
// capacity (issue 31: votes sent ahead over the round trip wait in its
// queue); a vote it says it queued has no deadline until it says the vote
// started, and counts as outstanding there meanwhile (a failover moves it
// with the votes in flight). Deadlines are kept with one timer armed for the
// oldest outstanding vote (CAF 0.17 keeps each request timeout's clock entry
// for the whole deadline, answered or not). A reply after its vote expired is
// dropped. The backlog, credits, demand and deadlines are a pure class of their
// own (core/voting/vote_schedule.hpp); this actor owns the messages, the votes'
// tallies and records. Vote i carries the chosen worker's base seed + i. With
// order balancing, odd votes swap A and B (the worker swaps NUMERIC_A/B back).
//
// Budgets: each call made counts against its judge's budget, each reply's
// tokens too; a worker whose judge is at its budget gets no call, and once
// every worker left is at its budget the waiting votes become faults of kind
// "budget" at once (never a wait).
//
// Workers come and go through the judge directory: a worker of one of the
// run's judges that joins is used. Failover: when one leaves (its actor
// ended, its host was lost), its outstanding votes move to another worker
// serving the same judge id — never another model — keeping their vote index
// and seed; each move is a "vote_moved" note for the audit. A reply that
// still comes from the old worker is dropped and noted ("late_reply"), never
// counted twice. A moved vote that no worker of its judge takes within
// `failover_wait` is a fault (I2, "unavailable"); so are waiting votes when
// no worker at all is left for that long. Host events relayed by the
// directory become "host" notes. Notes go to the sink in order.
//
// A judge stopped by the run (stop_judge_atom: the bias alarm's stop-judge)
// is treated like a worker that left, for good: its outstanding votes become
// faults at once, its credits go back to the worker (shared with other runs),
// and its later votes go to the run's other judges or become faults.
//
// Calibration (issue 16): with maps, each result carries the calibrated
// probability that the answers are equivalent
// (core/calibration/calibration.hpp) and why its voting stopped; with
// stop.probability, waves are one vote each and a pair stops once that
// probability of its leading decision reaches the threshold, before the tally
// fixes the outcome (core/voting/sequential_stop.hpp).
//
// Cancel (issue 26): every job is dropped and each worker told to end this
// run's calls (aborted in flight: their slots free at once). The reply says
// what became of the calls no record will show — the records of unfinished
// pairs (calls answered), and each call in flight, aborted sent or unsent,
// or answered when its reply came first (core/budgets/cancel_account.hpp) —
// once every worker has answered, or after `abort_wait` (the calls of a worker
// that has not said count as sent).
//
// Outcome: with votes = 1 the single record maps as in SPEC §3, so ABSTAIN
// with abstain_as_neither = false is {false, 0}. With votes > 1 the tally
// rule of §7 decides and ABSTAIN never counts toward either side, whatever
// abstain_as_neither says (turning abstentions into DIFFERENT votes would let
// a judge that cannot read the answers outvote one that can).
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <caf/typed_event_based_actor.hpp>
#include <caf/typed_response_promise.hpp>

#include "core/budgets/cancel_account.hpp"
#include "core/budgets/judge_budget.hpp"
#include "core/calibration/calibration.hpp"
#include "core/hosts/worker_key.hpp"
#include "core/voting/vote_schedule.hpp"
#include "core/voting/vote_tally.hpp"
#include "messages/interfaces.hpp"

namespace ij {

struct vote_settings {
  vote_config votes;
  bool order_balancing = false;
  bool abstain_as_neither = true;
  std::chrono::milliseconds deadline{120000};
  /// How long a vote waits for a worker of its judge when the workers
  /// serving it are gone, before it is a fault.
  std::chrono::milliseconds failover_wait{30000};
  /// Budgets by judge id (core/budgets/judge_budget.hpp): a judge at its budget
  /// gets no more calls, and a vote no judge within budget can take is a fault
  /// of kind "budget". Judges absent here have no budget.
  std::unordered_map<std::string, budget_meter> budgets;
  /// Calibration maps by judge id (issue 16): each result then carries the
  /// calibrated probability that the answers are equivalent. Null: none.
  std::shared_ptr<const calibration_set> calibration;
  /// stop.probability: votes go out one at a time and a pair stops once the
  /// calibrated probability of its leading decision reaches this
  /// (core/voting/sequential_stop.hpp). Needs `calibration`.
  std::optional<double> stop_probability;
  /// The run's tag (core/session/run_tag.hpp), carried by every vote with the
  /// pair's sequence number: a batched judge's custom_ids are made of them.
  std::string run_tag;
  /// After a cancel, how long workers have to say what became of the
  /// calls they were aborting (a host far away, or hung).
  std::chrono::milliseconds abort_wait{2000};
};

struct vote_coordinator_state {
  static inline const char* name = "vote-coordinator";

  /// A worker's handle and description, kept by the schedule with its
  /// credits, calls and demand.
  struct worker_link {
    judge_worker_actor actor;
    judge_info info;
    /// Calls to send at the end of the current message.
    std::vector<judge_call> outgoing;
  };

  struct job {
    vote_job work;
    vote_tally tally;
    /// Votes asked for so far (sent or in the backlog).
    std::uint32_t asked = 0;
    /// Votes sent so far: the next vote's index.
    std::uint32_t dispatched = 0;
    /// Votes asked for and not back yet (sent or in the backlog).
    std::uint32_t in_flight = 0;
    std::vector<judge_record> records;
  };

  /// The settings; their budgets live in the schedule from spawn on.
  vote_settings settings;
  vote_sink_actor sink;
  /// The run's judges: workers of other judges are not used.
  std::set<std::string> judge_ids;
  /// With a selection, only the workers it takes (the run's exact call
  /// settings, core/hosts/worker_key.hpp), even among those of its judge ids.
  std::optional<judge_selection> selection;
  /// Worker ids to their index in the schedule.
  std::unordered_map<std::string, std::size_t> worker_index;
  std::unordered_map<std::uint64_t, job> jobs;
  /// The workers; backlog, credits and demand, deadlines and the timer,
  /// moved votes, budgets (core/voting/vote_schedule.hpp).
  linked_vote_schedule<worker_link> schedule;
  /// Tokens of calls whose vote moved away: a reply with one is late.
  std::unordered_map<std::uint64_t, std::string> moved_tokens;
  bool cancelled = false;
  /// After a cancel: the account of the run's calls, and the reply it is
  /// for until every call in flight is settled (or the wait ends).
  cancel_account cancelled_calls;
  std::optional<caf::typed_response_promise<std::vector<unrecorded_calls>>>
    cancel_reply;
  caf::actor_clock::time_point cancel_until;
  /// Judges stopped for this run (the bias alarm's stop-judge), with why:
  /// their workers get no call, even if they join again.
  std::map<std::string, std::string> stopped_judges;
  /// Results to send to the sink at the end of the current message.
  std::vector<voted_pair> done;
  /// Audit notes to send to the sink at the end of the current message.
  std::vector<run_note> notes;
};

/// Precondition: settings.votes valid. `workers` are those the directory
/// knows now; the coordinator subscribes to `directory` for later changes.
vote_coordinator_actor::behavior_type vote_coordinator(
  vote_coordinator_actor::stateful_pointer<vote_coordinator_state> self,
  vote_sink_actor sink, judge_directory_actor directory,
  std::vector<std::string> judge_ids, std::vector<worker_entry> workers,
  vote_settings settings);

/// The same over the workers `selection` takes: a worker of the run's judge
/// ids whose call settings differ (another run's, in the daemon) is never
/// used, neither at spawn nor when it joins later.
vote_coordinator_actor::behavior_type selective_vote_coordinator(
  vote_coordinator_actor::stateful_pointer<vote_coordinator_state> self,
  vote_sink_actor sink, judge_directory_actor directory,
  judge_selection selection, std::vector<worker_entry> workers,
  vote_settings settings);

} // namespace ij
