#pragma once
// Where one judge record's call went (issue 20): sent to the judge's
// backend, refused by its circuit breaker, refused at its budget, answered
// from the response cache, or placed with no worker. The run summary, the
// run-end record, a resumed run's totals and `audit verify`'s recount all
// classify a record here, so "judge calls" never again counts as made a
// vote that was never sent. Pure.
#include <cstdint>
#include <string_view>

#include "messages/fault_kind.hpp"

namespace ij {

enum class call_route : std::uint8_t {
  /// Handed to a worker and on to its backend (answered, failed or past its
  /// deadline: the backend may have seen it).
  sent,
  /// Not sent: the judge's circuit breaker was open.
  refused_breaker,
  /// Not sent: the judge was at its budget (fault kind "budget").
  refused_budget,
  /// Not sent: a reply reused from the response cache.
  cached,
  /// Not sent: no worker took the vote (the judge gone, its host lost).
  unplaced,
};

/// What a record says about its call: the fields of a judge_record, or of
/// a judge_call audit line ("cached", "refused_by", "fault_kind", "worker").
struct call_facts {
  bool cached = false;
  bool refused_by_breaker = false;
  fault_kind fault = fault_kind::none;
  /// A worker took the call (a record of a vote no worker took has none).
  bool has_worker = true;
};

call_route route_of(const call_facts& f);

/// The audit's "refused_by" value for a breaker's refusal.
inline constexpr std::string_view refused_by_breaker_text = "breaker";

/// The three counts the summary and the run-end record carry, and the
/// rest (cached, unplaced), which complete judge_calls.
struct call_routes {
  std::uint64_t sent = 0;
  std::uint64_t refused_breaker = 0;
  std::uint64_t refused_budget = 0;
  std::uint64_t cached = 0;
  std::uint64_t unplaced = 0;

  void add(call_route r);
};

} // namespace ij
