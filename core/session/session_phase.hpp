#pragma once
// The phases of a run session (actors/run_session), as one small state
// machine, so that what a message may do is asked in one place instead of
// testing a phase and flags together. Pure: the session asks, then acts.
//
//   starting --manifest written--> running --end record sent--> finishing
//      |                             |                              |
//      +---------- a failure --------+-----------> ended <----------+
//                                                   (end record written)
//
// starting:  workers listed, coordinator spawned, manifest on its way;
//            input waits, a cancel is deferred until the manifest is
//            written (the run-end record follows it).
// running:   pairs are admitted and voted; records are written.
// finishing: the run-end record is on its way; nothing more is written,
//            input is refused.
// ended:     the summary went out (or the run failed); the actor quits.
//
// Orthogonal to the phase: whether the input is closed (end_of_input), and
// a cancel deferred while starting.
#include <cstdint>
#include <string_view>

namespace ij {

class session_phase {
public:
  enum class state : std::uint8_t { starting, running, finishing, ended };

  state now() const { return state_; }

  /// "starting", "running", "finishing", "ended" (run_progress::state).
  std::string_view name() const;

  /// The manifest (or resume record) is written: starting -> running.
  void start();

  /// The run-end record is on its way: running -> finishing.
  void finish();

  /// The run is over (its end written, or a failure): any -> ended. False
  /// when it already was (a second failure changes nothing).
  bool end();

  /// What an input batch gets.
  enum class input_answer { refused_ended, refused_closed, wait, admit };
  input_answer on_input() const;

  /// The input is complete. False when it already was. Item verdicts become
  /// due at once when ends_input() says so (running), else once the run
  /// starts; never once the run-end record is on its way.
  bool close_input();
  bool input_closed() const { return input_closed_; }
  bool ends_input() const;

  /// What a cancel does: nothing once the run-end record is on its way or
  /// written; deferred while starting (cancel_deferred() until the run
  /// starts and is cancelled); otherwise the run ends now.
  enum class cancel_answer { ignore, defer, end_now };
  cancel_answer cancel();
  bool cancel_deferred() const { return cancel_deferred_; }

  /// Whether the run-end record is due, given that every pair and canary
  /// taken in is decided: running, with the input closed.
  bool may_end(bool all_decided) const;

  /// Voted pairs are decided and written only while running.
  bool takes_votes() const { return state_ == state::running; }

  /// Records (failover notes, alarms' actions) are written until the
  /// run-end record is on its way.
  bool writes_records() const {
    return state_ == state::starting || state_ == state::running;
  }

  /// The coordinator is there to ask (status, progress): after the start,
  /// until the end.
  bool live() const {
    return state_ == state::running || state_ == state::finishing;
  }

  bool ended() const { return state_ == state::ended; }

private:
  state state_ = state::starting;
  bool input_closed_ = false;
  bool cancel_deferred_ = false;
};

} // namespace ij
