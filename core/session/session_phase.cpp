#include "core/session/session_phase.hpp"

namespace ij {

std::string_view session_phase::name() const {
  switch (state_) {
    case state::starting: return "starting";
    case state::running: return "running";
    case state::finishing: return "finishing";
    case state::ended: return "ended";
  }
  return "ended";
}

void session_phase::start() {
  if (state_ == state::starting)
    state_ = state::running;
}

void session_phase::finish() {
  if (state_ == state::running)
    state_ = state::finishing;
}

bool session_phase::end() {
  if (state_ == state::ended)
    return false;
  state_ = state::ended;
  return true;
}

session_phase::input_answer session_phase::on_input() const {
  if (state_ == state::finishing || state_ == state::ended)
    return input_answer::refused_ended;
  if (input_closed_)
    return input_answer::refused_closed;
  if (state_ == state::starting)
    return input_answer::wait;
  return input_answer::admit;
}

bool session_phase::close_input() {
  if (input_closed_)
    return false;
  input_closed_ = true;
  return true;
}

// Not while finishing: the run-end record is on its way, and an item verdict
// written after it would count in the summary but not in that record.
bool session_phase::ends_input() const {
  return input_closed_ && state_ == state::running;
}

session_phase::cancel_answer session_phase::cancel() {
  switch (state_) {
    case state::starting: cancel_deferred_ = true; return cancel_answer::defer;
    case state::running:
      cancel_deferred_ = false;
      return cancel_answer::end_now;
    default: return cancel_answer::ignore;
  }
}

bool session_phase::may_end(bool all_decided) const {
  return state_ == state::running && input_closed_ && all_decided;
}

} // namespace ij
