#pragma once
// Chinese and Japanese numerals (三百二十, 一万五千, 两千零五, 〇): read into
// plain digits that the number reader then parses like any written number.
#include <optional>
#include <string>
#include <string_view>

namespace ij {

/// The digits of `s` when it is one CJK numeral and nothing else; nullopt
/// otherwise (mixed text, a misplaced multiplier, over 10^16).
std::optional<std::string> cjk_numeral_digits(std::string_view s);

/// True when `s` holds only CJK numeral characters (not a word of prose).
bool is_cjk_numeral_run(std::string_view s);

} // namespace ij
