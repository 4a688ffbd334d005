#include "answers/boxed.hpp"

#include <algorithm>

#include "core/text.hpp"

namespace ij {

using text::iequal_at;
using text::is_alpha;
using text::is_space;

std::vector<boxed_span> boxed_answers(std::string_view s) {
  std::vector<boxed_span> out;
  std::size_t from = 0;
  // The next of each command, searched again only once passed: a text
  // of many boxes and no \fbox is scanned once, not once per box.
  std::size_t a = 0, b = 0;
  bool a_known = false, b_known = false;
  for (;;) {
    if (!a_known || (a != std::string_view::npos && a < from)) {
      a = s.find("\\boxed", from);
      a_known = true;
    }
    if (!b_known || (b != std::string_view::npos && b < from)) {
      b = s.find("\\fbox", from);
      b_known = true;
    }
    std::size_t at = std::min(a, b);
    if (at == std::string_view::npos)
      break;
    std::size_t name_len = at == a ? 6 : 5;
    std::size_t i = at + name_len;
    from = i;
    if (i < s.size() && is_alpha(s[i]))
      continue; // "\boxedx": another command
    while (i < s.size() && s[i] == ' ')
      ++i;
    if (i < s.size() && s[i] == '{') {
      int depth = 0;
      std::size_t k = i;
      for (; k < s.size(); ++k) {
        if (s[k] == '\\' && k + 1 < s.size()) {
          ++k; // "\{" and "\}" do not nest
          continue;
        }
        if (s[k] == '{')
          ++depth;
        else if (s[k] == '}' && --depth == 0)
          break;
      }
      if (k >= s.size()) { // unbalanced: take the rest
        out.push_back({at, s.size(), s.substr(i + 1)});
        break;
      }
      out.push_back({at, k + 1, s.substr(i + 1, k - i - 1)});
      from = k + 1;
    } else {
      // "\boxed 4": the next token.
      std::size_t k = i;
      while (k < s.size() && !is_space(s[k]) && s[k] != '$')
        ++k;
      if (k > i)
        out.push_back({at, k, s.substr(i, k - i)});
      from = k;
    }
  }
  return out;
}

/// Only separators between two boxes: they list parts of one answer.
bool is_list_gap(std::string_view gap) {
  std::size_t i = 0;
  while (i < gap.size()) {
    char c = gap[i];
    if (is_space(c) || c == ',' || c == ';' || c == '$' || c == '&' || c == '{'
        || c == '}' || c == '~') {
      ++i;
      continue;
    }
    if (c == '\\') {
      std::size_t k = i + 1;
      while (k < gap.size() && is_alpha(gap[k]))
        ++k;
      auto name = gap.substr(i + 1, k - i - 1);
      if (name.empty() && k < gap.size())
        ++k; // "\\", "\,", "\;"
      else if (!(name == "quad" || name == "qquad" || name == "text"
                 || name == "textrm" || name == "mathrm" || name.empty()))
        return false;
      i = k;
      continue;
    }
    if (iequal_at(gap, i, "and") || iequal_at(gap, i, "or")) {
      i += iequal_at(gap, i, "and") ? 3 : 2;
      continue;
    }
    return false;
  }
  return true;
}

} // namespace ij
