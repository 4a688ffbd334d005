#pragma once
// A judge worker (the "judge actor" of SPEC §10): one adapter instance
// serving one judge, a long-lived service shared by every run of the actor
// system. It keeps at most `capacity` calls in flight and hands that capacity
// out as credits, one per call, round-robin over the clients that have calls
// waiting: several runs share it fairly, and a client only sends a call when
// the worker can start it at once, so no vote's deadline runs while it waits
// behind another client's calls.
//
// Credit protocol (messages/interfaces.hpp): a client announces its waiting
// calls (demand), the worker grants credits in worker_update messages, the
// client sends calls under them (a batch per message), and finished calls
// come back as judge_reply records in worker_update messages, which may also
// carry new credits. Credits a client does not use it releases.
//
// A client's cancel (its run was cancelled, issue 26) ends its calls: those
// waiting here are dropped, those at the adapter aborted (adapter abort by
// call id: the HTTP connection closed), and each comes back as a record of
// fault `aborted` saying whether its request had reached the backend — or
// as its reply, when that came first. Their slots are free at once: the
// worker grants them to other clients without waiting for the adapter. A
// client that ends has its calls aborted the same way, unanswered.
//
// Pipelining over the round trip (issue 31): for a client on another node
// (a coordinator reaching a judge host across a network) the worker grants
// credits beyond its capacity, up to a short queue sized to that node's
// round trip — which the judge host's pings measure and tell it — times its
// call rate, bounded by host_connection.queue_max
// (core/voting/queue_depth.hpp). The calls sent ahead wait here and start the
// moment a slot frees, so a slot never idles for a credit to cross the network
// and its call to come back. Queued calls start round-robin over the clients,
// as credits are granted, so a queue never lets one run starve another. The
// client hears which of its calls were queued and when each started (its
// deadline runs from then). Clients in the worker's own process have no queue.
//
// The adapter's `done` may run inside `call` (stubs) or later on an HTTP
// thread. A synchronous reply is taken at once, so a batch of stub calls
// costs one message back; an asynchronous one is sent to the worker as
// call_done and delivered from the worker's own thread. The callback holds a
// weak reference: a call that returns after the worker is gone is dropped.
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <caf/actor_addr.hpp>
#include <caf/actor_system.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "adapters/adapter_factory.hpp"
#include "core/voting/queue_depth.hpp"
#include "messages/interfaces.hpp"

namespace ij {

/// The worker interface plus the note its adapter callbacks send (local).
using judge_worker_impl_actor = judge_worker_actor::extend<
  caf::reacts_to<call_done_atom, std::uint64_t, judge_record>>;

struct judge_worker_state {
  static inline const char* name = "judge-worker";

  /// One client of the worker (a vote coordinator).
  struct client {
    judge_client_actor handle;
    /// Calls it has waiting beyond the credits it holds.
    std::uint32_t wanted = 0;
    /// Credits granted and neither used nor released yet.
    std::uint32_t held = 0;
    /// Its calls at the adapter now.
    std::uint32_t in_flight = 0;
    /// Its calls waiting here for a slot, oldest first: those sent ahead
    /// under the queue's credits, or without a credit at all.
    std::deque<judge_call> queued;
  };

  struct open_call {
    caf::actor_addr client;
    std::uint64_t token = 0;
    /// Aborted (its client cancelled): no longer holds a slot.
    bool aborting = false;
  };

  judge_info info;
  judge_spec spec;
  judge_adapter_ptr adapter;
  std::unordered_map<caf::actor_addr, client> clients;
  /// Clients in round-robin order; `turn` is whose grant comes next,
  /// `queue_turn` whose queued call starts next.
  std::vector<caf::actor_addr> rotation;
  std::size_t turn = 0;
  std::size_t queue_turn = 0;
  /// Calls at the adapter, by call id (call_options::call_id).
  std::unordered_map<std::uint64_t, open_call> in_flight;
  /// Of those, the ones aborted and not answered yet.
  std::uint32_t aborting = 0;
  std::uint32_t peak_in_flight = 0;
  std::uint64_t calls = 0;
  /// Issue 31: the round trip to each client node (the judge host's pings),
  /// the mean latency of the calls (their rate), and the queue's bound.
  std::map<caf::node_id, std::chrono::microseconds> rtt;
  latency_mean latency;
  std::uint32_t queue_max = 0;
  std::uint32_t peak_queued = 0;
  /// What each client will be told at the end of the current message.
  std::unordered_map<caf::actor_addr, worker_update> outbox;

  /// The configured capacity, lowered to the adapter's current concurrency
  /// when the adapter rations calls (HTTP 429/529).
  std::uint32_t capacity() const;

  /// The credits the worker may have out at once: its capacity, or, for an
  /// adapter that answers inline (no call is ever in flight), a batch large
  /// enough that a client's calls cost a message per batch, not per call.
  std::uint32_t credit_limit() const;

  /// The calls it has at the adapter at once: its capacity, and the calls
  /// an HTTP adapter sends ahead to a far endpoint (judge_adapter::
  /// calls_ahead, issue 31).
  std::uint32_t slots() const;

  /// Calls holding a slot (aborted ones do not).
  std::uint32_t active() const {
    return static_cast<std::uint32_t>(in_flight.size()) - aborting;
  }
};

/// Spawns a worker for `binding`, described as `worker_id` on `host`, that
/// queues at most `queue_max` calls for a far client beyond its capacity
/// (host_connection.queue_max; 0: none).
judge_worker_actor spawn_judge_worker(caf::actor_system& sys,
                                      judge_binding binding,
                                      std::string worker_id,
                                      std::string host = "local",
                                      std::uint32_t queue_max = 64);

/// The description of the worker a binding makes (exposed for tests).
judge_info describe_worker(const judge_binding& binding,
                           const std::string& worker_id,
                           const std::string& host);

judge_worker_impl_actor::behavior_type
judge_worker(judge_worker_impl_actor::stateful_pointer<judge_worker_state> self,
             judge_binding binding, judge_info info, std::uint32_t queue_max);

} // namespace ij
