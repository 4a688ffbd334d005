#include "runio/id_set.hpp"

#include <algorithm>
#include <cstring>
#include <functional>

namespace ij {

namespace {

std::size_t hash_of(std::string_view s) {
  return std::hash<std::string_view>{}(s);
}

} // namespace

std::string_view id_set::at(std::uint64_t pos) const {
  auto block = static_cast<std::size_t>(pos >> 32);
  auto offset = static_cast<std::size_t>(pos & 0xffffffffu);
  const char* p = blocks_[block].get() + offset;
  std::uint32_t len;
  std::memcpy(&len, p, sizeof len);
  return {p + sizeof len, len};
}

std::uint64_t id_set::store(std::string_view id) {
  std::size_t need = sizeof(std::uint32_t) + id.size();
  if (blocks_.empty() || used_ + need > block_capacity_.back()) {
    // Lines are at most 1 MiB, so an id always fits an ordinary block; the
    // max() only guards a caller that feeds longer ids.
    auto cap = std::max(block_size, need);
    blocks_.push_back(std::make_unique<char[]>(cap));
    block_capacity_.push_back(cap);
    used_ = 0;
  }
  char* p = blocks_.back().get() + used_;
  auto len = static_cast<std::uint32_t>(id.size());
  std::memcpy(p, &len, sizeof len);
  std::memcpy(p + sizeof len, id.data(), id.size());
  auto pos = (static_cast<std::uint64_t>(blocks_.size() - 1) << 32) | used_;
  used_ += need;
  return pos;
}

void id_set::grow() {
  std::vector<std::uint64_t> old;
  old.swap(table_);
  table_.assign(old.empty() ? 1024 : old.size() * 2, 0);
  auto mask = table_.size() - 1;
  for (auto e : old) {
    if (e == 0)
      continue;
    for (auto i = hash_of(at(e - 1)) & mask;; i = (i + 1) & mask)
      if (table_[i] == 0) {
        table_[i] = e;
        break;
      }
  }
}

bool id_set::insert(std::string_view id) {
  // Keep the load at most 1/2: short probe runs with linear probing.
  if (2 * (size_ + 1) > table_.size())
    grow();
  auto mask = table_.size() - 1;
  for (auto i = hash_of(id) & mask;; i = (i + 1) & mask) {
    auto e = table_[i];
    if (e == 0) {
      table_[i] = store(id) + 1;
      ++size_;
      return true;
    }
    if (at(e - 1) == id)
      return false;
  }
}

} // namespace ij
