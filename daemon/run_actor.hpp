#pragma once
// A daemon run as an actor: the client and the listener of its run session,
// fed by messages (no thread, no polling). Uploads (daemon/daemon_run, on
// HTTP threads) append their lines to the run's pairs file, fsync it, and
// hand the parsed lines over as `append` messages; the actor feeds them to
// the session under its backpressure (a batch waits for the session's reply
// before the next goes), keeping at most a bounded backlog: lines past it
// stay in the file and are read back later by the daemon's pairs file
// reader (a detached actor: file I/O never runs on a scheduler thread), as
// is the whole file after a restart. Released verdicts are numbered and
// queued for the state store's writer thread with the run's counts; the
// run's end is queued after its lines, and the run shows as ended once the
// writer has saved it.
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>

#include <caf/actor_system.hpp>

#include "core/audit_resume.hpp"
#include "core/run_config.hpp"
#include "daemon/daemon_metrics.hpp"
#include "daemon/run_counts.hpp"
#include "daemon/state_store.hpp"
#include "messages/interfaces.hpp"

namespace ij {

/// What every run of the daemon shares.
struct daemon_context {
  caf::actor_system* sys = nullptr;
  judge_directory_actor directory;
  state_store* store = nullptr;
  std::shared_ptr<daemon_metrics> metrics;
  std::string state_dir;
  /// Reads pairs files back for every run (daemon/pairs_file_reader).
  pairs_file_reader_actor reader;
};

/// A run as the HTTP threads see it, kept current by its actor and its
/// uploads (under `mtx`).
struct run_status {
  std::mutex mtx;
  std::condition_variable changed;
  run_row row;
  run_totals totals;
  /// The run takes no more input: its session has ended.
  bool input_ended = false;
  /// Its end is saved (or, after SIGTERM, its lines are): nothing more
  /// happens to it in this process.
  bool ended = false;
};

struct run_actor_setup {
  daemon_context* ctx = nullptr;
  std::shared_ptr<run_status> status;
  std::string id;
  run_config config;
  std::string pairs_path;
  std::string audit_path;
  std::shared_ptr<const resume_point> resume;
  int audit_fd = -1;
  /// A restart: the bytes of the pairs file to read back first, the input
  /// already closed, the keys of the verdict lines stored before and the
  /// next line's seq.
  std::uint64_t stored_bytes = 0;
  bool closed = false;
  std::unordered_set<std::string> stored_keys;
  std::uint64_t next_seq = 1;
};

/// Spawns the run actor, which spawns its session (a session that cannot
/// start ends the run as failed).
daemon_run_actor spawn_run_actor(run_actor_setup setup);

} // namespace ij
