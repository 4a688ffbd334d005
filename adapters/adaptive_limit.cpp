#include "adapters/adaptive_limit.hpp"

#include <algorithm>

namespace ij {

adaptive_limit::adaptive_limit(std::uint32_t configured,
                               std::uint32_t success_run)
    : configured_(std::max<std::uint32_t>(configured, 1)),
      success_run_(std::max<std::uint32_t>(success_run, 1)),
      current_(configured_) {}

void adaptive_limit::on_overload(std::uint64_t sent_epoch) {
  if (sent_epoch != epoch_)
    return;
  current_.store(std::max<std::uint32_t>(current() / 2, 1),
                 std::memory_order_relaxed);
  successes_ = 0;
  ++epoch_;
}

void adaptive_limit::on_success() {
  if (current() >= configured_)
    return;
  if (++successes_ >= success_run_) {
    successes_ = 0;
    current_.store(current() + 1, std::memory_order_relaxed);
  }
}

} // namespace ij
