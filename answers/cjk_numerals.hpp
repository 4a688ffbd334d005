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

/// True when `s` holds only CJK numerals and the words of a Chinese
/// number or root (三分之二, 百分之五十, 2又3分之1, 根号, 负): a value,
/// not a word of prose.
bool is_cjk_number_run(std::string_view s);

/// "3分之2" = 2/3, "三分之二", "百分之五十" = 50%, "2又3分之1" = 2 + 1/3,
/// "负3分之2" = -2/3: the same number in the digits and fraction bar the
/// number reader reads ("2/3", "50%", "2 1/3", "-2/3"); nullopt when `s`
/// is not such a number.
std::optional<std::string> cjk_fraction_text(std::string_view s);

} // namespace ij
