#include "answers/answer_phrase.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "answers/answer_markers.hpp"
#include "answers/cleaning.hpp"
#include "answers/prose.hpp"
#include "core/text.hpp"

namespace ij {

namespace {

using text::iequal_at;
using text::is_alpha;
using text::is_digit;
using text::is_space;
using text::lower;
using text::trim;

/// Where the value after an "answer" phrase ending at `after` starts
/// (past ":", "is", "would be" and markup); npos when no value follows.
std::size_t value_start(std::string_view s, std::size_t after) {
  std::size_t i = after;
  const std::size_t n = s.size();
  auto skip_markup = [&] {
    while (i < n && (s[i] == ' ' || s[i] == '*' || s[i] == '\t'))
      ++i;
  };
  skip_markup();
  bool introduced = false;
  if (i < n && (s[i] == ':' || s[i] == '=')) {
    ++i;
    introduced = true;
  } else if (auto len = intro_word_at(s, i)) {
    i += len;
    introduced = true;
    skip_markup();
    if (i < n && s[i] == ':')
      ++i;
    else if (s.substr(i, 3) == "\xEF\xBC\x9A") // "："
      i += 3;
  }
  // Skip markup and line breaks before the value.
  while (i < n && (is_space(s[i]) || s[i] == '*' || s[i] == '#'))
    ++i;
  if (i >= n)
    return std::string_view::npos;
  // "Answer \[ 9 \]", "answer 2½": only a value may follow directly.
  const char c = s[i];
  if (!introduced
      && !(c == '$' || c == '\\' || is_digit(c) || c == '-' || c == '+'
           || vulgar_fraction_length(s, i)
           || static_cast<unsigned char>(c) == 0xE2))
    return std::string_view::npos;
  return i;
}

/// A sentence ends here: a line break, ". " "! " "? ", ", <word>", "。", "।".
bool ends_sentence(std::string_view s, std::size_t k) {
  const std::size_t n = s.size();
  const char c = s[k];
  if (c == '\n')
    return true;
  if ((c == '.' || c == '!' || c == '?')
      && (k + 1 >= n || is_space(s[k + 1]) || s[k + 1] == '*'))
    return true;
  if (c == ',' && k + 2 < n && s[k + 1] == ' ' && is_alpha(s[k + 2]))
    return true;                             // "12, because ..."
  return s.substr(k, 3) == "\xE3\x80\x82"    // "。"
         || s.substr(k, 3) == "\xE0\xA5\xA4" // "।" (danda)
         || end_of_answer_tag_at(s, k);      // "【答案】B<eoa>"
}

/// The end of the sentence starting at `start`, outside math and braces,
/// looking at most 600 bytes ahead.
std::size_t sentence_end(std::string_view s, std::size_t start) {
  const std::size_t n = s.size();
  int depth = 0;
  bool in_math = false;
  std::string_view close;
  std::size_t k = start;
  const std::size_t limit = std::min(n, start + 600);
  for (; k < limit; ++k) {
    const char c = s[k];
    if (c == '\\' && k + 1 < n && s[k + 1] == '$') {
      ++k; // "\$" is a dollar sign, in math or out
      continue;
    }
    if (in_math) {
      if (s.substr(k, close.size()) == close) {
        k += close.size() - 1;
        in_math = false;
      }
      continue;
    }
    if (c == '\\' && k + 1 < n && (s[k + 1] == '[' || s[k + 1] == '(')) {
      close = s[k + 1] == '[' ? "\\]" : "\\)";
      in_math = true;
      ++k;
      continue;
    }
    if (c == '$') {
      close = (k + 1 < n && s[k + 1] == '$') ? "$$" : "$";
      k += close.size() - 1;
      in_math = true;
      continue;
    }
    if (c == '{' || c == '(')
      ++depth;
    else if ((c == '}' || c == ')') && depth > 0)
      --depth;
    if (depth == 0 && ends_sentence(s, k))
      break;
  }
  return k;
}

/// "The final answer is "12"": the quotes mark the answer off, they are no
/// part of it. Only one pair wrapping the whole span ("\"...\"" as well,
/// a quote escaped as in a JSON string), with no closing quote inside, so
/// that `"a" and "b"` stays as it is.
std::string_view unquoted(std::string_view span) {
  static const std::pair<std::string_view, std::string_view> pairs[] = {
    {"\\\"", "\\\""},
    {"\"", "\""},
    {"'", "'"},
    {"\xE2\x80\x9C", "\xE2\x80\x9D"}, // “ ”
    {"\xE2\x80\x98", "\xE2\x80\x99"}, // ‘ ’
    {"\xC2\xAB", "\xC2\xBB"},         // « »
    {"\xE3\x80\x8C", "\xE3\x80\x8D"}, // 「 」
  };
  for (const auto& [open, close] : pairs) {
    if (span.size() < open.size() + close.size() + 1
        || span.substr(0, open.size()) != open
        || span.substr(span.size() - close.size()) != close)
      continue;
    auto inner =
      span.substr(open.size(), span.size() - open.size() - close.size());
    if (inner.find(close) != std::string_view::npos
        || (close == "\"" && inner.find('"') != std::string_view::npos))
      return span;
    return trim(inner);
  }
  return span;
}

/// The answer span after an "answer" phrase ending at `after`; empty when
/// the phrase is not followed by an answer (or, after a marker that also
/// heads solutions, by a sentence rather than a value).
std::string_view phrase_span(std::string_view s, std::size_t after,
                             bool value_only = false) {
  const std::size_t start = value_start(s, after);
  if (start == std::string_view::npos)
    return {};
  auto span = trim(s.substr(start, sentence_end(s, start) - start));
  while (!span.empty() && (span.back() == '*' || span.back() == '.'))
    span.remove_suffix(1);
  span = unquoted(without_copula(trim(span)));
  while (!span.empty() && span.back() == '.')
    span.remove_suffix(1);
  span = trim(span);
  if (value_only && is_prose(span, true))
    return {};
  return span;
}

} // namespace

phrase_hit last_answer_phrase(std::string_view s) {
  phrase_hit hit;
  for (std::size_t k = s.size(); k-- > 0;) {
    const auto m = answer_marker_at(s, k);
    if (m.length == 0)
      continue;
    auto span = phrase_span(s, k + m.length, m.value_only);
    if (!span.empty()) {
      hit.at = k;
      hit.span = span;
      return hit;
    }
  }
  return hit;
}

std::vector<phrase_hit> answer_phrases(std::string_view s) {
  std::vector<phrase_hit> out;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const auto m = answer_marker_at(s, k);
    if (m.length == 0)
      continue;
    auto span = phrase_span(s, k + m.length, m.value_only);
    if (!span.empty())
      out.push_back({k, span});
    k += m.length - 1;
  }
  return out;
}

