#include "actors/judge_worker.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include <caf/send.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "adapters/llm_judge_comparator.hpp"
#include "core/audit/run_manifest.hpp"
#include "core/config/batch_settings.hpp"
#include "core/hosts/worker_fields.hpp"
#include "core/hosts/worker_key.hpp"
#include "core/prompts/prompt.hpp"

namespace ij {

namespace {

// A batched judge's calls wait hours in a batch: room for its batches, not
// max_in_flight HTTP calls.
std::uint32_t calls_at_once(const judge_spec& s) {
  return std::max({s.max_in_flight, 1u, batch_calls_at_once(s.batch)});
}

} // namespace

std::uint32_t judge_worker_state::capacity() const {
  auto c = calls_at_once(spec);
  if (adapter) {
    auto adaptive = adapter->current_concurrency();
    if (adaptive != 0 && adaptive < c)
      c = adaptive;
  }
  return c;
}

std::uint32_t judge_worker_state::slots() const {
  return capacity() + (adapter ? adapter->calls_ahead() : 0);
}

std::uint32_t judge_worker_state::credit_limit() const {
  constexpr std::uint32_t inline_batch = 1024;
  if (adapter && adapter->answers_inline())
    return std::max(capacity(), inline_batch);
  return slots();
}

judge_info describe_worker(const judge_binding& b, const std::string& worker_id,
                           const std::string& host) {
  const auto& s = b.spec;
  judge_info i;
  i.judge_id = judge_id_of(s);
  i.worker_id = worker_id;
  i.host = host;
  i.name = s.name.empty() ? s.type + ":" + s.model : s.name;
  i.adapter_type = s.type;
  i.adapter_id = b.adapter ? b.adapter->id() : std::string{};
  i.model = s.model;
  i.base_url = s.base_url;
  i.temperature = s.temperature;
  i.supports_seed = b.adapter && b.adapter->supports_seed();
  i.has_seed = s.seed.has_value();
  i.seed = s.seed.value_or(0);
  i.capacity = calls_at_once(s);
  i.max_tokens = s.max_tokens;
  i.timeout_ms = static_cast<std::int64_t>(s.timeout.count());
  i.max_attempts = s.max_attempts;
  i.max_response_bytes = s.max_response_bytes;
  i.api_key_env = s.api_key_env;
  i.ca_file = s.ca_file;
  i.logprobs = s.logprobs;
  i.constrain = std::string{to_string(s.constrain)};
  // The prompts as the spec names them (judge_spec's prompts_of): a worker
  // serves its judge's prompts, nothing else.
  auto prompts = prompt_ids_of(s);
  i.prompt_id = prompts.numeric.id;
  i.prompt_sha256 = prompts.numeric.sha256;
  i.non_numeric_prompt_id = prompts.non_numeric.id;
  i.non_numeric_prompt_sha256 = prompts.non_numeric.sha256;
  i.settings_key = worker_key_of(s);
  i.version = software_version();
  return i;
}

judge_worker_actor spawn_judge_worker(caf::actor_system& sys,
                                      judge_binding binding,
                                      std::string worker_id, std::string host,
                                      std::uint32_t queue_max) {
  auto info = describe_worker(binding, worker_id, host);
  return sys.spawn(judge_worker, std::move(binding), std::move(info),
                   queue_max);
}

namespace {

using self_ptr = judge_worker_impl_actor::stateful_pointer<judge_worker_state>;
using client = judge_worker_state::client;

// Calls holding a slot (aborted ones do not), calls queued and credits out.
std::uint32_t outstanding(const judge_worker_state& st) {
  std::uint32_t held = 0;
  for (auto& kv : st.clients)
    held +=
      kv.second.held + static_cast<std::uint32_t>(kv.second.queued.size());
  return held + st.active();
}

std::uint32_t queued_calls(const judge_worker_state& st) {
  std::uint32_t n = 0;
  for (auto& kv : st.clients)
    n += static_cast<std::uint32_t>(kv.second.queued.size());
  return n;
}

// The queue a client gets beyond the capacity: sized to its node's round
// trip (none for a client of this process, or one no ping measured).
std::uint32_t queue_for(const judge_worker_state& st,
                        const caf::actor_addr& c) {
  auto r = st.rtt.find(c.node());
  if (r == st.rtt.end())
    return 0;
  return queue_depth(r->second, st.latency.rate(st.capacity()), st.queue_max);
}

// Room beyond the capacity for calls sent ahead: the largest queue of a
// client that has calls waiting, held or queued (credits go round-robin, so
// a near client shares it with a far one).
std::uint32_t queue_room(const judge_worker_state& st) {
  if (st.adapter && st.adapter->answers_inline())
    return 0;
  std::uint32_t room = 0;
  for (auto& [addr, c] : st.clients)
    if (c.wanted > 0 || c.held > 0 || !c.queued.empty())
      room = std::max(room, queue_for(st, addr));
  return room;
}

// Call ids unique in the process: an adapter aborts by them, and a
// decorator (the daemon's cache and meter) may sit in front of several.
std::uint64_t next_call_id() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

worker_update& outbox_for(judge_worker_state& st, const caf::actor_addr& c) {
  auto& u = st.outbox[c];
  if (u.worker_id.empty())
    u.worker_id = st.info.worker_id;
  return u;
}

// The client a message names, registered (and monitored) on first contact;
// nullptr for an invalid handle.
client* client_of(self_ptr self, const judge_client_actor& who) {
  if (!who)
    return nullptr;
  auto addr = who.address();
  auto& st = self->state;
  auto i = st.clients.find(addr);
  if (i != st.clients.end())
    return &i->second;
  self->monitor(who);
  st.rotation.push_back(addr);
  auto& c = st.clients[addr];
  c.handle = who;
  return &c;
}

// Grants free capacity round-robin over the clients with calls waiting: one
// credit at a time for a judge with latency (each slot freed is filled at
// once), in quanta of an equal share for a judge that answers inline. There
// every call ends within the message that brought it, so one credit at a
// time would spread each freed batch over all clients, and with several
// runs at once the batches shrink to a call or two each (a message, an
// audit write, per pair).
void grant(self_ptr self) {
  auto& st = self->state;
  auto used = outstanding(st);
  auto cap = st.credit_limit() + queue_room(st);
  std::uint32_t quantum = 1;
  std::uint32_t held = 0;
  if (st.adapter && st.adapter->answers_inline()) {
    std::uint32_t waiting = 0;
    for (auto& kv : st.clients) {
      waiting += kv.second.wanted > 0 ? 1 : 0;
      held += kv.second.held;
    }
    quantum =
      std::max<std::uint32_t>(1, cap / std::max<std::uint32_t>(waiting, 1));
  }
  std::size_t idle_turns = 0;
  while (used < cap && !st.rotation.empty()
         && idle_turns < st.rotation.size()) {
    st.turn %= st.rotation.size();
    auto addr = st.rotation[st.turn];
    auto& c = st.clients[addr];
    if (c.wanted == 0) {
      ++st.turn;
      ++idle_turns;
      continue;
    }
    auto share = std::min(c.wanted, quantum);
    // Less than a share now: wait for the credits held to come back (they
    // do within a message), unless none are held.
    if (cap - used < share && held > 0)
      break;
    auto n = std::min(share, cap - used);
    ++st.turn;
    idle_turns = 0;
    c.wanted -= n;
    c.held += n;
    held += n;
    used += n;
    outbox_for(st, addr).credits += n;
  }
}

// Sends every client what the current message gave it.
void flush(self_ptr self) {
  auto& st = self->state;
  for (auto& [addr, update] : st.outbox) {
    auto c = st.clients.find(addr);
    if (c == st.clients.end())
      continue;
    update.capacity = st.capacity();
    self->send(c->second.handle, std::move(update));
  }
  st.outbox.clear();
}

void finish_call(self_ptr self, std::uint64_t id, judge_record rec) {
  auto& st = self->state;
  auto i = st.in_flight.find(id);
  if (i == st.in_flight.end())
    return;
  auto call = i->second;
  st.in_flight.erase(i);
  if (call.aborting)
    --st.aborting;
  else if (!rec.transport_failed)
    st.latency.add(rec.latency_ms); // the call rate, for queue_for()
  auto c = st.clients.find(call.client);
  if (c == st.clients.end())
    return; // the client ended: nobody to tell
  if (!call.aborting)
    --c->second.in_flight;
  // The client holds this worker's info and puts its constants back.
  drop_worker_fields(rec);
  outbox_for(st, call.client).replies.push_back({call.token, std::move(rec)});
}

// A reply that the adapter gives before `call` returns is taken here, on the
// worker's thread, instead of going through the mailbox.
struct inline_reply {
  std::thread::id thread = std::this_thread::get_id();
  std::atomic<bool> inside{true};
  std::optional<judge_record> record;
};

void start_call(self_ptr self, const caf::actor_addr& from, judge_call call) {
  auto& st = self->state;
  auto id = next_call_id();
  st.in_flight.emplace(id,
                       judge_worker_state::open_call{from, call.token, false});
  ++st.clients[from].in_flight;
  ++st.calls;
  st.peak_in_flight = std::max(st.peak_in_flight, st.active());
  auto opts = judge_options_for(st.spec, call.request.vote_index);
  opts.call.call_id = id;
  // The coordinator chose the seed (base seed + vote index); a request
  // without one means the judge has none.
  opts.call.seed.reset();
  auto ctx = std::make_shared<inline_reply>();
  caf::weak_actor_ptr weak{self->ctrl()};
  judge_once(
    st.adapter, opts, call.request,
    [weak, id, ctx](judge_record rec, equivalence_outcome) {
      if (ctx->inside.load() && std::this_thread::get_id() == ctx->thread) {
        ctx->record = std::move(rec);
        return;
      }
      // CAF 0.17 has no typed weak handle: the weak pointer (the
      // callback must not keep the worker alive) is promoted, then
      // typed as what it was made from.
      if (auto strong = caf::actor_cast<caf::strong_actor_ptr>(weak))
        caf::anon_send(caf::actor_cast<judge_worker_impl_actor>(strong),
                       call_done_atom::value, id, std::move(rec));
    });
  ctx->inside = false;
  if (ctx->record)
    finish_call(self, id, std::move(*ctx->record));
}

// Starts queued calls while slots are free, round-robin over the clients
// with calls queued; each client hears which of its calls started.
void start_queued(self_ptr self) {
  auto& st = self->state;
  std::size_t idle_turns = 0;
  while (st.active() < st.slots() && !st.rotation.empty()
         && idle_turns < st.rotation.size()) {
    st.queue_turn %= st.rotation.size();
    auto addr = st.rotation[st.queue_turn++];
    auto& c = st.clients[addr];
    if (c.queued.empty()) {
      ++idle_turns;
      continue;
    }
    idle_turns = 0;
    auto call = std::move(c.queued.front());
    c.queued.pop_front();
    outbox_for(st, addr).started.push_back(call.token);
    start_call(self, addr, std::move(call));
  }
}

// A call under a credit (or, from a client that ignores credits, without
// one) starts when a slot is free and nothing waits before it; otherwise it
// waits in its client's queue, and the client hears so.
void on_calls(self_ptr self, const judge_client_actor& who,
              std::vector<judge_call>& calls) {
  if (!client_of(self, who))
    return;
  auto from = who.address();
  for (auto& call : calls) {
    auto& st = self->state;
    auto& me = st.clients[from];
    if (me.held > 0)
      --me.held;
    if (st.active() < st.slots() && queued_calls(st) == 0) {
      start_call(self, from, std::move(call));
      continue;
    }
    outbox_for(st, from).queued.push_back(call.token);
    me.queued.push_back(std::move(call));
    st.peak_queued = std::max(st.peak_queued, queued_calls(st));
  }
}

// The record of a call dropped before it reached the adapter.
judge_record aborted_unsent(const judge_request& req) {
  judge_record rec;
  rec.pair_id = req.pair_id;
  rec.vote_index = req.vote_index;
  rec.swapped = req.swapped;
  rec.decision = judge_decision::parse_error;
  rec.transport_failed = true;
  rec.transport_error =
    "aborted: its run was cancelled (nothing had been sent)";
  rec.fault = fault_kind::aborted;
  rec.attempts = 0;
  return rec;
}

// Ends a client's calls: those waiting are dropped (answered as aborted,
// never sent, when `tell`), those at the adapter aborted — their slots free
// now, their records (aborted, or the reply that came first) told when the
// adapter answers. Its credits and demand go.
void cancel_calls(self_ptr self, const caf::actor_addr& addr, bool tell) {
  auto& st = self->state;
  auto c = st.clients.find(addr);
  if (c != st.clients.end()) {
    c->second.wanted = 0;
    c->second.held = 0;
    c->second.in_flight = 0;
  }
  if (c != st.clients.end()) {
    for (auto& call : c->second.queued)
      if (tell)
        outbox_for(st, addr).replies.push_back(
          {call.token, aborted_unsent(call.request)});
    c->second.queued.clear();
  }
  std::vector<std::uint64_t> ids;
  for (auto& [id, call] : st.in_flight)
    if (call.client == addr && !call.aborting) {
      call.aborting = true;
      ++st.aborting;
      ids.push_back(id);
    }
  // Oldest first, after the bookkeeping: an adapter may answer inside
  // abort().
  std::sort(ids.begin(), ids.end());
  for (auto id : ids)
    st.adapter->abort(id);
}

// Forgets a client that ended: its calls are aborted, its credits return to
// the pool.
void drop_client(self_ptr self, const caf::actor_addr& addr) {
  auto& st = self->state;
  cancel_calls(self, addr, false);
  st.clients.erase(addr);
  st.outbox.erase(addr);
  st.rotation.erase(std::remove(st.rotation.begin(), st.rotation.end(), addr),
                    st.rotation.end());
}

// After any message: slots freed go to queued calls, room to credits.
void settle(self_ptr self) {
  start_queued(self);
  grant(self);
  flush(self);
}

} // namespace

judge_worker_impl_actor::behavior_type
judge_worker(judge_worker_impl_actor::stateful_pointer<judge_worker_state> self,
             judge_binding binding, judge_info info, std::uint32_t queue_max) {
  self->state.queue_max = queue_max;
  self->state.spec = std::move(binding.spec);
  self->state.adapter = std::move(binding.adapter);
  self->state.info = std::move(info);
  self->set_down_handler([=](caf::down_msg& dm) {
    drop_client(self, dm.source);
    settle(self);
  });
  return {
    [=](info_atom) { return self->state.info; },
    [=](demand_atom, const judge_client_actor& who, std::uint32_t wanted) {
      if (auto c = client_of(self, who))
        c->wanted = wanted;
      settle(self);
    },
    [=](const judge_client_actor& who, std::vector<judge_call>& calls) {
      on_calls(self, who, calls);
      settle(self);
    },
    [=](cancel_atom, const judge_client_actor& who) {
      if (client_of(self, who))
        cancel_calls(self, who.address(), true);
      settle(self);
    },
    [=](release_atom, const judge_client_actor& who, std::uint32_t n) {
      if (auto c = client_of(self, who))
        c->held -= std::min(n, c->held);
      settle(self);
    },
    [=](status_atom) {
      auto& st = self->state;
      worker_status s;
      s.worker_id = st.info.worker_id;
      s.capacity = st.capacity();
      // Calls holding a slot: aborted ones are on their way out.
      s.in_flight = st.active();
      s.peak_in_flight = st.peak_in_flight;
      s.calls = st.calls;
      s.clients = static_cast<std::uint32_t>(st.clients.size());
      s.queued = queued_calls(st);
      s.peak_queued = st.peak_queued;
      return s;
    },
    [=](rtt_atom, caf::node_id& node, std::uint32_t micros) {
      self->state.rtt[node] = std::chrono::microseconds(micros);
      settle(self);
    },
    [=](call_done_atom, std::uint64_t id, judge_record& rec) {
      finish_call(self, id, std::move(rec));
      settle(self);
    },
  };
}

} // namespace ij
