#pragma once
// Starts the judge workers of this process: one worker per configured judge,
// registered with the judge directory, so that runs find them there like
// any other worker.
#include <string>
#include <vector>

#include <caf/actor_system.hpp>
#include <caf/expected.hpp>

#include "adapters/adapter_factory.hpp"
#include "core/config/run_config.hpp"
#include "messages/interfaces.hpp"

namespace ij {

/// Spawns a worker per binding (worker ids "<name>#<n>@<host>", n counting
/// per process; `host` is "local", or a judge host's ADDR:PORT) and joins
/// each to `directory`. Waits for the directory's
/// answers, so call it from a thread that is not a scheduler thread (a
/// tool's main thread). Returns the workers' descriptions. A judge host's
/// workers queue at most `queue_max` votes beyond their capacity for a
/// coordinator across a network (host_connection.queue_max).
caf::expected<std::vector<judge_info>> start_local_workers(
  caf::actor_system& sys, const judge_directory_actor& directory,
  std::vector<judge_binding> bindings, const std::string& host = "local",
  std::uint32_t queue_max = host_connection{}.queue_max);

} // namespace ij
