#pragma once
// Adaptive in-flight cap (AIMD): a 429/529 from the backend halves the cap
// (never below 1); a run of `success_run` successes raises it by one, never
// above the configured cap. Overload replies from requests that were sent
// before the last decrease are ignored, so one burst of 429s (all answering
// requests sent at the old cap) halves the cap once, not once per reply.
//
// Mutated only on the client's I/O thread; `current()` may be read anywhere.
#include <atomic>
#include <cstdint>

namespace ij {

class adaptive_limit {
public:
  adaptive_limit(std::uint32_t configured, std::uint32_t success_run);

  /// The cap now in force.
  std::uint32_t current() const {
    return current_.load(std::memory_order_relaxed);
  }

  std::uint32_t configured() const { return configured_; }

  /// A tag to store with a request when it is sent.
  std::uint64_t epoch() const { return epoch_; }

  /// The backend said "overloaded" to a request sent in `sent_epoch`.
  void on_overload(std::uint64_t sent_epoch);

  /// A request succeeded.
  void on_success();

private:
  std::uint32_t configured_;
  std::uint32_t success_run_;
  std::atomic<std::uint32_t> current_;
  std::uint32_t successes_ = 0;
  std::uint64_t epoch_ = 0;
};

} // namespace ij
