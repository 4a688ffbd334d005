#include "answers/math_reader.hpp"

#include <algorithm>
#include <iterator>

#include "answers/cleaning.hpp"
#include "answers/math_parser.hpp"

namespace ij {

namespace {

using namespace math_parsing;

/// An answer that is only words ("odd", "\text{east}", "Even"): compared
/// as words, lower-cased.
std::optional<math_answer> text_answer(std::string_view cleaned) {
  std::string words;
  for (char c : cleaned) {
    if (text::is_alpha(c))
      words.push_back(text::lower(c));
    else if (is_gap(c)) {
      if (!words.empty() && words.back() != ' ')
        words.push_back(' ');
    } else {
      return std::nullopt;
    }
  }
  while (!words.empty() && words.back() == ' ')
    words.pop_back();
  // One or two letters are variables or a choice ("E", "xy"): the
  // expression reader handles them; two words or more is a phrase.
  if (words.size() < 3 || words.find(' ') != std::string::npos)
    return std::nullopt;
  static constexpr std::string_view math_words[] = {
    "sin", "cos", "tan", "log", "ln", "exp", "sqrt", "pi", "and", "or"};
  for (auto w : math_words)
    if (words == w)
      return std::nullopt;
  math_answer a;
  a.kind = math_kind::text;
  a.name = words;
  return a;
}

/// "1,22", "1,2345", "1,23,456", "6,8": digit groups joined by commas
/// without spaces, that a number could be written as (a decimal comma,
/// Indian or broken thousands groups); the number reader refused them.
bool ambiguous_comma(std::string_view s) {
  std::vector<std::size_t> groups;
  std::size_t run = 0;
  for (char c : s) {
    if (text::is_digit(c)) {
      ++run;
    } else if (c == ',' && run > 0) {
      groups.push_back(run);
      run = 0;
    } else {
      return false;
    }
  }
  if (run == 0 || groups.empty())
    return false;
  groups.push_back(run);
  if (groups.size() == 2)
    return true;
  return groups.front() <= 3
         && std::all_of(groups.begin() + 1, groups.end(),
                        [](std::size_t g) { return g == 2 || g == 3; });
}

/// A unit written as text after a value ("5\\text{ cm}^2",
/// "\\frac{1}{2}\\text{ hour}"): the symbolic reader would read "cm" as
/// c times m, so such an answer is not read (the number reader takes units).
/// Words that join answers ("\\text{ or }", "\\text{ and }") are not units.
bool unit_in_text(std::string_view s) {
  static constexpr std::string_view commands[] = {"\\text{", "\\mathrm{",
                                                  "\\textrm{", "\\mbox{"};
  static constexpr std::string_view joints[] = {
    "and",  "or",   "if",        "for", "where", "when", "with",
    "so",   "then", "otherwise", "is",  "are",   "all",  "any",
    "some", "e",    "i",         "th",  "st",    "nd",   "rd"};
  for (auto cmd : commands) {
    for (auto at = s.find(cmd); at != std::string_view::npos;
         at = s.find(cmd, at + 1)) {
      std::size_t b = at;
      while (b > 0 && text::is_space(s[b - 1]))
        --b;
      if (b == 0
          || !(text::is_digit(s[b - 1]) || text::is_alpha(s[b - 1])
               || s[b - 1] == '}' || s[b - 1] == ')'))
        continue;
      const auto open = at + cmd.size();
      const auto close = s.find('}', open);
      if (close == std::string_view::npos)
        continue;
      std::string word;
      bool letters_only = true;
      for (char c : s.substr(open, close - open)) {
        if (text::is_alpha(c))
          word.push_back(text::lower(c));
        else if (!text::is_space(c))
          letters_only = false;
      }
      if (!letters_only || word.empty())
        continue;
      if (std::find(std::begin(joints), std::end(joints), word)
          == std::end(joints))
        return true;
    }
  }
  return false;
}

/// "n!", "(n-1)!": a final "!" after a one-letter name or a bracket is a
/// factorial, which strip_punctuation took for an exclamation ("5!" it
/// keeps itself); "Yes!" stays an exclamation.
std::string_view with_factorial(const std::string& full, std::string_view v) {
  if (v.empty() || v.data() < full.data())
    return v;
  const auto end = static_cast<std::size_t>(v.data() - full.data()) + v.size();
  if (end >= full.size() || full[end] != '!')
    return v;
  const char c = v.back();
  const bool one_letter =
    text::is_alpha(c) && (v.size() == 1 || !text::is_alpha(v[v.size() - 2]));
  if (c == ')' || c == '}' || one_letter)
    return std::string_view{v.data(), v.size() + 1};
  return v;
}

/// An infinity anywhere but at an interval's end is not read.
bool stray_infinity(const math_answer& a, const ex& inf) {
  if (a.kind == math_kind::expression && a.value.has(inf))
    return true;
  for (const auto& t : a.terms)
    if (t.has(inf))
      return true;
  return std::any_of(a.items.begin(), a.items.end(), [&](const math_answer& b) {
    return stray_infinity(b, inf);
  });
}

} // namespace

std::optional<math_answer> read_math(std::string_view final_answer,
                                     symbol_table& symbols) {
  return read_math(final_answer, symbols, math_convention{});
}

bool has_unbased_log(std::string_view s) {
  for (auto at = s.find("log"); at != std::string_view::npos;
       at = s.find("log", at + 1)) {
    if (at > 0 && text::is_alpha(s[at - 1]))
      continue; // inside a word
    std::size_t k = at + 3;
    if (k < s.size() && text::is_alpha(s[k]))
      continue; // "logic"
    while (k < s.size() && text::is_space(s[k]))
      ++k;
    if (k >= s.size() || s[k] != '_')
      return true;
  }
  return false;
}

void note_number_names(std::string_view final_answer, symbol_table& symbols) {
  if (final_answer.size() > max_answer_bytes)
    return;
  const std::string cleaned = clean_answer(final_answer); // tokens view it
  const auto tokens = lex_math(cleaned, max_tokens);
  if (!tokens)
    return;
  for (std::size_t k = 0; k < tokens->size(); ++k) {
    const auto& t = (*tokens)[k];
    const bool applied = k + 1 < tokens->size()
                         && (*tokens)[k + 1].kind == math_token_kind::op
                         && (*tokens)[k + 1].text == "(";
    if (t.kind == math_token_kind::name && !applied)
      symbols.note_number(std::string{t.text});
  }
}

bool may_apply_a_name(std::string_view final_answer) {
  for (std::size_t k = 0; k < final_answer.size(); ++k) {
    if (final_answer[k] != '(')
      continue;
    std::size_t j = k;
    while (j > 0 && final_answer[j - 1] == ' ')
      --j;
    if (j > 0
        && (text::is_alpha(final_answer[j - 1])
            || text::is_digit(final_answer[j - 1])
            || final_answer[j - 1] == '}'))
      return true;
  }
  return false;
}

std::optional<math_answer> read_math(std::string_view final_answer,
                                     symbol_table& symbols,
                                     const math_convention& convention) {
  if (final_answer.size() > max_answer_bytes)
    return std::nullopt;
  if (unit_in_text(final_answer))
    return std::nullopt;
  const std::string full =
    clean_answer(final_answer, /*keep_line_breaks=*/true);
  const std::string cleaned{with_factorial(full, strip_punctuation(full))};
  if (auto t = text_answer(cleaned))
    return t;
  auto tokens = lex_math(cleaned, max_tokens);
  if (!tokens || tokens->empty())
    return std::nullopt;
  // GiNaC throws where an operation has no value (a pole, an overflow): not
  // read either. The parser's own "not read" is its return value.
  try {
    const auto log = convention.log;
    const int log_base = log == log_reading::common   ? 10
                         : log == log_reading::binary ? 2
                                                      : 0;
    math_parser parser{std::move(*tokens),
                       symbols,
                       log_base,
                       convention.tight_division,
                       convention.mixed_numbers,
                       convention.juxtaposed_products};
    auto read = parser.answer();
    if (!read)
      return std::nullopt;
    auto& a = *read;
    a.ambiguous_division = parser.juxtaposed_divisor();
    a.ambiguous_mixed = parser.juxtaposed_fraction();
    a.ambiguous_application = parser.open_application();
    if (stray_infinity(a, symbols.infinity()))
      return std::nullopt;
    a.number_like = ambiguous_comma(cleaned);
    if (a.kind == math_kind::assignment && !a.items.empty()) {
      // "x = 6,8": the value may be a decimal comma as much as a list.
      const auto eq = cleaned.rfind('=');
      a.items.front().number_like =
        eq != std::string::npos
        && ambiguous_comma(
          text::trim(std::string_view{cleaned}.substr(eq + 1)));
    }
    return read;
  } catch (const std::exception&) {
    return std::nullopt; // GiNaC refused an operation
  }
}

} // namespace ij