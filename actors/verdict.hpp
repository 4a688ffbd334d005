#pragma once
// The verdict actor (SPEC §8, §10): the single verdict of each pair through
// the I1–I5 table, and per item the counts c1..c5. An item's statistical
// verdict goes to the listener as soon as the item's total is known (the
// driver sends item_total_atom once the input is read to its end: input is
// not assumed sorted by item) and that many of its pairs are done. It is sent
// after the reply for the item's last pair, so a listener that also asked for
// that pair sees the pair's verdict first.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include <caf/actor_addr.hpp>

#include "messages/interfaces.hpp"

namespace ij {

struct verdict_state {
  static inline const char* name = "verdict";

  struct item_progress {
    std::array<std::uint32_t, 5> counts{};
    std::uint32_t done = 0;
    std::optional<std::uint32_t> total;
  };

  statistical_params params;
  /// Weak: the listener is usually the pipeline, which owns this actor.
  caf::actor_addr listener;
  std::unordered_map<std::string, item_progress> items;
  std::uint64_t emitted = 0;
};

/// `listener` receives each statistical_verdict as a plain message.
verdict_actor::behavior_type
verdict(verdict_actor::stateful_pointer<verdict_state> self,
        statistical_params params, caf::actor_addr listener);

} // namespace ij
