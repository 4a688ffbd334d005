#include "answers/units.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "answers/number_words.hpp"
#include "core/text.hpp"

namespace ij {

namespace {

struct unit_word {
  std::string_view word;
  std::string_view unit;
};

constexpr std::array<unit_word, 22> unit_synonyms{{
  {"degrees", "deg"}, {"degree", "deg"},   {"deg", "deg"},
  {"dollars", "usd"}, {"dollar", "usd"},   {"usd", "usd"},
  {"bucks", "usd"},   {"euros", "eur"},    {"euro", "eur"},
  {"eur", "eur"},     {"pounds", "pound"}, {"pound", "pound"},
  {"gbp", "gbp"},     {"yen", "jpy"},      {"jpy", "jpy"},
  {"rupees", "inr"},  {"rupee", "inr"},    {"inr", "inr"},
  {"rs", "inr"},      {"cents", "cent"},   {"cent", "cent"},
  {"cny", "cny"},
}};

constexpr std::array<unit_word, 7> currency_prefixes{{
  {"usd", "usd"},
  {"eur", "eur"},
  {"gbp", "gbp"},
  {"jpy", "jpy"},
  {"inr", "inr"},
  {"rs", "inr"},
  {"cny", "cny"},
}};

// Words that make a tail a phrase rather than a unit.
constexpr std::array<std::string_view, 34> non_unit_words{{
  "and",     "or", "is",   "are",    "was", "were", "the",  "of",    "to",
  "in",      "on", "at",   "but",    "so",  "then", "plus", "times", "over",
  "divided", "by", "not",  "if",     "it",  "for",  "with", "as",    "than",
  "from",    "pi", "sqrt", "answer", "be",  "this", "that",
}};

constexpr std::array<std::string_view, 7> one_letter_units{
  {"m", "g", "s", "l", "h", "k", "L"}};

/// Digits of a CJK numeral: a unit made of them would scale the number.
bool has_cjk_numeral(std::string_view s) {
  static constexpr std::array<std::string_view, 14> numerals{
    "\xE4\xB8\x80", "\xE4\xBA\x8C", "\xE4\xB8\x89", "\xE5\x9B\x9B",
    "\xE4\xBA\x94", "\xE5\x85\xAD", "\xE4\xB8\x83", "\xE5\x85\xAB",
    "\xE4\xB9\x9D", "\xE5\x8D\x81", "\xE7\x99\xBE", "\xE5\x8D\x83",
    "\xE4\xB8\x87", "\xE4\xBA\xBF"};
  for (auto n : numerals)
    if (s.find(n) != std::string_view::npos)
      return true;
  return false;
}

template <class Table>
bool listed(const Table& table, std::string_view w) {
  return std::find(table.begin(), table.end(), w) != table.end();
}

/// The normalised unit of one word; empty when the word is not a unit.
std::string unit_of(const std::string& w) {
  if (listed(non_unit_words, w) || (is_number_word(w) && w != "point")
      || has_cjk_numeral(w))
    return {};
  // The letters before a power or a per ("x^2", "m/s"): "2x", "4i",
  // "3 n", "8x^3" are a variable, not a unit.
  const std::string_view letters{w.data(),
                                 w.find_first_of("^/") == std::string::npos
                                   ? w.size()
                                   : w.find_first_of("^/")};
  const bool ascii_letters_only =
    std::all_of(letters.begin(), letters.end(), text::is_alpha);
  if (ascii_letters_only && letters.size() == 1
      && !listed(one_letter_units, letters))
    return {};
  std::string_view mapped = w;
  for (const auto& u : unit_synonyms)
    if (u.word == w)
      mapped = u.unit;
  std::string m{mapped};
  // Plurals fold to the singular: "apples" == "apple".
  if (m.size() > 3 && m.back() == 's' && m[m.size() - 2] != 's'
      && std::all_of(m.begin(), m.end(), text::is_alpha))
    m.pop_back();
  return m;
}

} // namespace

bool apply_unit_words(std::vector<std::string> words, number_reading& r) {
  if (words.empty())
    return true;
  if (words[0] == "percent" || words[0] == "percentage" || words[0] == "pct"
      || (words[0] == "per" && words.size() > 1 && words[1] == "cent")) {
    if (r.percent)
      return false;
    r.percent = true;
    words.erase(words.begin(), words.begin() + (words[0] == "per" ? 2 : 1));
    if (words.empty())
      return true;
  }
  if (words.size() > 3)
    return false;
  std::string unit;
  for (const auto& w : words) {
    auto m = unit_of(w);
    if (m.empty())
      return false;
    if (!unit.empty())
      unit.push_back(' ');
    unit += m;
  }
  if (!r.unit.empty() && r.unit != unit)
    r.unit += " " + unit;
  else
    r.unit = unit;
  return true;
}

/// Two units of one kind (time, length, mass, money) that are not the same
/// unit: only then does a word in prose tell that the numbers are not
/// comparable ("km" against "km/h" or "square" tells nothing).
bool other_unit_of_a_kind(const std::string& x, const std::string& y) {
  static const std::vector<std::vector<std::string_view>> kinds{
    {"second", "sec", "minute", "min", "hour", "hr", "day", "week", "month",
     "year"},
    {"mm", "cm", "m", "km", "meter", "metre", "kilometer", "kilometre",
     "centimeter", "centimetre", "inch", "foot", "feet", "yard", "mile"},
    {"mg", "g", "kg", "gram", "kilogram", "pound", "lb", "ounce", "oz", "ton"},
    {"usd", "eur", "gbp", "jpy", "cent", "penny", "pence"}};
  if (x == y)
    return false;
  for (const auto& k : kinds)
    if (std::find(k.begin(), k.end(), x) != k.end()
        && std::find(k.begin(), k.end(), y) != k.end())
      return true;
  return false;
}

std::string unit_after(std::string_view text, std::size_t at) {
  std::size_t k = at;
  for (int words = 0; words < 4; ++words) {
    while (k < text.size() && (text[k] == ' ' || text[k] == '$'))
      ++k;
    std::size_t e = k;
    while (e < text.size() && text::is_alpha(text[e]))
      ++e;
    if (e == k || e - k > 20)
      return {};
    std::string word;
    for (std::size_t i = k; i < e; ++i)
      word.push_back(text::lower(text[i]));
    // "3/4 of an hour": the unit after the little words.
    if (word == "of" || word == "an" || word == "a" || word == "the") {
      k = e;
      continue;
    }
    number_reading probe;
    if (!apply_unit_words({word}, probe) || probe.percent)
      return {};
    return probe.unit;
  }
  return {};
}

std::string_view currency_prefix_unit(std::string_view word) {
  for (const auto& p : currency_prefixes)
    if (p.word == word)
      return p.unit;
  return {};
}

} // namespace ij
