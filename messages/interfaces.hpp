#pragma once
// Every typed actor interface of invariance-judge, in one place, so that the
// whole protocol reads on one page (SPEC §10; docs/ARCHITECTURE.md draws it).
//
// Who talks to whom:
//   client (driver, daemon, bench) --input_batch--> run session
//   run session --vote_job batch--> vote coordinator (one per run)
//   vote coordinator <--credits/calls/replies--> judge workers (shared)
//   vote coordinator --voted_pair batch--> run session
//   run session --audit_batch--> audit logger (one per run) --> file
//   run session --verdicts, events--> run listener (the client)
//   judge directory --joined/left--> subscribers (vote coordinators)
//   host connector --hello/list/ping--> judge host (another process), and
//     --join/leave/host_event--> judge directory (workers of hosts join it)
//   daemon uploads --append--> daemon run (the run session's client and
//     listener) --read--> pairs file reader (lines an upload spilled)
//   daemon HTTP handlers --find--> run registry; --get/wait/upload/close/
//     cancel--> daemon run; daemon run --lines, end--> state writer
#include <cstdint>
#include <string>
#include <vector>

#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "messages/atoms.hpp"
#include "messages/audit_entry.hpp"
#include "messages/canary_result.hpp"
#include "messages/daemon_handles.hpp"
#include "messages/host_event.hpp"
#include "messages/host_hello.hpp"
#include "messages/judge_call.hpp"
#include "messages/judge_info.hpp"
#include "messages/run_events.hpp"
#include "messages/run_figures.hpp"
#include "messages/run_input.hpp"
#include "messages/run_note.hpp"
#include "messages/run_row.hpp"
#include "messages/run_summary.hpp"
#include "messages/unrecorded_calls.hpp"
#include "messages/verdict.hpp"
#include "messages/verdict_batch.hpp"
#include "messages/vote_job.hpp"

