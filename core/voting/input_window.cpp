#include "core/voting/input_window.hpp"

#include <algorithm>

namespace ij {

void input_window::fit_to_capacity(std::uint64_t capacity,
                                   std::uint64_t at_least) {
  if (size_ != 0)
    return;
  auto w =
    std::min<std::uint64_t>(std::max<std::uint64_t>(256, 4 * capacity), 8192);
  size_ = static_cast<std::uint32_t>(
    std::min<std::uint64_t>(std::max(w, at_least), 1u << 20));
}

void input_window::admit(std::uint64_t seq, std::string id) {
  open_.emplace(seq, std::move(id));
  ++admitted_;
}

std::vector<std::string> input_window::unfinished() const {
  std::vector<std::string> out;
  out.reserve(open_.size());
  for (auto& kv : open_)
    out.push_back(kv.second);
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace ij
