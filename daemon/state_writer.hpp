#pragma once
// The daemon's one writer of its state database (issue 26, item 4): an
// actor on a thread of its own (detached: SQLite's writes block, and a
// scheduler thread never does), with its own connection. Runs send it their
// verdict lines and their end, in order, as messages; the run registry its
// retention passes; HTTP threads never write.
//
// Verdict lines are committed in groups: a batch is kept until the writer
// has read what its mailbox already holds (its flush message goes behind
// them), then every batch kept goes in one transaction, each run's counts
// as of its last line, and each sender hears its last seq. A run's end is
// saved after the lines before it, so that "done" means every line can be
// read; the finished runs' sums (by state, counts) change in the same
// transaction, and with each run the retention removes, so that /metrics
// never reads every run.
#include <functional>
#include <string>

#include <caf/actor_system.hpp>
#include <caf/expected.hpp>

#include "messages/interfaces.hpp"

struct sqlite3;

namespace ij {

struct state_writer_options {
  /// DIR: the database is DIR/state.sqlite, a run's files DIR/runs/<id>.
  std::string state_dir;
  /// A line for the daemon's log (the retention's removals); called on the
  /// writer's thread.
  std::function<void(const std::string&)> log;
};

/// Opens the writer's connection (io_failed naming SQLite's error) and
/// spawns the writer on it.
caf::expected<state_writer_actor>
spawn_state_writer(caf::actor_system& sys, state_writer_options options);

/// Removed finished runs at most per retention pass (each pass is one
/// transaction; the registry asks again while a pass is full).
constexpr std::size_t retention_batch = 1000;

} // namespace ij
