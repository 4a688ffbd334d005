#pragma once
// Everything the pipeline needs to run, validated by the driver before any
// actor is spawned. Contract between the actors and the driver.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <caf/actor.hpp>
#include <caf/actor_system.hpp>
#include <caf/expected.hpp>

#include "adapters/adapter_factory.hpp"
#include "core/run_config.hpp"
#include "core/vote_tally.hpp"
#include "messages/interfaces.hpp"
#include "messages/verdict.hpp"

namespace ij {

struct pipeline_settings {
  std::vector<judge_binding> judges; // at least one
  vote_config votes;                 // validated
  bool order_balancing = false;      // odd votes swap A and B
  bool abstain_as_neither = true;
  /// A vote whose judge has not answered by then counts as a fault.
  std::chrono::milliseconds vote_deadline{120000};
  statistical_params stats;
  std::string audit_path;
  flush_policy flush = flush_policy::fsync_verdicts;
  /// The configuration as the user gave it (path and canonical JSON text),
  /// embedded in the run manifest. Must not contain secrets (keys are only
  /// ever named by environment variable).
  std::string config_source;
  std::string config_json;
  /// Receives each statistical_verdict (as a plain message) once its audit
  /// record is written. May be invalid (then nobody is told).
  caf::actor listener;
  /// Runs the audit logger on its own thread (production). Tests driving
  /// CAF's deterministic test scheduler set false so that every actor runs
  /// on that scheduler.
  bool detached_logger = true;
};

/// Warnings about a valid but wasteful configuration, e.g. votes > 1 at
/// temperature 0 on a backend without seed support (SPEC §7). spawn_pipeline
/// prints each to stderr once and records them in the run manifest.
std::vector<std::string> pipeline_warnings(const pipeline_settings& settings);

/// Spawns judge actors, the vote coordinator, the verdict actor, the logger
/// (opening the audit file) and the pipeline actor that ties them together.
/// Fails (audit file cannot be opened or already holds records, no judge,
/// invalid votes or statistical parameters) without spawning anything that
/// outlives the call. An audit file is never appended to by a second run:
/// an existing non-empty file is refused.
///
/// Lifecycle: start -> pairs (a pair sent while the manifest is being written
/// waits for it) -> finish. finish(false) answers once every pair asked for
/// so far has its verdict written and every item verdict that became due is
/// written; finish(true) does not wait for outstanding judge calls: the
/// run-end record lists those pairs as unfinished and their requesters get an
/// error. Either way the run-end record is fsynced, the reply carries the
/// totals, and the pipeline and every actor it spawned then exit.
caf::expected<pipeline_actor> spawn_pipeline(caf::actor_system& sys,
                                             pipeline_settings settings);

} // namespace ij
