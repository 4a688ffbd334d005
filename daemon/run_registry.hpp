#pragma once
// The daemon's runs and judge workers, owned by one actor (issue 26): which
// runs are live and their actors (HTTP handlers find a run here, then ask
// its actor: messages, never shared memory), the finished runs' sums for
// /metrics, the retention of finished runs, and the judge workers.
//
// One worker serves one exact set of call settings (core/hosts/worker_key): a
// run whose judge differs from every worker's in any setting — endpoint, seed,
// log-probabilities, constraint, batch, max tokens, ... — gets a worker of
// its own; two runs share a worker only when every setting is equal. A
// worker no live run uses is ended after a linger (a run of the same
// settings soon after finds it still there), so that workers, like runs,
// are not left behind.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

#include <caf/actor_system.hpp>

#include "adapters/response_cache.hpp"
#include "daemon/run_actor.hpp"
#include "messages/interfaces.hpp"

namespace ij {

struct registry_settings {
  /// Retention: finished runs older than keep_ms (0: no limit), or beyond
  /// the last keep_runs to finish (0: no limit), are removed.
  std::int64_t keep_ms = 0;
  std::uint64_t keep_runs = 0;
  /// How often the retention looks (and soon after each run's end when it
  /// keeps a number of runs).
  std::chrono::milliseconds retention_period{60000};
  /// How long a worker no run uses is kept.
  std::chrono::milliseconds worker_linger{60000};
  /// The response cache shared by every run (none when null).
  std::shared_ptr<response_cache> cache;
  /// Called when the last live run has ended (tools: the allocator's free
  /// memory goes back to the system).
  std::function<void()> idle;
};

/// Spawns the registry over `ctx` (its `registry` is set to the new actor
/// for the runs it spawns), with the finished runs' sums as stored.
run_registry_actor spawn_run_registry(daemon_context ctx,
                                      registry_settings settings,
                                      run_figures finished);

} // namespace ij
