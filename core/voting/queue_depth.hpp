#pragma once
// How many votes a judge worker holds queued for a client beyond its
// capacity (issue 31), so that its slots never wait for the network: a slot
// that frees hands its credit across the round trip, and the call that uses
// it comes back a round trip later; meanwhile the worker frees slots at its
// call rate. So the queue covers rtt x rate, with a quarter more and one
// call for jitter, and never more than the bound configured
// (host_connection.queue_max). No round trip known (a client in the
// worker's own process), or no call rate yet: no queue. Pure.
#include <chrono>
#include <cstdint>

namespace ij {

/// The queue for a client `rtt` away from a worker that completes
/// `calls_per_second` calls when full, at most `bound`.
std::uint32_t queue_depth(std::chrono::microseconds rtt,
                          double calls_per_second, std::uint32_t bound);

/// A running mean of call latencies (milliseconds), for the call rate:
/// each new one weighs a fifth.
class latency_mean {
public:
  void add(double ms);
  /// 0 until the first call ended.
  double ms() const { return mean_; }
  /// Calls per second `capacity` slots complete at this latency (0: none
  /// known).
  double rate(std::uint32_t capacity) const;

private:
  double mean_ = 0.0;
};

} // namespace ij
