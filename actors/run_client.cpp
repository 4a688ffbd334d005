#include "actors/run_client.hpp"

#include <utility>

#include "messages/error.hpp"

namespace ij {

namespace {

struct client_loop {
  caf::scoped_actor& self;
  const run_actor& session;
  const batch_source& next;
  const run_event_handlers& on;
  std::uint32_t max_batches;
  run_outcome out;
  std::uint32_t unanswered = 0;
  bool input_done = false;
  bool cancelled = false;
  bool session_down = false;
  /// The source had nothing to send: events are waited for briefly, so that
  /// input arriving meanwhile (a daemon's upload) is fed soon.
  bool idle = false;

  void cancel(std::string reason) {
    if (cancelled)
      return;
    cancelled = true;
    input_done = true;
    self->send(session, cancel_atom::value, std::move(reason));
    if (on.cancelled)
      on.cancelled();
  }

  // Sends input while the session has room (a batch it has not answered
  // yet is a batch it may still be holding back).
  void feed() {
    while (!input_done && unanswered < max_batches) {
      input_batch batch;
      auto state = next(batch);
      if (!batch.pairs.empty() || !batch.rejected.empty()) {
        self->send(session, std::move(batch));
        ++unanswered;
      }
      if (!state) {
        out.input_error = state.error();
        cancel(context_of(state.error()));
        continue;
      }
      idle = *state == input_state::idle;
      if (idle)
        return;
      if (*state == input_state::end) {
        input_done = true;
        self->send(session, end_of_input_atom::value);
      }
    }
  }

  void receive_one() {
    self->receive(
      [&](run_started& s) {
        if (on.started)
          on.started(s);
      },
      [&](std::vector<single_verdict>& v) {
        if (on.verdicts)
          on.verdicts(v);
      },
      [&](std::vector<statistical_verdict>& v) {
        if (on.items)
          on.items(v);
      },
      [&](std::vector<canary_result>& v) {
        if (on.canaries)
          on.canaries(v);
      },
      [&](run_progress& p) {
        if (on.progress)
          on.progress(p);
      },
      [&](warning_atom, std::string& w) {
        if (on.warning)
          on.warning(w);
      },
      [&](run_summary& s) {
        out.summary = std::move(s);
        out.ended = true;
      },
      [&](std::uint64_t) { --unanswered; },
      [&](caf::error& err) {
        // Input the session refused (it ended, or was cancelled meanwhile).
        if (unanswered > 0)
          --unanswered;
        if (!cancelled)
          out.failures.push_back(render_error(err));
      },
      [&](caf::down_msg& dm) {
        if (dm.source == session.address()) {
          session_down = true;
          if (!out.ended)
            out.failures.push_back("the run session stopped before the run "
                                   "ended: "
                                   + render_error(dm.reason));
        }
      },
      caf::after(std::chrono::milliseconds(idle && !input_done ? 10 : 100)) >>
        [] {});
  }

  run_outcome run() {
    self->monitor(session);
    while (!out.ended && !session_down) {
      if (on.stop_reason && !cancelled)
        if (auto reason = on.stop_reason())
          cancel(*reason);
      feed();
      receive_one();
      if (on.tick)
        on.tick();
    }
    self->demonitor(session.address());
    return std::move(out);
  }
};

} // namespace

run_listener_actor as_listener(caf::scoped_actor& self) {
  return caf::actor_cast<run_listener_actor>(self);
}

run_outcome drive_run(caf::scoped_actor& self, const run_actor& session,
                      const batch_source& next, const run_event_handlers& on,
                      std::uint32_t batches_in_flight) {
  client_loop loop{self, session, next, on, batches_in_flight, {}};
  return loop.run();
}

} // namespace ij