bool is_final_phrase(std::string_view s, std::size_t at) {
  std::size_t p = at;
  while (p > 0 && (is_space(s[p - 1]) || s[p - 1] == '*'))
    --p;
  return p >= 5 && iequal_at(s, p - 5, "final")
         && (p == 5 || !is_alpha(s[p - 6]));
}

bool is_retracted(std::string_view s, const phrase_hit& hit) {
  if (hit.span.empty() || hit.span.data() < s.data())
    return false;
  std::size_t k =
    static_cast<std::size_t>(hit.span.data() - s.data()) + hit.span.size();
  while (k < s.size()
         && (is_space(s[k]) || s[k] == ',' || s[k] == '.' || s[k] == '-'
             || s[k] == '!' || s[k] == '*'))
    ++k;
  static constexpr std::array<std::string_view, 8> takebacks{
    "wait", "no,", "no ", "actually", "sorry", "i mean", "correction", "oops"};
  for (auto w : takebacks)
    if (iequal_at(s, k, w))
      return true;
  return false;
}

/// "12 since ...": a phrase span that opens with the number, followed by
/// words rather than operators.
std::optional<std::string_view> leading_number(std::string_view span) {
  std::size_t i = 0;
  while (i < span.size()
         && (is_space(span[i]) || span[i] == '$' || span[i] == '*'))
    ++i;
  auto rest = span.substr(i);
  std::size_t k = 0;
  if (k < rest.size() && rest[k] == '-')
    ++k;
  if (!(k < rest.size()
        && (is_digit(rest[k]) || vulgar_fraction_length(rest, k))))
    return std::nullopt;
  while (k < rest.size()
         && (is_digit(rest[k])
             || ((rest[k] == ',' || rest[k] == '.' || rest[k] == '/')
                 && k + 1 < rest.size() && is_digit(rest[k + 1]))))
    ++k;
  if (k < rest.size() && rest[k] == '%')
    ++k;
  auto number = rest.substr(0, k);
  // What follows must be a word that is not an operator or a list joint.
  std::size_t j = k;
  if (j < rest.size() && !is_space(rest[j]) && rest[j] != '$')
    return std::nullopt;
  while (j < rest.size() && (is_space(rest[j]) || rest[j] == '$'))
    ++j;
  if (j >= rest.size() || !is_alpha(rest[j]))
    return std::nullopt;
  std::size_t we = j;
  while (we < rest.size() && is_alpha(rest[we]))
    ++we;
  std::string w;
  for (std::size_t q = j; q < we; ++q)
    w.push_back(lower(rest[q]));
  static constexpr std::array<std::string_view, 12> joints{
    "and",   "or",   "to",      "through", "plus", "minus",
    "times", "over", "divided", "x",       "i",    "pi"};
  if (std::find(joints.begin(), joints.end(), w) != joints.end())
    return std::nullopt;
  // "5 apples and 3 oranges": another number joined on is a multi-part
  // answer, not a number with an explanation.
  for (std::size_t q = we; q < rest.size(); ++q) {
    if (!is_digit(rest[q]))
      continue;
    if (preceded_by(rest, q, "and") || preceded_by(rest, q, "or")
        || preceded_by(rest, q, ",") || preceded_by(rest, q, "plus"))
      return std::nullopt;
    while (q < rest.size() && is_digit(rest[q]))
      ++q;
  }
  return number;
}

} // namespace ij
