#include "actors/verdict.hpp"

#include <utility>

#include <caf/send.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "core/verdict_table.hpp"

namespace ij {

namespace {

using self_ptr = verdict_actor::stateful_pointer<verdict_state>;

// Emits the item's statistical verdict once all its pairs are done.
void maybe_emit(self_ptr self, const std::string& item) {
  auto& st = self->state;
  auto i = st.items.find(item);
  if (i == st.items.end() || !i->second.total
      || i->second.done < *i->second.total)
    return;
  auto v = statistical_invariance_verdict(item, i->second.counts, st.params);
  st.items.erase(i);
  ++st.emitted;
  if (auto listener = caf::actor_cast<caf::actor>(st.listener))
    caf::anon_send(listener, std::move(v));
}

} // namespace

verdict_actor::behavior_type
verdict(verdict_actor::stateful_pointer<verdict_state> self,
        statistical_params params, caf::actor_addr listener) {
  self->state.params = params;
  self->state.listener = std::move(listener);
  return {
    [=](answer_pair& pair, vote_result& vr) -> caf::result<single_verdict> {
      auto d = single_invariance_verdict(vr.absent, vr.outcome);
      single_verdict v;
      v.pair_id = pair.id;
      v.item = pair.item.empty() ? pair.id : pair.item;
      v.verdict = d.verdict;
      v.rule = d.rule;
      v.outcome = std::move(vr.outcome);
      v.counts = vr.counts;
      auto& progress = self->state.items[v.item];
      ++progress.counts[static_cast<std::size_t>(d.rule) - 1];
      ++progress.done;
      auto item = v.item;
      // Reply first, then the item's verdict: the same sender's messages
      // arrive in order.
      auto promise = self->make_response_promise<single_verdict>();
      promise.deliver(std::move(v));
      maybe_emit(self, item);
      return promise;
    },
    [=](item_total_atom, std::string& item, std::uint32_t count) {
      self->state.items[item].total = count;
      maybe_emit(self, item);
    },
    [=](finish_atom) -> std::uint32_t {
      return static_cast<std::uint32_t>(self->state.items.size());
    },
  };
}

} // namespace ij
