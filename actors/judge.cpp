#include "actors/judge.hpp"

#include <algorithm>
#include <utility>

#include <caf/send.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "adapters/llm_judge_comparator.hpp"

namespace ij {

std::size_t judge_state::cap() const {
  std::size_t c = std::max<std::uint32_t>(spec.max_in_flight, 1);
  if (adapter) {
    auto adaptive = adapter->current_concurrency();
    if (adaptive != 0 && adaptive < c)
      c = adaptive;
  }
  return c;
}

namespace {

using self_ptr = judge_impl_actor::stateful_pointer<judge_state>;

// Starts queued calls while the cap allows.
void pump(self_ptr self) {
  auto& st = self->state;
  while (!st.queue.empty() && st.in_flight.size() < st.cap()) {
    auto id = st.next_call_id++;
    auto call = std::move(st.queue.front());
    st.queue.pop_front();
    judge_options opts;
    opts.call = call_options_for(st.spec, call.request.vote_index);
    // The coordinator chose the seed (baseSeed + voteIndex); no seed in the
    // request means the judge has none.
    opts.call.seed.reset();
    auto request = call.request;
    st.in_flight.emplace(id, std::move(call));
    st.peak_in_flight = std::max(st.peak_in_flight, st.in_flight.size());
    caf::weak_actor_ptr weak{self->ctrl()};
    judge_once(st.adapter, opts, request,
               [weak, id](judge_record rec, equivalence_outcome) {
                 if (auto strong = caf::actor_cast<caf::strong_actor_ptr>(weak))
                   caf::anon_send(caf::actor_cast<judge_impl_actor>(strong),
                                  call_done_atom::value, id, std::move(rec));
               });
  }
}

} // namespace

judge_impl_actor::behavior_type
judge(judge_impl_actor::stateful_pointer<judge_state> self, judge_spec spec,
      judge_adapter_ptr adapter) {
  self->state.spec = std::move(spec);
  self->state.adapter = std::move(adapter);
  return {
    [=](judge_request& req) {
      auto promise = self->make_response_promise<judge_record>();
      self->state.queue.push_back({std::move(req), promise});
      pump(self);
      return promise;
    },
    [=](call_done_atom, std::uint64_t id, judge_record& rec) {
      auto& st = self->state;
      auto i = st.in_flight.find(id);
      if (i == st.in_flight.end())
        return;
      auto promise = std::move(i->second.promise);
      st.in_flight.erase(i);
      promise.deliver(std::move(rec));
      pump(self);
    },
  };
}

} // namespace ij
