#pragma once
// What a daemon run is started with, made where blocking is allowed (an
// HTTP thread for POST /v1/runs, the main thread for a restart's resumes)
// and handed to the run registry as one message: its row, configuration and
// bound judges, its folder's files (DIR/runs/<id>/pairs.jsonl, audit.jsonl)
// created or read back, and the batches a resumed run had open.
#include <memory>
#include <string>
#include <vector>

#include <caf/expected.hpp>

#include "adapters/adapter_factory.hpp"
#include "adapters/batch_journal.hpp"
#include "daemon/run_actor.hpp"
#include "daemon/state_store.hpp"

namespace ij {

struct run_launch {
  run_launch() = default;
  /// Closes the audit file when the run was never started.
  ~run_launch();
  run_launch(const run_launch&) = delete;
  run_launch& operator=(const run_launch&) = delete;

  /// A new run: its row is inserted before its actor starts.
  bool fresh = true;
  /// Everything of the run actor's setup but the daemon's context.
  run_actor_setup setup;
  /// The run's judges, bound: those no worker serves yet get one (the
  /// others are dropped unused).
  std::vector<judge_binding> bindings;
  /// A resumed run's open batches, handed to the batched judges before its
  /// session starts (polled, never submitted again).
  std::vector<batch_mark> marks;
};

/// A new run: its folder, an empty pairs file and its audit are created.
/// io_failed or audit_failed naming what could not be.
caf::expected<std::shared_ptr<run_launch>>
prepare_new_run(const std::string& state_dir, run_row row, run_config config,
                std::vector<judge_binding> bindings);

/// A run found unfinished at start: its pairs file's partial last line cut,
/// its lines read back (numbering and duplicate ids go on from there), its
/// audit opened for the resume (`config`: its stored configuration, read).
/// Fails with io_failed or audit_failed.
caf::expected<std::shared_ptr<run_launch>>
prepare_restart(const std::string& state_dir, state_store& store, run_row row,
                run_config config, std::vector<judge_binding> bindings);

} // namespace ij
