#include "answers/number_reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "answers/cjk_numerals.hpp"
#include "answers/cleaning.hpp"
#include "answers/number_scanner.hpp"
#include "answers/number_words.hpp"

namespace ij {

namespace {

using text::is_alpha;
using text::is_digit;
using text::lower;

/// "two hundred", "minus five", "100 thousand", "three and a half
/// percent": the words path, with what follows read as percent or unit.
std::optional<number_reading> read_words(std::string_view s) {
  std::vector<std::string> lowered;
  if (!s.empty() && s.front() == '-') { // "-five"
    lowered.emplace_back("minus");
    s.remove_prefix(1);
  }
  std::string cur;
  auto flush = [&] {
    if (!cur.empty())
      lowered.push_back(cur);
    cur.clear();
  };
  for (char c : s) {
    unsigned char uc = static_cast<unsigned char>(c);
    if (is_alpha(c) || is_digit(c) || uc >= 0x80
        || (c == '.' && !cur.empty() && is_digit(cur.back()))) {
      cur.push_back(lower(c));
    } else if (is_gap(c) || c == '-' || c == ',') {
      flush();
    } else if (c == '%') {
      flush();
      lowered.emplace_back("%");
    } else {
      return std::nullopt;
    }
  }
  flush();
  if (lowered.empty())
    return std::nullopt;
  std::vector<std::string_view> tokens(lowered.begin(), lowered.end());
  auto w = read_number_words(tokens);
  if (!w)
    return std::nullopt;
  auto r = read_number(w->numeric_text);
  if (!r)
    return std::nullopt;
  std::string tail;
  for (std::size_t k = w->consumed; k < lowered.size(); ++k) {
    if (!tail.empty())
      tail.push_back(' ');
    tail += lowered[k];
  }
  if (!tail.empty()) {
    // The scanner's suffix rules decide what may follow.
    if (!apply_suffix(tail, *r))
      return std::nullopt;
  }
  return r;
}

/// A function of the reader's ("\\tan", "sin", "log"): "\\tan(x) = 1" is
/// an equation about x, not a name labelling the value 1.
bool is_function_name(std::string_view name) {
  static constexpr std::array<std::string_view, 23> functions{
    "sin",    "cos",    "tan",    "sec",          "csc",   "cot",
    "arcsin", "arccos", "arctan", "sinh",         "cosh",  "tanh",
    "log",    "ln",     "lg",     "exp",          "sqrt",  "frac",
    "times",  "cdot",   "pi",     "operatorname", "mathrm"};
  return std::find(functions.begin(), functions.end(), name) != functions.end();
}

/// "x", "f(x)", "a_{37}", "\\theta", "P(A)": the name in "x = 5"; never a
/// function of the reader's or an expression ("\\tan(x)", "2x").
bool is_simple_name(std::string_view s) {
  s = trim_gaps(s);
  std::size_t i = 0;
  if (i < s.size() && s[i] == '\\')
    ++i;
  std::size_t st = i;
  while (i < s.size() && is_alpha(s[i]))
    ++i;
  if (i == st || is_function_name(s.substr(st, i - st)))
    return false;
  if (i < s.size() && s[i] == '_') {
    ++i;
    if (i < s.size() && s[i] == '{') {
      auto close = s.find('}', i);
      if (close == std::string_view::npos)
        return false;
      i = close + 1;
    } else if (i < s.size() && (is_alpha(s[i]) || is_digit(s[i]))) {
      ++i;
    } else {
      return false;
    }
  }
  if (i < s.size() && s[i] == '(') {
    auto close = s.find(')', i);
    if (close == std::string_view::npos)
      return false;
    for (std::size_t k = i + 1; k < close; ++k)
      if (!(is_alpha(s[k]) || is_digit(s[k]) || s[k] == ',' || s[k] == ' '))
        return false;
    i = close + 1;
  }
  while (i < s.size() && s[i] == '\'')
    ++i;
  return trim_gaps(s.substr(i)).empty();
}

/// Numbers and operators only ("28 + 32", "5 \times 6 \times 4"): the
/// middle of an "=" chain whose last value is the answer.
bool is_numeric_arithmetic(std::string_view s) {
  s = trim_gaps(s);
  if (s.empty())
    return false;
  bool any_digit = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (is_digit(c)) {
      any_digit = true;
      continue;
    }
    if (c == '\\') {
      std::size_t st = ++i;
      while (i < s.size() && is_alpha(s[i]))
        ++i;
      auto name = s.substr(st, i - st);
      if (name != "times" && name != "cdot" && name != "div" && name != "frac")
        return false;
      --i;
      continue;
    }
    if (is_gap(c) || c == '.' || c == ',' || c == '+' || c == '-' || c == '*'
        || c == '/' || c == '^' || c == '(' || c == ')' || c == '{' || c == '}'
        || c == '%')
      continue;
    return false;
  }
  return any_digit;
}

/// Positions of top-level '=' and "\approx" (outside braces and brackets).
struct chain_split {
  std::vector<std::string_view> parts;
  bool last_is_approx = false;
};

chain_split split_chain(std::string_view s) {
  chain_split out;
  int depth = 0;
  std::size_t start = 0;
  bool approx = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '{' || c == '(' || c == '[')
      ++depth;
    else if (c == '}' || c == ')' || c == ']')
      --depth;
    else if (depth == 0 && c == '=') {
      out.parts.push_back(s.substr(start, i - start));
      start = i + 1;
      approx = false;
    } else if (depth == 0 && c == '\\' && s.substr(i, 7) == "\\approx"
               && !(i + 7 < s.size() && is_alpha(s[i + 7]))) {
      out.parts.push_back(s.substr(start, i - start));
      start = i + 7;
      approx = true;
      i += 6;
    }
  }
  out.parts.push_back(s.substr(start));
  out.last_is_approx = approx;
  return out;
}

