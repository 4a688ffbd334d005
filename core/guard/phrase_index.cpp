#include "core/guard/phrase_index.hpp"

#include <algorithm>

namespace ij {

phrase_index::phrase_index(std::vector<std::string_view> phrases)
    : phrases_(std::move(phrases)) {
  for (std::uint32_t i = 0; i < phrases_.size(); ++i)
    if (!phrases_[i].empty())
      by_first_[static_cast<unsigned char>(phrases_[i].front())].push_back(i);
  for (auto& bucket : by_first_)
    std::stable_sort(bucket.begin(), bucket.end(),
                     [&](std::uint32_t x, std::uint32_t y) {
                       return phrases_[x].size() > phrases_[y].size();
                     });
}

} // namespace ij
