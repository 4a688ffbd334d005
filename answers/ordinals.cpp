#include "answers/ordinals.hpp"

#include <array>

#include "core/text.hpp"

namespace ij {

namespace {

struct ordinal_word {
  std::string_view word;
  int value;
};

constexpr std::array<ordinal_word, 19> unit_ordinals{{
  {"first", 1},       {"second", 2},       {"third", 3},
  {"fourth", 4},      {"fifth", 5},        {"sixth", 6},
  {"seventh", 7},     {"eighth", 8},       {"ninth", 9},
  {"tenth", 10},      {"eleventh", 11},    {"twelfth", 12},
  {"thirteenth", 13}, {"fourteenth", 14},  {"fifteenth", 15},
  {"sixteenth", 16},  {"seventeenth", 17}, {"eighteenth", 18},
  {"nineteenth", 19},
}};

constexpr std::array<ordinal_word, 8> tens_ordinals{{
  {"twentieth", 20},
  {"thirtieth", 30},
  {"fortieth", 40},
  {"fiftieth", 50},
  {"sixtieth", 60},
  {"seventieth", 70},
  {"eightieth", 80},
  {"ninetieth", 90},
}};

constexpr std::array<ordinal_word, 8> tens{{
  {"twenty", 20},
  {"thirty", 30},
  {"forty", 40},
  {"fifty", 50},
  {"sixty", 60},
  {"seventy", 70},
  {"eighty", 80},
  {"ninety", 90},
}};

template <std::size_t N>
std::optional<int> find(const std::array<ordinal_word, N>& table,
                        std::string_view w) {
  for (const auto& e : table)
    if (e.word == w)
      return e.value;
  return std::nullopt;
}

std::optional<int> ordinal_in_words(std::string_view w) {
  if (auto v = find(unit_ordinals, w))
    return v;
  if (auto v = find(tens_ordinals, w))
    return v;
  // "twenty-first", "twenty first"
  const auto joint = w.find_first_of("- ");
  if (joint == std::string_view::npos)
    return std::nullopt;
  auto t = find(tens, w.substr(0, joint));
  auto u = find(unit_ordinals, w.substr(joint + 1));
  if (t && u && *u < 10)
    return *t + *u;
  return std::nullopt;
}

/// "12th", "21st", "2nd", "3rd" (the suffix checked against the number).
std::optional<std::string> digits_with_suffix(std::string_view s) {
  std::size_t k = 0;
  while (k < s.size() && text::is_digit(s[k]))
    ++k;
  if (k == 0 || k > 9)
    return std::nullopt;
  auto suffix = s.substr(k);
  for (std::string_view wrap :
       {"^{\\mathrm{", "^{\\text{", "^{\\rm ", "^\\text{", "^{", "^"}) {
    if (suffix.substr(0, wrap.size()) == wrap) {
      suffix.remove_prefix(wrap.size());
      while (!suffix.empty() && suffix.back() == '}')
        suffix.remove_suffix(1);
      break;
    }
  }
  const auto digits = s.substr(0, k);
  const int last = digits.back() - '0';
  const bool teen = k >= 2 && digits[k - 2] == '1';
  const std::string_view expected = teen        ? "th"
                                    : last == 1 ? "st"
                                    : last == 2 ? "nd"
                                    : last == 3 ? "rd"
                                                : "th";
  if (suffix != expected)
    return std::nullopt;
  return std::string{digits};
}

} // namespace

std::optional<std::string> ordinal_digits(std::string_view answer) {
  auto s = text::trim(answer);
  while (!s.empty() && (s.back() == '.' || s.back() == '$'))
    s = text::trim(s.substr(0, s.size() - 1));
  while (!s.empty() && s.front() == '$')
    s = text::trim(s.substr(1));
  if (s.empty() || s.size() > 40)
    return std::nullopt;
  if (text::is_digit(s.front()))
    return digits_with_suffix(s);
  std::string lower;
  for (char c : s)
    lower.push_back(text::lower(c));
  if (auto v = ordinal_in_words(lower))
    return std::to_string(*v);
  return std::nullopt;
}

} // namespace ij
