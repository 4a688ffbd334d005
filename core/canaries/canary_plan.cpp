#include "core/canaries/canary_plan.hpp"

#include <utility>

#include "core/seeded_hash.hpp"

namespace ij {

namespace {

// Fisher-Yates with splitmix64 (std::shuffle's algorithm is left to the
// library: a seed must give the same plan everywhere).
template <class T>
void shuffle(std::vector<T>& v, std::uint64_t seed) {
  for (std::size_t i = v.size(); i > 1; --i) {
    auto j = static_cast<std::size_t>(splitmix64(seed + i) % i);
    std::swap(v[i - 1], v[j]);
  }
}

} // namespace

canary_plan::canary_plan(double rate, std::uint64_t seed,
                         const std::vector<control_pair>& set)
    : rate_(rate), seed_(seed), set_(&set) {
  for (auto k : {control_kind::identity, control_kind::mismatch,
                 control_kind::master_key, control_kind::abstain,
                 control_kind::planted}) {
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < set.size(); ++i)
      if (set[i].kind == k)
        members.push_back(i);
    if (members.empty())
      continue;
    shuffle(members, splitmix64(seed ^ (0x100 + static_cast<unsigned>(k))));
    kinds_.push_back(k);
    members_.push_back(std::move(members));
  }
  // Shuffle kinds and their members together.
  std::vector<std::size_t> order(kinds_.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  shuffle(order, splitmix64(seed ^ 0x200));
  std::vector<control_kind> kinds;
  std::vector<std::vector<std::size_t>> members;
  for (auto i : order) {
    kinds.push_back(kinds_[i]);
    members.push_back(std::move(members_[i]));
  }
  kinds_ = std::move(kinds);
  members_ = std::move(members);
}

bool canary_plan::canary_before(std::uint64_t position) const {
  auto h = splitmix64(seed_ ^ splitmix64(position));
  // The top 53 bits as a double in [0, 1).
  auto u = static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0);
  return u < rate_;
}

std::size_t canary_plan::index(std::uint64_t k) const {
  auto n = kinds_.size();
  const auto& members = members_[k % n];
  return members[(k / n) % members.size()];
}

} // namespace ij
