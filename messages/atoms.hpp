#pragma once
// Every atom of the protocol, in one place (at most 10 characters each).
#include <caf/atom.hpp>

namespace ij {

/// "Describe yourself" (a judge worker replies with its judge_info).
using info_atom = caf::atom_constant<caf::atom("info")>;
/// A client's calls waiting for a worker's credits.
using demand_atom = caf::atom_constant<caf::atom("demand")>;
/// Credits a client gives back unused.
using release_atom = caf::atom_constant<caf::atom("release")>;
/// Counters of a worker or snapshot of a run.
using status_atom = caf::atom_constant<caf::atom("status")>;
/// Directory: register a worker / list / subscribe to joins and leaves.
using join_atom = caf::atom_constant<caf::atom("join")>;
using list_atom = caf::atom_constant<caf::atom("list")>;
using subscribe_atom = caf::atom_constant<caf::atom("subscribe")>;
/// Directory events: a worker joined / left.
using joined_atom = caf::atom_constant<caf::atom("joined")>;
using left_atom = caf::atom_constant<caf::atom("left")>;
/// A run's input is complete.
using end_of_input_atom = caf::atom_constant<caf::atom("endinput")>;
/// Stop a run (or a coordinator) now, with the reason.
using cancel_atom = caf::atom_constant<caf::atom("cancel")>;
/// A warning for the user, in plain words.
using warning_atom = caf::atom_constant<caf::atom("warning")>;
/// The run session's progress timer.
using progress_atom = caf::atom_constant<caf::atom("progress")>;
/// The audit logger's group commit.
using flush_atom = caf::atom_constant<caf::atom("flush")>;
/// The vote coordinator's own timer: votes past their deadline are faults.
using deadline_atom = caf::atom_constant<caf::atom("deadline")>;
/// A run's vote coordinator: make no more calls to a judge (bias alarm).
using stop_judge_atom = caf::atom_constant<caf::atom("stopjudge")>;
/// A judge worker's own note that adapter calls have come back.
using call_done_atom = caf::atom_constant<caf::atom("calldone")>;

/// Judge hosts: "who are you" (a host replies with its host_hello), a
/// liveness ping, and a host event relayed by the judge directory.
using hello_atom = caf::atom_constant<caf::atom("hello")>;
using ping_atom = caf::atom_constant<caf::atom("ping")>;
using host_atom = caf::atom_constant<caf::atom("host")>;
/// Directory: forget a worker whose host was declared lost (its actor may
/// still be alive behind a hung connection).
using leave_atom = caf::atom_constant<caf::atom("leave")>;
/// A host connector's own timers: the next connection attempt, the next ping.
using retry_atom = caf::atom_constant<caf::atom("retry")>;
using host_tick_atom = caf::atom_constant<caf::atom("hosttick")>;
/// A judge host tells its workers the round trip to a client's node, which
/// its pings measured (the workers size their queues to it, issue 31).
using rtt_atom = caf::atom_constant<caf::atom("rtt")>;
/// "Answer once your first connection attempt has ended."
using ready_atom = caf::atom_constant<caf::atom("ready")>;

/// The daemon: lines an upload appended to a run's pairs file; reading a
/// pairs file back; a run ended by SIGTERM (it resumes at the next start).
using append_atom = caf::atom_constant<caf::atom("append")>;
using read_atom = caf::atom_constant<caf::atom("read")>;
using shutdown_atom = caf::atom_constant<caf::atom("shutdown")>;
/// The daemon's runs (issue 26): a run created or resumed; finding a live
/// run's actor; a run's row now; a follower's wait for verdict lines; an
/// upload's lease of a run's input; what an upload or close changed; a live
/// run's state for /metrics; a run's end saved; /metrics; retention; an idle
/// worker's retirement; the state database checkpointed.
using create_atom = caf::atom_constant<caf::atom("create")>;
using find_atom = caf::atom_constant<caf::atom("find")>;
using get_atom = caf::atom_constant<caf::atom("get")>;
using wait_atom = caf::atom_constant<caf::atom("wait")>;
using upload_atom = caf::atom_constant<caf::atom("upload")>;
using input_atom = caf::atom_constant<caf::atom("input")>;
using live_atom = caf::atom_constant<caf::atom("live")>;
using ended_atom = caf::atom_constant<caf::atom("ended")>;
using metrics_atom = caf::atom_constant<caf::atom("metrics")>;
using retain_atom = caf::atom_constant<caf::atom("retain")>;
using retire_atom = caf::atom_constant<caf::atom("retire")>;
using checkpoint_atom = caf::atom_constant<caf::atom("checkpoint")>;

} // namespace ij
