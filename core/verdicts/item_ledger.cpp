#include "core/verdicts/item_ledger.hpp"

#include <algorithm>

#include "core/verdicts/verdict_table.hpp"

namespace ij {

void item_ledger::admit(const std::string& item) {
  ++items_[item].admitted;
}

statistical_verdict item_ledger::verdict_of(const std::string& item,
                                            const progress& p) {
  auto v = statistical_invariance_verdict(item, p.counts, params_);
  if (p.with_probability > 0)
    v.probability = p.probability_sum / p.with_probability;
  return v;
}

std::optional<statistical_verdict> item_ledger::decide(const std::string& item,
                                                       verdict_rule rule,
                                                       double probability) {
  auto i = items_.find(item);
  if (i == items_.end())
    return std::nullopt; // never admitted: nothing to count it against
  auto& p = i->second;
  ++p.counts[static_cast<std::size_t>(rule) - 1];
  ++p.decided;
  if (probability >= 0) {
    p.probability_sum += probability;
    ++p.with_probability;
  }
  if (!ended_ || p.decided < p.admitted)
    return std::nullopt;
  auto v = verdict_of(item, p);
  items_.erase(i);
  return v;
}

std::vector<statistical_verdict> item_ledger::end_input() {
  ended_ = true;
  std::vector<statistical_verdict> out;
  for (auto i = items_.begin(); i != items_.end();) {
    if (i->second.decided >= i->second.admitted) {
      out.push_back(verdict_of(i->first, i->second));
      i = items_.erase(i);
    } else {
      ++i;
    }
  }
  // In item order, so that a run's output does not depend on hashing.
  std::sort(out.begin(), out.end(),
            [](const statistical_verdict& x, const statistical_verdict& y) {
              return x.item < y.item;
            });
  return out;
}

} // namespace ij
