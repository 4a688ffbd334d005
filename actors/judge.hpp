#pragma once
// The judge actor (SPEC §10): one per adapter instance. Queues judge
// requests, keeps at most `cap()` adapter calls in flight, and replies to each
// request with its judge_record. A transport failure is a record with
// transport_failed set, never an error reply.
//
// The adapter's `done` may run on an HTTP thread or synchronously inside
// `call`; either way it only sends (call_done_atom, call id, record) to the
// actor, which then delivers the request's promise on its own thread. The
// callback holds a weak reference: a call that returns after the actor is
// gone is dropped, and a call that never returns keeps nothing alive.
#include <chrono>
#include <cstdint>
#include <deque>
#include <unordered_map>

#include <caf/typed_response_promise.hpp>

#include "adapters/judge_adapter.hpp"
#include "adapters/adapter_factory.hpp"
#include "messages/interfaces.hpp"

namespace ij {

/// The judge interface plus the message its adapter callbacks send back.
/// The extra handler is local: the callback runs in the judge's own process.
using judge_impl_actor = judge_actor::extend<
  caf::reacts_to<call_done_atom, std::uint64_t, judge_record>>;

struct judge_state {
  static inline const char* name = "judge";

  struct pending_call {
    judge_request request;
    caf::typed_response_promise<judge_record> promise;
  };

  judge_spec spec;
  judge_adapter_ptr adapter;
  /// Requests not yet sent to the adapter, oldest first.
  std::deque<pending_call> queue;
  /// Calls sent to the adapter and not yet back, by call id.
  std::unordered_map<std::uint64_t, pending_call> in_flight;
  std::uint64_t next_call_id = 1;
  /// Most calls ever in flight at once (for tests and monitoring).
  std::size_t peak_in_flight = 0;

  /// spec.max_in_flight (at least 1), lowered to the adapter's current
  /// concurrency when the adapter has an opinion and it is lower.
  std::size_t cap() const;
};

judge_impl_actor::behavior_type
judge(judge_impl_actor::stateful_pointer<judge_state> self, judge_spec spec,
      judge_adapter_ptr adapter);

} // namespace ij
