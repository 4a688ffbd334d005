#include "answers/prose.hpp"

#include "answers/cjk_numerals.hpp"
#include "answers/cleaning.hpp"
#include "core/text.hpp"

namespace ij {

using text::is_alpha;
using text::is_space;

std::vector<segment> math_segments(std::string_view s) {
  std::vector<segment> out;
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\\') {
      i += 2; // "\\" line break, or a doubled backslash: never a delimiter
      continue;
    }
    std::string_view close;
    std::size_t open_len = 0;
    if (s[i] == '\\' && i + 1 < n && (s[i + 1] == '(' || s[i + 1] == '[')) {
      close = s[i + 1] == '(' ? "\\)" : "\\]";
      open_len = 2;
    } else if (s[i] == '\\' && i + 1 < n && s[i + 1] == '$') {
      i += 2;
      continue;
    } else if (s[i] == '$') {
      bool display = i + 1 < n && s[i + 1] == '$';
      close = display ? "$$" : "$";
      open_len = display ? 2 : 1;
    } else {
      ++i;
      continue;
    }
    std::size_t b = i + open_len;
    std::size_t k = b;
    std::size_t found = std::string_view::npos;
    while (k < n) {
      if (s[k] == '\\' && k + 1 < n && s[k + 1] == '$') {
        k += 2;
        continue;
      }
      if (s.substr(k, close.size()) == close) {
        found = k;
        break;
      }
      ++k;
    }
    if (found == std::string_view::npos) {
      // An unclosed delimiter: math runs to the end of the text.
      out.push_back({b, n});
      break;
    }
    out.push_back({b, found});
    i = found + close.size();
  }
  return out;
}

const segment* segment_holding(const std::vector<segment>& segs,
                               std::size_t pos) {
  for (const auto& g : segs)
    if (pos >= g.begin && pos < g.end)
      return &g;
  return nullptr;
}

/// The length of a mathematical symbol at `i` (°, ±, ², ×, ÷, ½, π, −,
/// √, ≤, arrows, super- and subscripts: U+00B0..U+00BF, U+00D7, U+00F7,
/// U+03C0, U+2000..U+2BFF), 0 for a letter of any script.
std::size_t math_symbol_length(std::string_view s, std::size_t i) {
  auto u = [&](std::size_t k) {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u;
  };
  if (u(0) == 0xC2 && u(1) >= 0xB0 && u(1) <= 0xBF)
    return 2;
  if (u(0) == 0xC3 && (u(1) == 0x97 || u(1) == 0xB7))
    return 2;
  if (u(0) == 0xCF && u(1) == 0x80)
    return 2;
  if (u(0) == 0xE2 && u(1) >= 0x80 && u(1) <= 0xAF)
    return 3;
  return 0;
}

/// Prose has at least two words outside math (or one beside a $...$
/// segment, or one of four letters or more): runs of two or more ASCII
/// letters not starting a command, or runs of letters of other scripts.
bool is_prose(std::string_view s, bool strict) {
  auto segs = math_segments(s);
  int words = 0;
  std::size_t i = 0;
  const std::size_t n = s.size();
  int depth = 0; // words in braces are command arguments, not prose
  bool long_word = false;
  std::size_t next = 0; // segments are in text order: walk them along
  while (i < n && words < 2) {
    while (next < segs.size() && segs[next].end <= i)
      ++next;
    if (next < segs.size() && i >= segs[next].begin) {
      i = segs[next].end + 1;
      continue;
    }
    if (s[i] == '{')
      ++depth;
    else if (s[i] == '}' && depth > 0)
      --depth;
    if (depth > 0) {
      ++i;
      continue;
    }
    if (is_alpha(s[i])) {
      std::size_t st = i;
      while (i < n && is_alpha(s[i]))
        ++i;
      bool command = st > 0 && s[st - 1] == '\\';
      if (!command && i - st >= 2) {
        ++words;
        long_word = long_word || i - st >= 4;
      }
      continue;
    }
    if (const auto symbol = math_symbol_length(s, i)) {
      i += symbol;
      continue;
    }
    if (static_cast<unsigned char>(s[i]) >= 0x80) {
      std::size_t st = i;
      while (i < n && static_cast<unsigned char>(s[i]) >= 0x80
             && !math_symbol_length(s, i))
        ++i;
      // Two CJK characters make a word; a symbol (°, −, ×, √, ²) does not,
      // nor does a Chinese number or root (三百二十, 三分之二, 根号).
      if (is_cjk_number_run(s.substr(st, i - st)))
        continue;
      if (i - st >= 6)
        words += 2;
      else if (i - st >= 4)
        ++words;
      continue;
    }
    ++i;
  }
  // One word beside math ("Therefore, $x = 5$."), or one long word
  // ("Therefore, x = 5."), is a sentence too; "odd $n$" or "3 and 5" is not.
  return words >= 2 || (!strict && words == 1 && (!segs.empty() || long_word));
}

/// The position before `pos` with spaces, '$' and '*' skipped.
std::size_t back_skip(std::string_view s, std::size_t pos) {
  while (pos > 0
         && (is_space(s[pos - 1]) || s[pos - 1] == '$' || s[pos - 1] == '*'))
    --pos;
  return pos;
}

/// The text before `pos`, spaces, '$' and '*' skipped, ends with `w`.
bool preceded_by(std::string_view s, std::size_t pos, std::string_view w) {
  pos = back_skip(s, pos);
  if (pos < w.size() || !text::iequal_at(s, pos - w.size(), w))
    return false;
  // A word must start there.
  std::size_t st = pos - w.size();
  return !(is_alpha(w.front()) && st > 0 && is_alpha(s[st - 1]));
}

} // namespace ij
