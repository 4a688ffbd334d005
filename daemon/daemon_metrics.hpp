#pragma once
// The daemon's counters for GET /metrics (Prometheus text format, prefix
// invjudge_, base units): judge requests by judge and outcome with a latency
// histogram, faults by kind, cache hits, votes cast (a vote that faulted is
// not cast: it is counted as faulted), faulted and skipped by early stop,
// runs by state and their counts summed (daemon/run_counts), finished runs
// the retention removed, the judges' adaptive in-flight caps, tokens by judge
// and spend at the declared prices (batched calls at the batch discount),
// batched judges' batches by state and the oldest open one's age, build info.
// Judge requests are counted by a decorator around each judge's adapter
// (metered()), so every run of the daemon adds to the same counters.
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "adapters/judge_adapter.hpp"
#include "core/budgets/judge_budget.hpp"
#include "messages/run_figures.hpp"

namespace ij {
class batch_judge;
}

namespace ij {

class daemon_metrics {
public:
  /// Upper bounds of the latency buckets, in seconds (+Inf implied).
  static constexpr std::array<double, 12> buckets = {
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

  /// One finished adapter call of `judge`.
  void record_call(const std::string& judge, const adapter_reply& reply,
                   double seconds);
  /// Votes of pairs with a verdict: cast (a decision, an abstention or an
  /// unreadable reply), faulted (the call failed: no vote), and not cast
  /// (early stop).
  void record_votes(std::uint64_t cast, std::uint64_t faulted,
                    std::uint64_t skipped);
  /// A judge whose in-flight cap is reported (configured, and the adapter's
  /// current one when it adapts).
  void watch_judge(const std::string& judge, judge_adapter_ptr adapter,
                   std::uint32_t configured);
  /// The prices of `judge`: its calls' tokens are priced as spend.
  void price_judge(const std::string& judge, token_prices prices);

  /// A batched judge whose batches are reported (its stats(), summed over
  /// every batched judge).
  void watch_batches(std::shared_ptr<batch_judge> judge);

  /// The exposition text, with the runs' figures from the run registry
  /// (runs by state, their counts summed, followers waiting, runs removed).
  std::string render(const run_figures& runs);

  /// The same counts for tests and the summary: requests of a judge with
  /// `outcome` ("ok", "fault", "cached").
  std::uint64_t requests(const std::string& judge, const std::string& outcome);
  /// What `judge`'s calls cost so far at its declared prices (0 without).
  double spend(const std::string& judge);

private:
  /// invjudge_judge_in_flight_cap (under mtx_).
  void in_flight_caps(std::string& out) const;

  struct histogram {
    std::array<std::uint64_t, buckets.size()> counts{};
    std::uint64_t count = 0;
    double sum = 0;
  };
  std::mutex mtx_;
  std::map<std::pair<std::string, std::string>, std::uint64_t> requests_;
  std::map<std::string, histogram> latency_;
  /// Tokens of the calls made (cached replies cost nothing), by judge.
  std::map<std::string, judge_spending> tokens_;
  std::map<std::string, token_prices> prices_;
  std::map<std::string, std::uint64_t> faults_;
  std::uint64_t cache_hits_ = 0;
  std::atomic<std::uint64_t> votes_cast_{0};
  std::atomic<std::uint64_t> votes_faulted_{0};
  std::atomic<std::uint64_t> votes_skipped_{0};
  struct watched {
    std::string judge;
    std::weak_ptr<judge_adapter> adapter;
    std::uint32_t configured;
  };
  std::vector<watched> judges_;
  std::vector<std::weak_ptr<batch_judge>> batch_judges_;
};

/// Counts every call of `inner` in `metrics` under `judge` (outside the
/// cache decorator, so cached replies count as outcome "cached").
judge_adapter_ptr metered(judge_adapter_ptr inner,
                          std::shared_ptr<daemon_metrics> metrics,
                          std::string judge);

} // namespace ij