std::optional<number_reading> read_single(std::string_view s) {
  s = strip_punctuation(s);
  if (s.empty())
    return std::nullopt;
  bool approx = false;
  // "about 5", "approximately 0.58".
  static constexpr std::array<std::string_view, 6> approx_words{
    "approximately ", "approx. ", "approx ", "about ", "roughly ", "around "};
  for (std::string_view w : approx_words) {
    if (s.size() > w.size()) {
      bool match = true;
      for (std::size_t k = 0; k < w.size() && match; ++k)
        match = lower(s[k]) == w[k];
      if (match) {
        s = trim_gaps(s.substr(w.size()));
        approx = true;
        break;
      }
    }
  }
  auto r = scan_number(s);
  if (!r) {
    bool has_letter = std::any_of(s.begin(), s.end(), is_alpha);
    if (has_letter && s.find('\\') == std::string_view::npos)
      r = read_words(s);
  }
  if (!r)
    if (auto digits = cjk_numeral_digits(s)) // 三百二十
      r = scan_number(*digits);
  if (!r)
    if (auto fraction = cjk_fraction_text(s)) // 三分之二, 百分之五十
      r = read_single(*fraction);
  if (r && approx)
    r->approximate = true;
  if (r && !std::isfinite(r->value))
    return std::nullopt;
  return r;
}

} // namespace

std::optional<number_reading> read_number(std::string_view answer) {
  if (answer.size() > 4096)
    return std::nullopt; // a final answer, not a text
  // Groups and fraction arguments are read recursively: one number never
  // nests deeper than a few levels, and a hostile "((((...5...))))" must
  // not exhaust the stack.
  thread_local int depth = 0;
  if (depth >= 8)
    return std::nullopt;
  struct depth_guard {
    int& d;
    explicit depth_guard(int& x) : d(x) { ++d; }
    ~depth_guard() { --d; }
  } guard{depth};
  std::string cleaned;
  std::string_view s = answer;
  if (needs_cleaning(answer)) {
    cleaned = clean_answer(answer);
    s = cleaned;
  }
  s = strip_punctuation(s);
  if (s.find('=') == std::string_view::npos
      && s.find("\\approx") == std::string_view::npos)
    return read_single(s); // no chain: the common case, no split
  auto chain = split_chain(s);
  if (chain.parts.size() == 1)
    return read_single(s);
  // "x = 5", "28 + 32 = 60", "z = 1 + 1 = 2", "x \approx 11": the last
  // value counts when what comes before is a name or plain arithmetic.
  const auto& parts = chain.parts;
  auto first = trim_gaps(parts.front());
  const bool reversed = parts.size() == 2 && is_simple_name(parts.back());
  if (!first.empty() && !is_simple_name(first) && !is_numeric_arithmetic(first)
      && !reversed)
    return std::nullopt;
  for (std::size_t k = 1; k + 1 < parts.size(); ++k)
    if (!is_numeric_arithmetic(parts[k]))
      return std::nullopt;
  const auto before_last = trim_gaps(parts[parts.size() - 2]);
  if (chain.last_is_approx && !is_simple_name(before_last))
    if (auto exact = read_single(before_last))
      return exact; // "\frac{1}{3} \approx 0.33": the exact value is the answer
  if (parts.size() == 2 && is_simple_name(parts.back()))
    return read_single(first); // "5 = x": an assignment written the other way
  auto r = read_single(parts.back());
  if (r && chain.last_is_approx)
    r->approximate = true;
  return r;
}

} // namespace ij
