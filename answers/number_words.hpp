#pragma once
// English number words ("two hundred", "twenty-one", "three and a half",
// "two point five", "seven tenths") read into a plain numeric text that the
// number reader then parses like any written number, so that both paths
// share one notion of value and exactness.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ij {

struct number_words_reading {
  /// "1234", "-5", "2.3", "7/2": digits, optional '-', '.' or one '/'.
  std::string numeric_text;
  /// How many of the tokens were consumed; the rest is for the caller
  /// (a unit, a percent word).
  std::size_t consumed = 0;
};

/// `tokens` are lower-case words (split on spaces and hyphens); a token may
/// also be a plain unsigned integer ("100 thousand", "1 quarter") or decimal
/// followed by a scale ("1.5 million"). Reads the longest prefix that forms
/// one number; nullopt when no prefix does. Bare ordinals ("third") are not
/// read: "the third" is a position, not a fraction.
std::optional<number_words_reading>
read_number_words(const std::vector<std::string_view>& tokens);

/// True for a word the number-words grammar uses ("and" and "a" excepted):
/// the number reader refuses such a word as a unit.
bool is_number_word(std::string_view word);

} // namespace ij
