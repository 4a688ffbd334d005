#pragma once
// Many fixed phrases found in a text in one pass (issue 29's screening and
// planted-verdict scans run on every pair of every run): the phrases are
// bucketed by their first byte, so each position of the text is compared
// with the few phrases that can start there, not every phrase with every
// position. Pure; the phrases' storage must outlive the index (the lists
// are static).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ij {

class phrase_index {
public:
  explicit phrase_index(std::vector<std::string_view> phrases);

  const std::string_view& phrase(std::size_t i) const { return phrases_[i]; }

  /// The phrases that occur at byte `pos` of `text`, longest first: calls
  /// `f(index)` for each until it returns true; true when one did.
  template <class F>
  bool at(std::string_view text, std::size_t pos, F&& f) const {
    if (pos >= text.size())
      return false;
    for (auto i : by_first_[static_cast<unsigned char>(text[pos])]) {
      auto& p = phrases_[i];
      if (text.compare(pos, p.size(), p) == 0 && f(i))
        return true;
    }
    return false;
  }

  /// Every occurrence of every phrase in `text`: `f(index, pos)` until it
  /// returns true; true when one did.
  template <class F>
  bool scan(std::string_view text, F&& f) const {
    for (std::size_t pos = 0; pos < text.size(); ++pos)
      if (at(text, pos, [&](std::size_t i) { return f(i, pos); }))
        return true;
    return false;
  }

private:
  std::vector<std::string_view> phrases_;
  std::array<std::vector<std::uint32_t>, 256> by_first_;
};

} // namespace ij
