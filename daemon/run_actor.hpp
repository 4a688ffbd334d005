#pragma once
// A daemon run as an actor: the client and the listener of its run session,
// and the one owner of the live run (issue 26, item 4) — its row and counts,
// its upload side (lent to one upload at a time, daemon/input_lease), the
// followers waiting for its verdicts and the DELETEs waiting for its end.
// HTTP requests reach it as messages and are answered when it answers; no
// thread waits on it and it shares no memory with one.
//
// Uploads append their lines to the run's pairs file, fsync it, and hand the
// parsed lines over as `append` messages; the actor feeds them to the
// session under its backpressure (a batch waits for the session's reply
// before the next goes), keeping at most a bounded backlog: lines past it
// stay in the file and are read back later by the daemon's pairs file
// reader (a detached actor: file I/O never runs on a scheduler thread), as
// is the whole file after a restart. Released verdicts are numbered and sent
// to the state writer with the run's counts; the run's end goes after its
// lines, and once the writer has saved it the actor answers whoever waits,
// tells the run registry and ends: a finished run keeps nothing in the
// process (its session, coordinator and logger ended, its files closed).
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>

#include <caf/actor_system.hpp>

#include "core/audit/audit_resume.hpp"
#include "core/config/run_config.hpp"
#include "daemon/daemon_metrics.hpp"
#include "daemon/run_counts.hpp"
#include "daemon/run_input.hpp"
#include "messages/interfaces.hpp"

namespace ij {

/// What every run of the daemon shares.
struct daemon_context {
  caf::actor_system* sys = nullptr;
  judge_directory_actor directory;
  state_writer_actor writer;
  run_registry_actor registry;
  std::shared_ptr<daemon_metrics> metrics;
  std::string state_dir;
  /// Reads pairs files back for every run (daemon/pairs_file_reader).
  pairs_file_reader_actor reader;
};

struct run_actor_setup {
  daemon_context ctx;
  /// The run as stored (a restart's lines and accepted from its pairs file).
  run_row row;
  /// Pairs accepted and lines rejected so far (a restart's pairs file).
  run_totals totals;
  /// The upload side (moved into the actor at its start; shared only to
  /// keep the setup copyable, as spawn's arguments must be).
  std::shared_ptr<std::unique_ptr<run_input>> input;
  run_config config;
  std::string pairs_path;
  std::string audit_path;
  std::shared_ptr<const resume_point> resume;
  int audit_fd = -1;
  /// A restart: the bytes of the pairs file to read back first, the keys of
  /// the verdict lines stored before, the next line's seq and the last one
  /// stored.
  std::uint64_t stored_bytes = 0;
  std::unordered_set<std::string> stored_keys;
  std::uint64_t next_seq = 1;
};

/// Spawns the run actor, which spawns its session (a session that cannot
/// start ends the run as failed).
daemon_run_actor spawn_run_actor(run_actor_setup setup);

/// A client's message for a run that has ended ("the run has ended (done)").
caf::error run_has_ended(const run_row& row);

} // namespace ij
