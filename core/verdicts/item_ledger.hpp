#pragma once
// Per-item bookkeeping of a run (SPEC §8): how many pairs of each item were
// taken in and how each decided one was classified, so that an item's
// statistical verdict is decided exactly when its last pair is — which can
// only be known once the input has ended (input is not sorted by item).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "messages/verdict.hpp"

namespace ij {

class item_ledger {
public:
  explicit item_ledger(statistical_params params) : params_(params) {}

  /// A pair of `item` was taken in.
  void admit(const std::string& item);

  /// A pair of `item` was decided by `rule`, with its calibrated
  /// probability (negative: none). Returns the item's statistical verdict
  /// (with the mean probability) when that was its last pair and the input
  /// has ended.
  std::optional<statistical_verdict>
  decide(const std::string& item, verdict_rule rule, double probability = -1.0);

  /// The input has ended: returns the verdicts of every item whose pairs are
  /// all decided already. Later decisions complete the others.
  std::vector<statistical_verdict> end_input();

  /// Items taken in whose verdict is not decided yet.
  std::uint64_t open_items() const { return items_.size(); }

  bool input_ended() const { return ended_; }

private:
  struct progress {
    std::array<std::uint32_t, 5> counts{};
    std::uint32_t admitted = 0;
    std::uint32_t decided = 0;
    double probability_sum = 0.0;
    std::uint32_t with_probability = 0;
  };

  statistical_verdict verdict_of(const std::string& item, const progress& p);

  statistical_params params_;
  std::unordered_map<std::string, progress> items_;
  bool ended_ = false;
};

} // namespace ij
