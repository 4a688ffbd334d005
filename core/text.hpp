#pragma once
// ASCII character classes and trimming for the hand-written scanners (the
// reply parser, the comparators, the answer readers): one definition, no
// locale (std::isspace and friends depend on it, and on the sign of char).
#include <cstddef>
#include <string_view>

namespace ij::text {

constexpr bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

constexpr bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

constexpr bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
         || c == '\v';
}

constexpr char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr char upper(char c) {
  return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
}

/// True for bytes of a multi-byte UTF-8 sequence.
constexpr bool is_non_ascii(char c) {
  return static_cast<unsigned char>(c) >= 0x80;
}

/// `s` without leading and trailing characters for which `drop` holds.
template <class Pred>
constexpr std::string_view trim_if(std::string_view s, Pred drop) {
  while (!s.empty() && drop(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && drop(s.back()))
    s.remove_suffix(1);
  return s;
}

/// `s` without surrounding ASCII whitespace.
constexpr std::string_view trim(std::string_view s) {
  return trim_if(s, is_space);
}

constexpr bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// `s` holds `word` (given in lower case) at `i`, ASCII case-insensitively.
constexpr bool iequal_at(std::string_view s, std::size_t i,
                         std::string_view word) {
  if (i > s.size() || word.size() > s.size() - i)
    return false;
  for (std::size_t k = 0; k < word.size(); ++k)
    if (lower(s[i + k]) != word[k])
      return false;
  return true;
}

/// `s` equals `word` (given in lower case), ASCII case-insensitively.
constexpr bool iequals(std::string_view s, std::string_view word) {
  return s.size() == word.size() && iequal_at(s, 0, word);
}

} // namespace ij::text
