#include "answers/answer_markers.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>

#include "core/text.hpp"

namespace ij {

namespace {

using text::is_alpha;
using text::is_space;

enum class boundary {
  word,      // ASCII, case-insensitive, a whole word
  none,      // any neighbours ("故答案为": 答案 after 故)
  han,       // no Han character right before ("回答：" is no marker)
  hangul,    // no Hangul syllable right before ("대답" is no marker)
  last_line, // "A:" opening the last line of the text
};

struct marker_word {
  std::string_view word;
  boundary where;
  bool needs_colon = false;
  bool value_only = false;
};

// The markers, by language (docs/ANSWER_READING.md §1 has them as a
// table, each with a test in tests/answers/answer_markers_test.cpp).
constexpr std::array<marker_word, 22> markers{{
  {"answer", boundary::word},                                   // en
  {"r\xC3\xA9ponse", boundary::word},                           // fr réponse
  {"reponse", boundary::word},                                  // fr
  {"respuesta", boundary::word},                                // es
  {"resposta", boundary::word},                                 // pt
  {"risposta", boundary::word},                                 // it
  {"antwort", boundary::word},                                  // de
  {"\xD0\xBE\xD1\x82\xD0\xB2\xD0\xB5\xD1\x82", boundary::none}, // ru ответ
  {"\xD0\x9E\xD1\x82\xD0\xB2\xD0\xB5\xD1\x82", boundary::none}, // ru Ответ
  {"\xD0\x9E\xD0\xA2\xD0\x92\xD0\x95\xD0\xA2", boundary::none}, // ru ОТВЕТ
  {"\xE7\xAD\x94\xE6\xA1\x88", boundary::none},                 // zh 答案
  {"\xE7\xAD\x94", boundary::han, true},                        // zh 答：
  {"\xE8\xA7\xA3\xE7\xAD\x94", boundary::none, false, true},    // ja 解答
  {"\xE7\xAD\x94\xE3\x81\x88", boundary::none},                 // ja 答え
  {"\xEC\xA0\x95\xEB\x8B\xB5", boundary::none},                 // ko 정답
  {"\xEB\x8B\xB5", boundary::hangul},                           // ko 답
  {"\xC4\x90\xC3\xA1p \xC3\xA1n", boundary::none},              // vi Đáp án
  {"\xC4\x91\xC3\xA1p \xC3\xA1n", boundary::none},              // vi đáp án
  {"\xD8\xA7\xD9\x84\xD8\xA5\xD8\xAC\xD8\xA7\xD8\xA8\xD8\xA9",
   boundary::none}, // ar الإجابة
  {"\xD8\xA7\xD9\x84\xD8\xAC\xD9\x88\xD8\xA7\xD8\xA8",
   boundary::none}, // ar الجواب
  {"\xE0\xA4\x89\xE0\xA4\xA4\xE0\xA5\x8D\xE0\xA4\xA4\xE0\xA4\xB0",
   boundary::none},                 // hi उत्तर
  {"A", boundary::last_line, true}, // "A: 18"
}};

/// The byte before `k` ends a character of the script whose UTF-8 lead
/// bytes are [lo, hi] (three-byte characters).
bool after_script(std::string_view s, std::size_t k, unsigned char lo,
                  unsigned char hi) {
  if (k < 3)
    return false;
  const auto lead = static_cast<unsigned char>(s[k - 3]);
  return lead >= lo && lead <= hi;
}

bool on_last_line(std::string_view s, std::size_t k) {
  if (k > 0 && s[k - 1] != '\n')
    return false;
  const auto eol = s.find('\n', k);
  if (eol == std::string_view::npos)
    return true;
  for (std::size_t i = eol; i < s.size(); ++i)
    if (!is_space(s[i]))
      return false;
  return true;
}

bool boundary_holds(std::string_view s, std::size_t k, const marker_word& m) {
  const std::size_t end = k + m.word.size();
  switch (m.where) {
    case boundary::word:
      return !(k > 0 && is_alpha(s[k - 1]))
             && !(end < s.size() && is_alpha(s[end]));
    case boundary::han: // U+4E00..U+9FFF: lead bytes E4..E9
      return !after_script(s, k, 0xE4, 0xE9);
    case boundary::hangul: // U+AC00..U+D7A3: lead bytes EA..ED
      return !after_script(s, k, 0xEA, 0xED);
    case boundary::last_line: return on_last_line(s, k);
    case boundary::none: return true;
  }
  return false;
}

/// A colon (":" or "：") after optional spaces at `i`.
bool colon_at(std::string_view s, std::size_t i) {
  while (i < s.size() && s[i] == ' ')
    ++i;
  return (i < s.size() && s[i] == ':') || s.substr(i, 3) == "\xEF\xBC\x9A";
}

} // namespace

answer_marker answer_marker_at(std::string_view s, std::size_t k) {
  // The markers by their first byte (lower case): a text's bytes meet
  // only the few that may start there.
  static const auto by_first = [] {
    std::array<std::array<signed char, 8>, 256> t{};
    for (auto& row : t)
      row.fill(-1);
    for (std::size_t m = 0; m < markers.size(); ++m) {
      auto& row =
        t[static_cast<unsigned char>(text::lower(markers[m].word.front()))];
      auto slot = std::find(row.begin(), row.end(), -1);
      if (slot == row.end())
        std::abort(); // more markers share a first byte than a row holds
      *slot = static_cast<signed char>(m);
    }
    return t;
  }();
  if (k >= s.size())
    return {};
  for (const signed char index :
       by_first[static_cast<unsigned char>(text::lower(s[k]))]) {
    if (index < 0)
      break;
    const auto& m = markers[static_cast<std::size_t>(index)];
    const bool matches = m.where == boundary::word
                           ? text::iequal_at(s, k, m.word)
                           : s.substr(k, m.word.size()) == m.word;
    if (!matches || !boundary_holds(s, k, m))
      continue;
    if (m.needs_colon && !colon_at(s, k + m.word.size()))
      continue;
    return {m.word.size(), m.needs_colon, m.value_only};
  }
  return {};
}

std::size_t intro_word_at(std::string_view s, std::size_t i) {
  static constexpr std::array<std::string_view, 11> ascii{
    "would be", "will be", "is",     "est", "es",    "ist",
    "sera",     "serait",  "equals", "was", "lautet"};
  for (auto w : ascii)
    if (text::iequal_at(s, i, w)
        && !(i + w.size() < s.size() && is_alpha(s[i + w.size()])))
      return w.size();
  // Words of other scripts, followed by a space or the value.
  static constexpr std::array<std::string_view, 16> other{
    "\xEF\xBC\x9A",     "\xE6\x98\xAF",     "\xE4\xB8\xBA",
    "\xE7\x82\xBA",                                         // ： 是 为 為
    "\xD9\x87\xD9\x8A", "\xD9\x87\xD9\x88",                 // هي هو
    "\xC3\xA9",         "\xC3\xA8",         "l\xC3\xA0",    // é è là
    "\xE3\x81\xAF",                                         // は
    "\xEC\x9D\x80",     "\xEB\x8A\x94",     "\xEC\x9D\xB4", // 은 는 이
    "\xE2\x80\x94",     "\xE2\x80\x93",                     // — –
    "\xE3\x80\x91"};                                        // 】
  for (auto w : other)
    if (s.substr(i, w.size()) == w
        && !(w.front() == 'l' && i + w.size() < s.size()
             && is_alpha(s[i + w.size()])))
      return w.size();
  return 0;
}

std::string_view without_copula(std::string_view span) {
  static constexpr std::array<std::string_view, 7> copulas{
    "\xE3\x81\xA7\xE3\x81\x99",             // です
    "\xE3\x81\xA7\xE3\x81\x82\xE3\x82\x8B", // である
    "\xE3\x81\xA0",                         // だ
    "\xEC\x9E\x85\xEB\x8B\x88\xEB\x8B\xA4", // 입니다
    "\xEC\x9D\xB4\xEB\x8B\xA4",             // 이다
    "\xEC\x9D\xB4\xEC\x97\x90\xEC\x9A\x94", // 이에요
    "\xEC\x98\x88\xEC\x9A\x94"};            // 예요
  for (auto c : copulas)
    if (span.size() > c.size() && span.substr(span.size() - c.size()) == c)
      return text::trim(span.substr(0, span.size() - c.size()));
  return span;
}

bool end_of_answer_tag_at(std::string_view s, std::size_t k) {
  return s.substr(k, 5) == "<eoa>";
}

} // namespace ij
