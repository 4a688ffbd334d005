#include "adapters/circuit_breaker.hpp"

#include <mutex>

namespace ij {

using clock_type = std::chrono::steady_clock;

namespace {

/// A reply that shows the backend is there and reading our requests.
bool backend_answered(const adapter_reply& r) {
  if (r.ok)
    return true;
  switch (r.fault) {
    case fault_kind::rate_limited:
    case fault_kind::server_error:
    case fault_kind::bad_request:
    case fault_kind::unreadable_reply: return true;
    default: return false;
  }
}

std::string seconds_text(std::chrono::milliseconds d) {
  auto s = (d.count() + 999) / 1000;
  return std::to_string(s) + " s";
}

} // namespace

struct circuit_breaker::shared {
  shared(breaker_settings s, std::string hint, clock_fn clock)
      : settings(s), auth_hint(std::move(hint)), now(std::move(clock)) {}

  const breaker_settings settings;
  const std::string auth_hint;
  const clock_fn now;

  mutable std::mutex mutex;
  state current = state::closed;
  std::uint32_t failures_in_a_row = 0;
  clock_type::time_point open_until;
  /// Why the circuit is open: auth or connection, and the reply's words.
  fault_kind cause = fault_kind::none;
  std::string cause_text;
  bool trial_out = false;

  // Everything below runs under `mutex`.

  void refresh() {
    if (current == state::open && now() >= open_until) {
      current = state::half_open;
      trial_out = false;
    }
  }

  void open(fault_kind why, const std::string& text) {
    current = state::open;
    open_until = now() + settings.cooldown;
    cause = why;
    cause_text = text;
    trial_out = false;
  }

  /// The answer to a call made while the circuit is open.
  adapter_reply refusal() const {
    adapter_reply r;
    r.ok = false;
    r.attempts = 0;
    r.refused_by_breaker = true;
    auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(open_until - now());
    auto next = "; no call to this judge until the cool-down ends (next try in "
                + seconds_text(std::max(left, std::chrono::milliseconds(0)))
                + ")";
    if (cause == fault_kind::auth) {
      r.fault = fault_kind::auth;
      r.error = "not sent: the backend refused this judge's credentials: "
                + cause_text + next;
    } else {
      r.fault = fault_kind::unavailable;
      r.error = "not sent: the backend is unreachable ("
                + std::to_string(failures_in_a_row)
                + " connection failures in a row, the last: " + cause_text + ")"
                + next;
    }
    return r;
  }

  /// Updates the state with a reply, and says so in the reply that opens
  /// the circuit.
  void on_reply(adapter_reply& r, bool trial) {
    if (trial)
      trial_out = false;
    // An abort is the run's doing, not the backend's: it neither counts nor
    // resets, and an aborted trial lets the next call be the trial.
    if (r.fault == fault_kind::aborted)
      return;
    if (backend_answered(r)) {
      failures_in_a_row = 0;
      current = state::closed;
      return;
    }
    auto cooldown = seconds_text(settings.cooldown);
    if (r.fault == fault_kind::auth) {
      // Every refusal (re)opens the circuit for a whole cool-down, so every
      // one says so: which of two concurrent 401s reaches the user first is
      // a race, and the words must not depend on it.
      r.error += " — a configuration problem";
      if (!auth_hint.empty())
        r.error += ": " + auth_hint;
      r.error += "; no call to this judge for " + cooldown;
      open(fault_kind::auth, r.error);
      return;
    }
    if (r.fault == fault_kind::connection) {
      ++failures_in_a_row;
      if (current != state::open
          && (trial || failures_in_a_row >= settings.failures)) {
        open(fault_kind::connection, r.error);
        r.error += "; " + std::to_string(failures_in_a_row)
                   + " connection failures in a row: no call to this judge for "
                   + cooldown;
      }
      return;
    }
    // A timeout says nothing sure about the backend, but a trial that
    // timed out did not show it is back.
    if (trial && current == state::half_open)
      open(cause, cause_text);
  }
};

circuit_breaker::circuit_breaker(judge_adapter_ptr inner,
                                 breaker_settings settings,
                                 std::string auth_hint, clock_fn now)
    : inner_(std::move(inner)),
      shared_(std::make_shared<shared>(settings, std::move(auth_hint),
                                       std::move(now))) {}

std::string circuit_breaker::id() const {
  return inner_->id();
}

bool circuit_breaker::supports_seed() const {
  return inner_->supports_seed();
}

std::uint32_t circuit_breaker::current_concurrency() const {
  return inner_->current_concurrency();
}

std::uint32_t circuit_breaker::calls_ahead() const {
  return inner_->calls_ahead();
}

void circuit_breaker::abort(std::uint64_t call_id) {
  inner_->abort(call_id);
}

circuit_breaker::state circuit_breaker::current_state() const {
  std::lock_guard<std::mutex> lock(shared_->mutex);
  shared_->refresh();
  return shared_->current;
}

void circuit_breaker::call(const std::string& prompt, const call_options& opts,
                           reply_handler done) {
  bool trial = false;
  {
    std::unique_lock<std::mutex> lock(shared_->mutex);
    shared_->refresh();
    auto& s = *shared_;
    if (s.current == state::open
        || (s.current == state::half_open && s.trial_out)) {
      auto refused = s.refusal();
      lock.unlock();
      done(std::move(refused));
      return;
    }
    if (s.current == state::half_open)
      trial = s.trial_out = true;
  }
  inner_->call(
    prompt, opts,
    [state = shared_, trial, done = std::move(done)](adapter_reply r) {
      {
        std::lock_guard<std::mutex> lock(state->mutex);
        state->on_reply(r, trial);
      }
      done(std::move(r));
    });
}

} // namespace ij
