#pragma once
// A circuit breaker in front of an HTTP judge's adapter, so that a dead or
// misconfigured backend costs nothing per vote instead of its timeouts and
// retries on every call (issue 12: 19 minutes for 5,000 pairs).
//
//   closed     calls go through. A reply from the backend (a success, or
//              any HTTP error but 401/403) resets the count of connection
//              failures; `failures` of them in a row open the circuit.
//   open       for `cooldown` no call is made: each is answered at once
//              with ok=false, fault kind `unavailable` (after connection
//              failures) or `auth` (after a 401/403: every call would be
//              refused the same way).
//   half-open  after the cool-down one trial call goes through (the others
//              are still answered at once); its reply closes the circuit or
//              opens it again for another cool-down.
//
// HTTP 401/403 opens the circuit at once: it is a configuration problem
// (the key, or the model's access), and the reply that opened it says so.
// Timeouts neither count nor reset (a slow model is not a dead backend), nor
// do aborts (a cancelled run's calls, issue 26).
//
// Thread safety: `call` runs on the judge worker's thread, replies on the
// adapter's I/O thread; the state is shared with the reply handlers (which
// may outlive the breaker) and guarded by a mutex.
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "adapters/judge_adapter.hpp"
#include "core/config/judge_spec.hpp"

namespace ij {

class circuit_breaker final : public judge_adapter {
public:
  using clock_fn = std::function<std::chrono::steady_clock::time_point()>;
  enum class state { closed, open, half_open };

  /// `auth_hint` is appended to the message of a 401/403 (what to check,
  /// e.g. the key's variable). `now` may be replaced by tests.
  circuit_breaker(judge_adapter_ptr inner, breaker_settings settings,
                  std::string auth_hint,
                  clock_fn now = std::chrono::steady_clock::now);

  std::string id() const override;
  void call(const std::string& prompt, const call_options& opts,
            reply_handler done) override;
  bool supports_seed() const override;
  std::uint32_t current_concurrency() const override;
  std::uint32_t calls_ahead() const override;
  void abort(std::uint64_t call_id) override;

  /// The state now (a cool-down that has run out reads half-open).
  state current_state() const;

  struct shared;

private:
  judge_adapter_ptr inner_;
  std::shared_ptr<shared> shared_;
};

} // namespace ij
