#pragma once
// The audit records of judge hosts and failover (SPEC §10, §11): a host
// connected, lost, cooled down, rejoined or refused; a vote moved from a lost
// worker to another worker of the same judge; a reply that came after its
// vote had moved, dropped (never counted twice). Pure: JSON bodies only.
#include <cstdint>
#include <string>
#include <string_view>

#include "messages/audit_type.hpp"
#include "messages/host_event.hpp"
#include "messages/judge_record.hpp"

namespace ij {

/// {"host", "event", "detail", "workers", "at"}.
std::string host_event_body(const host_event& e);

/// A vote taken from a worker that left: the pair, the vote's index and seed
/// (kept when it is sent again), the worker and host it left, and why.
struct moved_vote_note {
  std::string pair_id;
  std::uint32_t vote_index = 0;
  bool has_seed = false;
  std::int64_t seed = 0;
  std::string judge_id;
  std::string from_worker;
  std::string from_host;
  std::string why;
};

std::string vote_moved_body(const moved_vote_note& m);

/// A reply from the worker a vote was moved away from: what it said, and
/// that it was dropped.
std::string late_reply_body(const judge_record& rec);

} // namespace ij
