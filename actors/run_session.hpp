#pragma once
// A run session (SPEC §10, §11): owns one run — its id, manifest, audit trail
// (through its own audit logger), input window, per-item bookkeeping and end
// — and uses judge workers it does not own: several sessions can live in one
// actor system, sharing the workers through the judge directory.
//
// One pair's path: client --input_batch--> session (admits it: seq, item
// count; screens it and flags planted verdicts, core/guard/pair_guard: a pair
// no judge is to be asked about gets its abstention here, without a call)
// --vote_job--> its vote coordinator --calls--> workers --replies-->
// coordinator --voted_pair--> session (verdict by the I1-I5 table, audit
// lines rendered: judge calls, vote, verdict, and any item verdict now due)
// --audit_batch--> logger (chains, writes, fsyncs per policy) --reply-->
// session --verdicts--> listener. Batches all the way: a message carries many
// pairs, so crossing actors costs little per pair.
//
// Start: the session lists the directory's workers, keeps those serving its
// judges (a judge with no worker fails the run before anything is written),
// spawns its coordinator and writes the manifest; input that arrives before
// waits. End: after end_of_input and once every pair is decided and written,
// the run-end record is written (fsynced), the listener gets the summary and
// the session exits with its coordinator and logger. A cancel ends the run at
// once: pairs not yet decided are listed unfinished; every record written
// before the run-end record is counted in it, so its totals always agree with
// the records before it. The run's calls in flight are aborted (issue 26):
// the coordinator answers the cancel with what became of the calls no record
// will show (sent, answered, aborted), which the run-end record counts.
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <caf/actor_system.hpp>
#include <caf/expected.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <caf/typed_response_promise.hpp>

#include "actors/batch_audit_journal.hpp"
#include "actors/canary_watch.hpp"
#include "actors/vote_coordinator.hpp"
#include "core/audit/audit_resume.hpp"
#include "core/calibration/position_bias.hpp"
#include "core/config/run_config.hpp"
#include "core/guard/pair_guard.hpp"
#include "core/session/run_tally.hpp"
#include "core/session/session_phase.hpp"
#include "core/verdicts/item_ledger.hpp"
#include "core/voting/input_window.hpp"
#include "messages/interfaces.hpp"

namespace ij {

/// Everything a run needs, checked by spawn_run before anything is spawned.
struct run_setup {
  /// Empty: one is made from the start time.
  std::string run_id;
  /// Validated configuration (core/config/run_config.hpp); its judges name the
  /// workers to vote with (by judge id).
  run_config config;
  /// Where the audit trail goes: a new file (an existing non-empty one is
  /// refused: a run never appends to another run's audit).
  std::string audit_path;
  judge_directory_actor directory;
  /// Receives the run's events; may be invalid (nobody is told).
  run_listener_actor listener;
  /// Pairs taken in and not yet released at most (0: from the judges'
  /// capacity).
  std::uint32_t window = 0;
  /// How often the listener gets a run_progress (0: never).
  std::chrono::milliseconds progress_interval{0};
  /// Runs the audit logger on its own thread (production). Tests driving
  /// CAF's deterministic scheduler set false.
  bool detached_logger = true;
  /// Continues a run from its audit (actors/audit_file's
  /// open_audit_for_resume): the run id and totals are its, a `resumed`
  /// record replaces the manifest, pairs it decided are taken in without a
  /// judge call, rejected lines and item verdicts it holds are not written
  /// again, and the chain goes on.
  std::shared_ptr<const resume_point> resume;
  /// The audit's descriptor when the caller opened it (a resumed run: the
  /// session owns it from spawn_run on); -1: spawn_run creates audit_path
  /// and puts its descriptor here, which the session hands to its logger.
  int audit_fd = -1;
  /// The batched judges' journal (issue 17): bound to this run's audit
  /// logger once the manifest or resume record is written (a batch record
  /// never precedes it), released when the run ends. Null: no batched judge.
  std::shared_ptr<batch_audit_journal> batch_journal;
};

struct run_session_state {
  static inline const char* name = "run-session";

  /// Input that arrived while the run was starting.
  struct waiting_input {
    input_batch batch;
    caf::typed_response_promise<std::uint64_t> promise;
  };

  /// A batch of records on its way to the logger, and what it releases.
  struct pending_write {
    std::vector<single_verdict> verdicts;
    std::vector<statistical_verdict> items;
    std::vector<canary_result> canaries;
    bool last = false;
  };

  run_setup setup;
  /// Starting, running, finishing, ended; input closed; cancel deferred
  /// (core/session/session_phase.hpp: what each message may do in each).
  session_phase phase;
  logger_actor logger;
  /// The run's vote coordinator, or its vote router (panel, cascade).
  vote_service_actor coordinator;
  std::vector<judge_info> judges;
  std::vector<std::string> warnings;

  std::deque<waiting_input> waiting;
  /// Input replies held until the window has room.
  std::vector<caf::typed_response_promise<std::uint64_t>> held;
  /// Pairs taken in and not yet released: seqs, open pairs, positions.
  input_window window;
  item_ledger items{statistical_params{}};
  /// Batches sent to the logger and not answered yet, in order.
  std::deque<pending_write> writes;

  /// Totals of every record sent to the logger (the run-end record's).
  run_tally totals;
  /// A cancel is waiting for the coordinator's account of the calls no
  /// record will show (voted pairs arriving meanwhile are counted in it).
  bool cancelling = false;
  /// Workers whose refused credentials (HTTP 401/403) the listener was
  /// told about: once per run and worker.
  std::unordered_set<std::string> credentials_warned;

  /// Live canaries and the bias alarm (issue 10); disabled at rate 0.
  std::optional<canary_watch> canaries;
  /// With order balancing: per judge, how often a swap changed the decision.
  position_bias_tally position_bias;
  /// Screening and planted verdicts (core/guard/pair_guard.hpp); set once the
  /// workers are known.
  std::optional<pair_guard_desk> guard;
};

/// Validates `setup` (configuration, audit path), creates the audit file,
/// and spawns the session. Fails without spawning anything that outlives
/// the call.
caf::expected<run_actor> spawn_run(caf::actor_system& sys, run_setup setup);

run_session_actor::behavior_type
run_session(run_session_actor::stateful_pointer<run_session_state> self,
            run_setup setup);

} // namespace ij
