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
      : limit_ns_(limit.count() * 1000), cpu_start_ns_(now_ns(cpu)),
        wall_start_ns_(now_ns(wall)) {}

  /// A thread uses at most as much CPU time as wall time passes: while the
  /// wall clock (read without a system call) is within the limit, so is
  /// the CPU time, and the thread's CPU clock (a system call) is read only
  /// after that.
  bool spent() const {
    if (now_ns(wall) - wall_start_ns_ <= limit_ns_)
      return false;
    return now_ns(cpu) - cpu_start_ns_ > limit_ns_;
  }

private:
  static constexpr clockid_t cpu = CLOCK_THREAD_CPUTIME_ID;
  static constexpr clockid_t wall = CLOCK_MONOTONIC;
  long long limit_ns_;
  long long cpu_start_ns_;
  long long wall_start_ns_;

  static long long now_ns(clockid_t clock) {
    timespec ts{};
    clock_gettime(clock, &ts);
    return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
  }
};

/// The rule judge's budget per pair.
inline constexpr std::chrono::microseconds default_pair_budget{50000};

} // namespace ij
