#pragma once
// Drives one run session from the calling thread: feeds it input batches
// under its backpressure (at most a few batches unanswered), receives its
// events as the run listener, cancels it when asked, and returns once the
// run has ended. The calling thread is a tool's own (a scoped actor), never a
// scheduler thread, so the event handlers may write files and the terminal.
// The driver and the benchmarks share it; it holds no run logic of its own.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <caf/error.hpp>
#include <caf/expected.hpp>
#include <caf/scoped_actor.hpp>

#include "messages/interfaces.hpp"

namespace ij {

/// What an input source reports after filling a batch.
enum class input_state {
  more, // call again
  end,  // the input is complete (the batch may hold its last lines)
  idle, // nothing to send now (a daemon run waiting for uploads): call
        // again after the run's events are handled
};

/// Fills `batch` with the next lines. An error means reading failed: the
/// run is cancelled with its context as the reason (what the batch holds
/// is still sent).
using batch_source =
  std::function<caf::expected<input_state>(input_batch& batch)>;

/// What to do with the run's events (each may be left empty).
struct run_event_handlers {
  std::function<void(const run_started&)> started;
  std::function<void(std::vector<single_verdict>&)> verdicts;
  std::function<void(std::vector<statistical_verdict>&)> items;
  std::function<void(std::vector<canary_result>&)> canaries;
  std::function<void(const run_progress&)> progress;
  std::function<void(const std::string&)> warning;
  /// Called after every event and at least every 100 ms.
  std::function<void()> tick;
  /// Polled: a reason cancels the run (Ctrl-C, a closed output).
  std::function<std::optional<std::string>()> stop_reason;
  /// Once, right after the session was told to cancel: what else the stop
  /// cancels (the run's provider batches) goes now, so that the votes it
  /// ends reach a session that already knows the run is cancelled.
  std::function<void()> cancelled;
};

struct run_outcome {
  /// True once the run's summary arrived (the run-end record is written,
  /// unless the summary carries an error).
  bool ended = false;
  run_summary summary;
  /// Set when the session refused input or ended without a summary.
  std::vector<std::string> failures;
  /// Set when the input source failed.
  caf::error input_error;
};

/// `self` as a run's listener (run_setup::listener), for drive_run. A scoped
/// actor is dynamically typed — drive_run's receive takes the listener's
/// messages —, so the compiler cannot check this conversion: the one cast.
run_listener_actor as_listener(caf::scoped_actor& self);

/// Runs `session` to its end with `self` as its listener (spawn the session
/// with as_listener(self)).
run_outcome drive_run(caf::scoped_actor& self, const run_actor& session,
                      const batch_source& next, const run_event_handlers& on,
                      std::uint32_t batches_in_flight = 2);

} // namespace ij
