#pragma once
// The calls between a vote coordinator (a client) and a judge worker, under
// the worker's credits: a client makes one call per credit granted, so a
// call never waits in someone else's queue and its deadline runs from when
// the worker can take it (messages/interfaces.hpp has the protocol).
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

#include "messages/judge_record.hpp"
#include "messages/judge_request.hpp"

namespace ij {

/// One call, under a credit; the client picks the token to match the reply.
struct judge_call {
  std::uint64_t token = 0;
  judge_request request;
};

inline bool operator==(const judge_call& x, const judge_call& y) {
  return x.token == y.token && x.request == y.request;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, judge_call& x) {
  return f(caf::meta::type_name("ij.judge_call"), x.token, x.request);
}

/// The record of one finished call (a failure is a record too), without
/// its worker's constants, which the client puts back
/// (core/hosts/worker_fields). Named "ij.judge_reply2" since records lost those
/// fields: a host of the earlier build differs in its message types and is
/// refused at connect.
struct judge_reply {
  std::uint64_t token = 0;
  judge_record record;
};

inline bool operator==(const judge_reply& x, const judge_reply& y) {
  return x.token == y.token && x.record == y.record;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, judge_reply& x) {
  return f(caf::meta::type_name("ij.judge_reply2"), x.token, x.record);
}

/// What a worker tells one client: calls finished and credits granted (either
/// may be empty), its current capacity (lower than configured while an
/// HTTP backend rations us), and its calls that wait in the worker's queue
/// for a slot (`queued`: their deadline waits) or left it for the adapter
/// (`started`: their deadline runs from now), by token (issue 31). Named
/// "ij.worker_update2" since it says so: a host of the earlier build
/// differs in its message types and is refused at connect.
struct worker_update {
  std::string worker_id;
  std::vector<judge_reply> replies;
  std::uint32_t credits = 0;
  std::uint32_t capacity = 0;
  std::vector<std::uint64_t> queued;
  std::vector<std::uint64_t> started;
};

inline bool operator==(const worker_update& x, const worker_update& y) {
  return x.worker_id == y.worker_id && x.replies == y.replies
         && x.credits == y.credits && x.capacity == y.capacity
         && x.queued == y.queued && x.started == y.started;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, worker_update& x) {
  return f(caf::meta::type_name("ij.worker_update2"), x.worker_id, x.replies,
           x.credits, x.capacity, x.queued, x.started);
}

/// A worker's counters, for monitoring and tests: calls holding a slot,
/// calls waiting in its queue (issue 31) and the most ever, calls made,
/// clients. Named "ij.worker_status2" since it counts the queue.
struct worker_status {
  std::string worker_id;
  std::uint32_t capacity = 0;
  std::uint32_t in_flight = 0;
  std::uint32_t peak_in_flight = 0;
  std::uint64_t calls = 0;
  std::uint32_t clients = 0;
  std::uint32_t queued = 0;
  std::uint32_t peak_queued = 0;
};

inline bool operator==(const worker_status& x, const worker_status& y) {
  return x.worker_id == y.worker_id && x.capacity == y.capacity
         && x.in_flight == y.in_flight && x.peak_in_flight == y.peak_in_flight
         && x.calls == y.calls && x.clients == y.clients && x.queued == y.queued
         && x.peak_queued == y.peak_queued;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, worker_status& x) {
  return f(caf::meta::type_name("ij.worker_status2"), x.worker_id, x.capacity,
           x.in_flight, x.peak_in_flight, x.calls, x.clients, x.queued,
           x.peak_queued);
}

} // namespace ij
