#include "core/calibration/position_bias.hpp"

#include <algorithm>

#include "core/verdicts/verdict_table.hpp"

namespace ij {

namespace {

bool readable(const judge_record& r) {
  return !r.transport_failed && r.decision != judge_decision::parse_error;
}

} // namespace

std::optional<bool> position_bias_tally::swap_changed(
  const std::vector<const judge_record*>& records) {
  const judge_record* straight = nullptr;
  const judge_record* swapped = nullptr;
  for (auto* r : records) {
    if (!readable(*r))
      continue;
    auto& slot = r->swapped ? swapped : straight;
    if (!slot || r->vote_index < slot->vote_index)
      slot = r;
  }
  if (!straight || !swapped)
    return std::nullopt;
  return straight->decision != swapped->decision;
}

void position_bias_tally::add_pair(
  const std::vector<judge_record>& records,
  const std::function<std::string(const judge_record&)>& judge_of) {
  if (records.size() < 2)
    return;
  // A pair has a handful of records: group them by judge in place.
  std::vector<std::pair<std::string, std::vector<const judge_record*>>> by;
  for (auto& r : records) {
    auto name = judge_of(r);
    auto it = std::find_if(by.begin(), by.end(),
                           [&](auto& x) { return x.first == name; });
    if (it == by.end())
      by.emplace_back(std::move(name), std::vector<const judge_record*>{&r});
    else
      it->second.push_back(&r);
  }
  for (auto& [judge, recs] : by)
    if (auto changed = swap_changed(recs))
      add(judge, *changed);
}

void position_bias_tally::add(const std::string& judge, bool changed) {
  auto it = std::find_if(judges_.begin(), judges_.end(),
                         [&](const counts& c) { return c.judge == judge; });
  if (it == judges_.end()) {
    judges_.push_back(counts{judge, 0, 0});
    it = std::prev(judges_.end());
  }
  ++it->comparisons;
  it->changed += changed ? 1 : 0;
}

std::vector<position_bias_rate> position_bias_tally::rates(double alpha) const {
  std::vector<position_bias_rate> out;
  for (auto& c : judges_) {
    // wilson_interval counts in 32 bits; a run's comparisons fit, but clamp
    // rather than wrap for the absurdly long one.
    auto n = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(c.comparisons, 0xffffffffu));
    auto k = static_cast<std::uint32_t>(std::min<std::uint64_t>(c.changed, n));
    auto [lo, hi] = wilson_interval(k, n, alpha);
    double rate = c.comparisons == 0 ? 0.0
                                     : static_cast<double>(c.changed)
                                         / static_cast<double>(c.comparisons);
    out.push_back(
      position_bias_rate{c.judge, c.comparisons, c.changed, rate, lo, hi});
  }
  return out;
}

} // namespace ij
