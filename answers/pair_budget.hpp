#pragma once
// The time a rule judge may spend on one pair. Measured in this thread's
// CPU time: on a loaded machine wall time would make decisions depend on
// what other processes do, CPU time does not. The judge checks it between
// steps (each step is bounded by the reader's size limits) and abstains
// once it is spent.
#include <chrono>

#include <time.h>

namespace ij {

class pair_budget {
public:
  explicit pair_budget(std::chrono::microseconds limit)
    : deadline_ns_(now_ns() + limit.count() * 1000) {}

  bool spent() const { return now_ns() > deadline_ns_; }

private:
  long long deadline_ns_;

  static long long now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
  }
};

/// The rule judge's budget per pair.
inline constexpr std::chrono::microseconds default_pair_budget{50000};

} // namespace ij
