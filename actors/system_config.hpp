#pragma once
// The actor system every invjudge process runs: the project's message types
// and errors registered, and one scheduler thread per core. CAF's default of
// at least four threads leaves idle workers polling on a two-core machine,
// which costs the judging its CPU (measured in docs/BENCHMARKS.md).
#include <caf/actor_system_config.hpp>

namespace ij {

/// Registers the project's types on `cfg` and sizes the scheduler.
void configure_actor_system(caf::actor_system_config& cfg);

} // namespace ij
