#pragma once
// The set of pair ids seen so far, for finding duplicates in a stream. It
// grows with the input (nothing can be forgotten: a duplicate may come at the
// very end), so it is kept compact: the ids' bytes are packed into 4 MiB
// blocks and an open-addressing table holds one 64-bit position per id.
// About 12 + 16 bytes per short id, ~28 MB for a million.
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace ij {

class id_set {
public:
  /// True when `id` was not in the set (it is now).
  bool insert(std::string_view id);

  std::size_t size() const { return size_; }

private:
  static constexpr std::size_t block_size = std::size_t{4} << 20;

  std::string_view at(std::uint64_t pos) const;
  std::uint64_t store(std::string_view id);
  void grow();

  /// Each id is stored as a 4-byte length and its bytes, never across blocks.
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::vector<std::size_t> block_capacity_;
  std::size_t used_ = 0; // bytes used in the last block
  /// 0 = empty, else 1 + (block << 32 | offset).
  std::vector<std::uint64_t> table_;
  std::size_t size_ = 0;
};

} // namespace ij
