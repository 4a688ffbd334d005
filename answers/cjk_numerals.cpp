#include "answers/cjk_numerals.hpp"

#include <array>
#include <cstdint>

namespace ij {

namespace {

struct cjk_char {
  std::string_view utf8;
  int digit;          // 0-9, or -1 for a multiplier
  std::uint64_t unit; // 10, 100, 1000 (within a section), 10^4, 10^8
};

constexpr std::array<cjk_char, 19> chars{{
  {"\xE9\x9B\xB6", 0, 0},      {"\xE3\x80\x87", 0, 0},          // 零 〇
  {"\xE4\xB8\x80", 1, 0},      {"\xE4\xBA\x8C", 2, 0},          // 一 二
  {"\xE4\xB8\xA4", 2, 0},      {"\xE5\x85\xA9", 2, 0},          // 两 兩
  {"\xE4\xB8\x89", 3, 0},      {"\xE5\x9B\x9B", 4, 0},          // 三 四
  {"\xE4\xBA\x94", 5, 0},      {"\xE5\x85\xAD", 6, 0},          // 五 六
  {"\xE4\xB8\x83", 7, 0},      {"\xE5\x85\xAB", 8, 0},          // 七 八
  {"\xE4\xB9\x9D", 9, 0},                                       // 九
  {"\xE5\x8D\x81", -1, 10},    {"\xE7\x99\xBE", -1, 100},       // 十 百
  {"\xE5\x8D\x83", -1, 1000},  {"\xE4\xB8\x87", -1, 10000},     // 千 万
  {"\xE8\x90\xAC", -1, 10000}, {"\xE4\xBA\xBF", -1, 100000000}, // 萬 亿
}};

const cjk_char* char_at(std::string_view s, std::size_t i) {
  // Every numeral is three bytes led by E3..E9: most bytes are ruled out
  // without comparing.
  if (i + 3 > s.size())
    return nullptr;
  const auto lead = static_cast<unsigned char>(s[i]);
  if (lead < 0xE3 || lead > 0xE9)
    return nullptr;
  for (const auto& c : chars)
    if (s[i] == c.utf8[0] && s[i + 1] == c.utf8[1] && s[i + 2] == c.utf8[2])
      return &c;
  return nullptr;
}

} // namespace

bool is_cjk_numeral_run(std::string_view s) {
  if (s.empty())
    return false;
  for (std::size_t i = 0; i < s.size();) {
    const auto* c = char_at(s, i);
    if (!c)
      return false;
    i += c->utf8.size();
  }
  return true;
}

namespace {

constexpr std::string_view fen_zhi = "\xE5\x88\x86\xE4\xB9\x8B"; // 分之
constexpr std::string_view bai = "\xE7\x99\xBE";                 // 百
constexpr std::string_view you = "\xE5\x8F\x88";                 // 又
constexpr std::string_view fu = "\xE8\xB4\x9F";                  // 负
constexpr std::string_view gen_hao = "\xE6\xA0\xB9\xE5\x8F\xB7"; // 根号

/// Digits, or a CJK numeral read into digits.
std::optional<std::string> number_part(std::string_view s) {
  if (s.empty() || s.size() > 40)
    return std::nullopt;
  bool digits = true;
  for (char c : s)
    digits = digits && ((c >= '0' && c <= '9') || c == '.');
  if (digits && s.front() != '.' && s.back() != '.')
    return std::string{s};
  return cjk_numeral_digits(s);
}

} // namespace

bool is_cjk_number_run(std::string_view s) {
  if (s.empty())
    return false;
  for (std::size_t i = 0; i < s.size();) {
    if (const auto* c = char_at(s, i)) {
      i += c->utf8.size();
      continue;
    }
    bool word = false;
    for (auto w : {fen_zhi, you, fu, gen_hao})
      if (s.substr(i, w.size()) == w) {
        i += w.size();
        word = true;
        break;
      }
    if (!word)
      return false;
  }
  return true;
}

std::optional<std::string> cjk_fraction_text(std::string_view s) {
  const auto at = s.find(fen_zhi);
  if (at == std::string_view::npos)
    return std::nullopt;
  std::string sign;
  if (s.substr(0, fu.size()) == fu) {
    sign = "-";
    s.remove_prefix(fu.size());
  }
  auto den = s.substr(0, s.find(fen_zhi));
  const auto num = number_part(s.substr(den.size() + fen_zhi.size()));
  if (!num)
    return std::nullopt;
  if (den == bai) // 百分之五十: a percent
    return sign + *num + "%";
  std::string whole;
  if (const auto y = den.find(you); y != std::string_view::npos) {
    const auto w = number_part(den.substr(0, y)); // 2又3分之1
    if (!w)
      return std::nullopt;
    whole = *w + " ";
    den = den.substr(y + you.size());
  }
  const auto d = number_part(den);
  if (!d)
    return std::nullopt;
  return sign + whole + *num + "/" + *d;
}

std::optional<std::string> cjk_numeral_digits(std::string_view s) {
  std::uint64_t total = 0, section = 0;
  int digit = -1; // a digit waiting for its multiplier
  std::uint64_t last_small = 10000, last_big = UINT64_MAX;
  bool any = false;
  for (std::size_t i = 0; i < s.size();) {
    const auto* c = char_at(s, i);
    if (!c)
      return std::nullopt;
    i += c->utf8.size();
    any = true;
    if (c->digit >= 0) {
      if (digit > 0)
        return std::nullopt; // "三三": two digits without a multiplier
      digit = c->digit;
      continue;
    }
    if (c->unit < 10000) { // 十 百 千 within a section, in falling order
      if (c->unit >= last_small)
        return std::nullopt;
      section += static_cast<std::uint64_t>(digit < 0 ? 1 : digit) * c->unit;
      last_small = c->unit;
    } else { // 万 亿 close a section
      if (c->unit >= last_big)
        return std::nullopt;
      section += digit < 0 ? 0 : static_cast<std::uint64_t>(digit);
      if (section == 0 || section > 9999)
        return std::nullopt;
      total += section * c->unit;
      section = 0;
      last_small = 10000;
      last_big = c->unit;
    }
    digit = -1;
  }
  if (!any)
    return std::nullopt;
  section += digit < 0 ? 0 : static_cast<std::uint64_t>(digit);
  return std::to_string(total + section);
}

} // namespace ij
