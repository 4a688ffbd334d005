#pragma once
// Reads lines of a run's pairs file back for its run actor: after a restart
// (the whole file) and when uploads outran the run (its backlog is bounded,
// so the lines past it are read from the file later). Blocking file I/O, so
// it is spawned detached: one thread of its own, shared by every run of the
// daemon; the run actors never read a file on a scheduler thread.
#include <caf/actor_system.hpp>

#include "messages/interfaces.hpp"

namespace ij {

pairs_file_reader_actor spawn_pairs_file_reader(caf::actor_system& sys);

} // namespace ij
