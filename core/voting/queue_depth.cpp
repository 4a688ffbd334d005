#include "core/voting/queue_depth.hpp"

#include <algorithm>
#include <cmath>

namespace ij {

std::uint32_t queue_depth(std::chrono::microseconds rtt,
                          double calls_per_second, std::uint32_t bound) {
  if (rtt.count() <= 0 || calls_per_second <= 0.0 || bound == 0)
    return 0;
  auto in_transit =
    std::chrono::duration<double>(rtt).count() * calls_per_second;
  auto depth = std::ceil(in_transit * 1.25) + 1.0;
  return static_cast<std::uint32_t>(std::min<double>(depth, bound));
}

void latency_mean::add(double ms) {
  mean_ = mean_ == 0.0 ? ms : mean_ + (ms - mean_) / 5.0;
}

double latency_mean::rate(std::uint32_t capacity) const {
  if (mean_ <= 0.0)
    return 0.0;
  return capacity / (mean_ / 1000.0);
}

} // namespace ij