namespace ij {

// --- Judges as services ----------------------------------------------------

/// The client side of a judge worker: a vote coordinator. Everything a
/// worker says to a client is one message type.
using judge_client_actor = caf::typed_actor<
  // Calls finished (their records) and credits granted: one call may be
  // made per credit. Sent by the worker to the client that made the calls
  // or announced the demand.
  caf::reacts_to<worker_update>>;

/// A judge worker: one adapter instance serving one judge, shared by every
/// run in the actor system (and, through a host, by other systems). It keeps
/// at most `capacity` calls in flight and grants them to its clients
/// round-robin, so no client starves another and a call never waits in a
/// queue behind other clients' calls. A client names itself in each of its
/// messages (its handle: where the worker's updates go, monitored from the
/// first); a message with an invalid handle is ignored.
using judge_worker_actor = caf::typed_actor<
  // Describes the worker and the judge it serves.
  caf::replies_to<info_atom>::with<judge_info>,
  // The client has this many calls waiting beyond the credits it holds
  // (absolute: replaces the last figure). The worker grants credits as its
  // capacity allows, never more than asked.
  caf::reacts_to<demand_atom, judge_client_actor, std::uint32_t>,
  // Calls the client made with granted credits; each comes back as a
  // judge_reply in a worker_update. A transport failure is a record, never
  // an error.
  caf::reacts_to<judge_client_actor, std::vector<judge_call>>,
  // Credits the client does not need after all.
  caf::reacts_to<release_atom, judge_client_actor, std::uint32_t>,
  // The client's run was cancelled: its calls waiting here are dropped, its
  // calls at the adapter aborted (their slots free at once); each comes
  // back as a record of fault `aborted` (attempts 0: never sent), or as its
  // reply when that came first. Its credits and demand go.
  caf::reacts_to<cancel_atom, judge_client_actor>,
  // The round trip (microseconds) to the clients on a node, as the judge
  // host's pings measured it: the worker queues that many seconds of calls
  // for them beyond its capacity (core/voting/queue_depth.hpp), so that its
  // slots never wait for the network. Clients of no node told have no queue.
  caf::reacts_to<rtt_atom, caf::node_id, std::uint32_t>,
  // Counters (in flight, peak, calls, clients, queued, peak queued).
  caf::replies_to<status_atom>::with<worker_status>>;

/// A worker as the directory lists it.
struct worker_entry {
  judge_worker_actor worker;
  judge_info info;
};

inline bool operator==(const worker_entry& x, const worker_entry& y) {
  return x.worker == y.worker && x.info == y.info;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, worker_entry& x) {
  return f(caf::meta::type_name("ij.worker_entry"), x.worker, x.info);
}

/// Who wants to know when workers join or leave.
using directory_listener_actor = caf::typed_actor<
  // A worker joined (or was re-registered).
  caf::reacts_to<joined_atom, worker_entry>,
  // A worker left: worker id and why (its actor ended, its host was lost).
  caf::reacts_to<left_atom, std::string, std::string>,
  // Something happened to a judge host (connected, lost, ...): for the
  // audit trail of every run.
  caf::reacts_to<host_event>>;

/// Knows which judge workers exist (local ones now; workers on other hosts
/// join the same way).
using judge_directory_actor = caf::typed_actor<
  // Registers a worker: the directory asks it for its info, monitors it,
  // tells the subscribers, and replies with the info.
  caf::replies_to<join_atom, judge_worker_actor>::with<judge_info>,
  // The workers known now.
  caf::replies_to<list_atom>::with<std::vector<worker_entry>>,
  // Subscribes (monitored: a subscriber that ends is dropped); replies with
  // the workers known now, then sends joined/left as they happen.
  caf::replies_to<subscribe_atom,
                  directory_listener_actor>::with<std::vector<worker_entry>>,
  // Forgets a worker whose host was declared lost although its actor may
  // live on behind a hung connection (worker id, why): subscribers are told
  // it left. Unknown ids are ignored.
  caf::reacts_to<leave_atom, std::string, std::string>,
  // A host event, relayed to every subscriber.
  caf::reacts_to<host_event>,
  // Ends every worker of this node it knows (a worker referenced by a
  // coordinator elsewhere would keep the actor system waiting); workers on
  // other nodes are theirs to end. Replies with how many it ended.
  caf::replies_to<shutdown_atom>::with<std::uint32_t>>;

// --- Judge hosts ------------------------------------------------------------

/// What `invjudge host` publishes: the judge workers of its process, for a
/// coordinator's host connector. Keys stay on the host; only judge_info
/// (which names a key's variable, never the key) and handles cross.
using judge_host_actor = caf::typed_actor<
  // Who the host is: version, prompt, message-type set (checked by the
  // coordinator before it uses any worker).
  caf::replies_to<hello_atom>::with<host_hello>,
  // The host's workers with their descriptions; an error while the host is
  // still starting them.
  caf::replies_to<list_atom>::with<std::vector<worker_entry>>,
  // Liveness: replies with the host's epoch (a hung host does not reply).
  // Carries the round trip (microseconds, 0: none yet) the connector's
  // last ping took, which the host tells its workers for the sender's node.
  caf::replies_to<ping_atom, std::uint32_t>::with<std::uint64_t>>;

/// A coordinator's link to one judge host: connects (with finite timeouts,
/// never blocking a scheduler thread), checks the host, joins its workers to
/// the judge directory, pings it, declares it lost, backs off and rejoins.
using host_connector_actor = caf::typed_actor<
  // Replies once the first connection attempt has ended, with what became
  // of it (connected, or refused / not reachable in `detail`).
  caf::replies_to<ready_atom>::with<host_event>,
  // The host's state now, as its last event.
  caf::replies_to<status_atom>::with<host_event>,
  // Internal: the next connection attempt, the next ping (the number of
  // the attempt they belong to; stale ones are ignored).
  caf::reacts_to<retry_atom, std::uint64_t>,
  caf::reacts_to<host_tick_atom, std::uint64_t>>;

// --- A run ------------------------------------------------------------------

/// Where a vote coordinator delivers its results: the run session.
using vote_sink_actor = caf::typed_actor<
  // Pairs whose votes are all in (or that needed none), in completion order.
  caf::reacts_to<std::vector<voted_pair>>,
  // Records of what happened to votes and hosts (vote moved, late reply
  // dropped, host connected/lost/...), for the run's audit trail, in order.
  caf::reacts_to<std::vector<run_note>>>;

/// What a run session asks of whoever votes its pairs: a vote coordinator
/// (the run's judges pool their votes) or a vote router (a panel or a
/// cascade). Both have these handlers; the session holds this view.
using vote_service_actor = caf::typed_actor<
  // Pairs to vote on; results go to the sink given at spawn.
  caf::reacts_to<std::vector<vote_job>>,
  // Drops every job and ends the run's calls (the workers abort those in
  // flight); replies, once every worker said what became of them (or after
  // a short wait), with the calls no record will show, per judge.
  caf::replies_to<cancel_atom>::with<std::vector<unrecorded_calls>>,
  // Stops a judge (by judge id) for this run, with the reason (the bias
  // alarm's stop-judge); a router passes it to that judge's coordinator.
  caf::reacts_to<stop_judge_atom, std::string, std::string>,
  // A snapshot of the workers as this run sees them.
  caf::replies_to<status_atom>::with<std::vector<worker_load>>>;

/// A panel or a cascade (issue 10): splits each pair into one job per judge
/// it needs, each voted by that judge's own coordinator, and combines their
/// results into the pair's (actors/vote_router.hpp). The coordinators
/// deliver to it as to a session.
using vote_router_actor = vote_service_actor::extend_with<vote_sink_actor>;

/// multiVoteJudge (SPEC §7) for one run, over the workers of its judges.
using vote_coordinator_actor = caf::typed_actor<
  // Pairs to vote on; results go to the sink given at spawn.
  caf::reacts_to<std::vector<vote_job>>,
  // Drops every job: no further call is made; the workers abort the calls
  // in flight. Replies with the calls no record will show (replies of
  // unfinished pairs, aborted calls, sent or not), per judge, once every
  // worker answered the cancel or after a short wait.
  caf::replies_to<cancel_atom>::with<std::vector<unrecorded_calls>>,
  // Stops a judge (by judge id) for this run, with the reason (the bias
  // alarm's stop-judge): its workers get no more calls, their outstanding
  // and future votes become fault records; other judges' workers take the
  // votes when the run has any.
  caf::reacts_to<stop_judge_atom, std::string, std::string>,
  // A snapshot of the workers as this run sees them.
  caf::replies_to<status_atom>::with<std::vector<worker_load>>,
  // Internal: the one deadline timer (CAF 0.17 keeps a request timeout's
  // clock entry until it fires, even after the reply came).
  caf::reacts_to<deadline_atom>>::extend_with<judge_client_actor>::
  extend_with<directory_listener_actor>;

/// The only writer of one run's audit trail (SPEC §11).
using logger_actor = caf::typed_actor<
  // Appends the records in order (seq, type, ts, prev added here) and
  // replies with the seq and the SHA-256 of the last line once they are as
  // durable as the flush policy requires; an error when the file cannot be
  // written or is closed.
  caf::replies_to<audit_batch>::with<std::uint64_t, std::string>,
  // Group commit: one fsync for every durable batch written so far.
  caf::reacts_to<flush_atom>>;

/// What a run tells its client. Events arrive in this order: run_started,
/// then verdict batches, progress and warnings, then the run_summary last.
using run_listener_actor = caf::typed_actor<
  // The manifest is written.
  caf::reacts_to<run_started>,
  // Pair verdicts whose records are written (durable per flush policy).
  caf::reacts_to<std::vector<single_verdict>>,
  // Item verdicts whose records are written.
  caf::reacts_to<std::vector<statistical_verdict>>,
  // Canaries whose records are written (never counted as pairs).
  caf::reacts_to<std::vector<canary_result>>,
  // A snapshot, at the progress interval.
  caf::reacts_to<run_progress>,
  // A warning in plain words (also in the audit when it concerns the run).
  caf::reacts_to<warning_atom, std::string>,
  // The run ended (complete, interrupted or failed): its totals. Nothing
  // follows.
  caf::reacts_to<run_summary>>;

/// A run session: owns one run — its id, manifest, audit trail, input
/// window, item bookkeeping and end. Several live in one actor system,
/// sharing the judge workers.
using run_actor = caf::typed_actor<
  // Pairs and rejected lines. Replies with the pairs taken in so far once the
  // window has room for more: a client sends its next batch after the reply,
  // so memory stays bounded whatever the input size.
  caf::replies_to<input_batch>::with<std::uint64_t>,
  // The input is complete: item verdicts become due; the run ends once every
  // pair is decided.
  caf::reacts_to<end_of_input_atom>,
  // Ends the run now: pairs not yet decided are listed unfinished in the
  // run-end record, marked interrupted with the reason.
  caf::reacts_to<cancel_atom, std::string>,
  // A snapshot.
  caf::replies_to<status_atom>::with<run_progress>>;

/// The session's whole interface: the client's, its coordinator's, and its
/// own progress timer (internal).
using run_session_actor = run_actor::extend_with<vote_sink_actor>::extend<
  caf::reacts_to<progress_atom>>;

// --- The daemon (invjudge serve) -------------------------------------------

/// Reads a run's pairs file back (daemon/pairs_file_reader): the daemon's
/// one thread for that blocking I/O, shared by its runs.
using pairs_file_reader_actor = caf::typed_actor<
  // (path, from, to, line): the lines in bytes [from, to) of the file, the
  // first numbered line + 1, up to 1,024 pairs; replies with them, the byte
  // where the next read starts and the number of the last line read.
  caf::replies_to<read_atom, std::string, std::uint64_t, std::uint64_t,
                  std::uint64_t>::with<input_batch, std::uint64_t,
                                       std::uint64_t>>;

/// One run of the daemon (daemon/run_actor): its session's client and
/// listener, fed by the uploads, and the one owner of the live run — its
/// row and counts, its upload side, its followers — until its end is saved;
/// no thread of its own. HTTP requests reach it as messages (found through
/// the run registry) and are answered when it answers.
using daemon_run_actor = run_listener_actor::extend<
  // Lines an upload appended and fsynced: its pairs and rejected lines, the
  // bytes [from, to) of the pairs file they fill, and the number of the
  // line before them.
  caf::reacts_to<append_atom, input_batch, std::uint64_t, std::uint64_t,
                 std::uint64_t>,
  // The run as now, its counts included.
  caf::replies_to<get_atom>::with<run_row>,
  // A follower (after, wait_ms): answers with the run once verdict lines
  // after `after` are stored, the run has ended, or wait_ms has passed (at
  // once for 0).
  caf::replies_to<wait_atom, std::uint64_t, std::uint64_t>::with<run_row>,
  // An upload: the run's input, lent (once an upload under way has given it
  // back); run_ended or run_state when the run takes no more input.
  caf::replies_to<upload_atom>::with<input_lease_ref>,
  // The input given back (its lease dropped): what the upload took.
  caf::reacts_to<upload_atom, input_lease_ref>,
  // POST close: the input is complete (once an upload under way has ended).
  caf::replies_to<end_of_input_atom>::with<run_row>,
  // DELETE: the run ends now, cancelled, with the reason (through its
  // session's cancel); answers once its end is saved.
  caf::replies_to<cancel_atom, std::string>::with<run_row>,
  // SIGTERM: the run ends like Ctrl-C, with the reason, and stays
  // unfinished in the state (it resumes at the next start).
  caf::reacts_to<shutdown_atom, std::string>,
  // A follower's wait has run out (internal).
  caf::reacts_to<deadline_atom, std::uint64_t>>;

/// The daemon's state writer (daemon/state_writer): the one connection that
/// writes the state database, on a thread of its own (detached: SQLite
/// blocks). Verdict lines are committed in groups: whatever waits in its
/// mailbox goes in one transaction.
using state_writer_actor = caf::typed_actor<
  // A new run's row: answers once it is committed.
  caf::replies_to<create_atom, run_row>::with<bool>,
  // What an upload or a close changed (lines, accepted, closed, state,
  // counts) while the run is unfinished; its lines and accepted always.
  caf::reacts_to<input_atom, run_row>,
  // Verdict lines: answers with their last seq once committed.
  caf::replies_to<verdict_batch>::with<std::uint64_t>,
  // A run's end, after its lines: answers with the row as saved.
  caf::replies_to<run_end_record>::with<run_row>,
  // Retention (keep_ms, keep_runs, now_ms; 0: no limit): removes the
  // finished runs past either, their rows, lines and files; answers with
  // what it removed.
  caf::replies_to<retain_atom, std::int64_t, std::uint64_t,
                  std::int64_t>::with<std::vector<removed_run>>,
  // Folds the WAL into the database (a clean shutdown).
  caf::replies_to<checkpoint_atom>::with<bool>,
  // Its own group commit (internal).
  caf::reacts_to<flush_atom>>;

/// The daemon's runs (daemon/run_registry): which runs are live and their
/// actors, the judge workers they use (one per exact set of call settings,
/// core/hosts/worker_key, retired once idle), the finished runs' sums for
/// /metrics, and the retention. HTTP handlers ask it, never share memory
/// with it.
using run_registry_actor = caf::typed_actor<
  // A run created (its row inserted first) or resumed at start: its missing
  // workers started, its actor spawned; answers with its row.
  caf::replies_to<create_atom, run_launch_ref>::with<run_row>,
  // The actor of live run `id`; an invalid handle when none is live.
  caf::replies_to<find_atom, std::string>::with<daemon_run_actor>,
  // The live runs among `ids`, as their actors last told (state, counts).
  caf::replies_to<find_atom,
                  std::vector<std::string>>::with<std::vector<run_row>>,
  // A live run's state and counts and followers waiting (from its actor).
  caf::reacts_to<live_atom, run_row, std::uint64_t>,
  // Cancels run `id`'s batches at the providers (DELETE).
  caf::reacts_to<cancel_atom, std::string>,
  // A run's actor has ended (final: its end saved) with its row; a failed
  // resume at start too.
  caf::reacts_to<ended_atom, run_row, bool>,
  // /metrics.
  caf::replies_to<metrics_atom>::with<run_figures>,
  // SIGTERM: every run ended like Ctrl-C, then the state checkpointed;
  // answers with the runs stopped.
  caf::replies_to<shutdown_atom>::with<std::uint32_t>,
  // Its timers: a retention pass; an idle worker's retirement (key,
  // generation).
  caf::reacts_to<retain_atom>,
  caf::reacts_to<retire_atom, std::string, std::uint64_t>>;

} // namespace ij
