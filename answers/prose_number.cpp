#include "answers/prose_number.hpp"

#include <algorithm>
#include <array>

#include "answers/cjk_numerals.hpp"
#include "answers/cleaning.hpp"
#include "answers/number_reader.hpp"
#include "answers/prose.hpp"
#include "answers/units.hpp"
#include "core/text.hpp"

namespace ij {

namespace {

using text::is_alpha;
using text::is_digit;
using text::is_space;
using text::trim;

struct number_token {
  std::size_t begin, end;
};

/// Every number token: digits with , . / inside, vulgar fractions, a
/// leading unary minus, a trailing % or \%.
std::optional<number_token> last_number_token(std::string_view s) {
  std::optional<number_token> last;
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    bool starts = is_digit(s[i]) || vulgar_fraction_length(s, i)
                  || (s[i] == '.' && i + 1 < n && is_digit(s[i + 1])
                      && !(i > 0 && is_digit(s[i - 1])));
    if (!starts) {
      ++i;
      continue;
    }
    std::size_t b = i;
    std::size_t digits_run = 0; // digits since the token or its last gap
    bool plain = true;          // digits and thousands gaps only so far
    while (i < n) {
      if (is_digit(s[i])) {
        ++i;
        ++digits_run;
      } else if (s[i] == ' ' && plain && digits_run >= 1 && digits_run <= 3
                 && i + 3 < n && is_digit(s[i + 1]) && is_digit(s[i + 2])
                 && is_digit(s[i + 3])
                 && (i + 4 >= n
                     || !(is_digit(s[i + 4]) || s[i + 4] == '/'
                          || s[i + 4] == '.'))) {
        i += 4; // "1 000 000": thousands grouped by spaces
        digits_run = 3;
      } else if (auto v = vulgar_fraction_length(s, i)) {
        i += v;
      } else if ((s[i] == ',' || s[i] == '.' || s[i] == '/') && i + 1 < n
                 && is_digit(s[i + 1])) {
        ++i;
        plain = false;
      } else {
        break;
      }
    }
    std::size_t e = i;
    if (e < n && s[e] == '%')
      ++e;
    else if (e + 1 < n && s[e] == '\\' && s[e + 1] == '%')
      e += 2;
    // A unary minus: "-½", "−5" at a word start.
    if (b > 0 && s[b - 1] == '-'
        && (b == 1 || is_space(s[b - 2]) || s[b - 2] == '$' || s[b - 2] == '('))
      --b;
    else if (b >= 3 && s.substr(b - 3, 3) == "\xE2\x88\x92")
      b -= 3;
    last = number_token{b, e};
    i = e;
  }
  return last;
}

/// Code is not prose: a payload such as "f() or 0" is never read.
bool looks_like_code(std::string_view s) {
  static constexpr std::array<std::string_view, 8> code_marks{
    "()", "__", "lambda", "import ", "');", "')", "=>", "def "};
  for (std::string_view code : code_marks)
    if (s.find(code) != std::string_view::npos)
      return true;
  return false;
}

/// A list or an alternative around the number (or its $...$ segment) at
/// `anchor`: "3 or 4", "$21,16$ or $11$", "2, 3", "3 to 5"; or a number
/// being set aside: "it is 6, not 5", "more than 5".
bool listed_or_set_aside(std::string_view s, std::size_t anchor) {
  for (std::string_view w : {"or", "and", "not", "than"})
    if (preceded_by(s, anchor, w))
      return true;
  // 或 (or), 和 / 与 / 及 (and), 、 (the enumeration comma).
  for (std::string_view w : {"\xE6\x88\x96", "\xE5\x92\x8C", "\xE4\xB8\x8E",
                             "\xE5\x8F\x8A", "\xE3\x80\x81"})
    if (preceded_by(s, anchor, w))
      return true;
  static constexpr std::array<std::string_view, 3> list_joints{",", ";", "to"};
  for (std::string_view sep : list_joints) {
    if (preceded_by(s, anchor, sep)) {
      std::size_t p = back_skip(s, anchor);
      p = back_skip(s, p - sep.size());
      if (p > 0 && (is_digit(s[p - 1]) || s[p - 1] == '%'))
        return true;
    }
  }
  return false;
}

/// The number is inside $...$: the segment is the candidate, or the value
/// after its last top-level '=' ("... = \frac{10}{9}").
std::optional<std::string_view> segment_value(std::string_view seg) {
  if (read_number(seg))
    return seg;
  int depth = 0;
  std::size_t eq = std::string_view::npos;
  for (std::size_t k = 0; k < seg.size(); ++k) {
    if (seg[k] == '{' || seg[k] == '(')
      ++depth;
    else if (seg[k] == '}' || seg[k] == ')')
      --depth;
    else if (seg[k] == '=' && depth == 0)
      eq = k;
  }
  if (eq != std::string_view::npos) {
    auto tail = trim(seg.substr(eq + 1));
    if (read_number(tail))
      return tail;
  }
  return std::nullopt;
}

/// Inside parentheses: an argument ("sqrt(2)", "f(x, 2)") or an aside
/// ("(since 5^2 = 25)"); or after a choice label ("(B) 4"), one of a list
/// of options.
bool in_parentheses_or_choice(std::string_view s, std::size_t begin) {
  int parens = 0;
  for (std::size_t k = 0; k < begin; ++k) {
    if (s[k] == '(')
      ++parens;
    else if (s[k] == ')' && parens > 0)
      --parens;
  }
  if (parens > 0)
    return true;
  std::size_t p = back_skip(s, begin);
  return p >= 3 && s[p - 1] == ')' && is_alpha(s[p - 2])
         && (s[p - 3] == '(' || is_space(s[p - 3]));
}

/// An operand: after a relation or an operator, or a binary minus ("5 - 3")
/// unless the minus is the token's own sign.
bool after_operator(std::string_view s, std::size_t begin) {
  static constexpr std::array<std::string_view, 21> refusing_before{
    "<",
    ">",
    "\\le",
    "\\ge",
    "\\leq",
    "\\geq",
    "\\lt",
    "\\gt",
    "\\ne",
    "\\neq",
    "\xE2\x89\xA4",
    "\xE2\x89\xA5",
    "\\pm",
    "\xC2\xB1",
    "+",
    "*",
    "^",
    "/",
    "\\times",
    "\\cdot",
    "\xC3\x97"};
  for (auto w : refusing_before)
    if (preceded_by(s, begin, w))
      return true;
  // A ratio's second term: "3:4".
  if (begin >= 2 && s[begin - 1] == ':' && is_digit(s[begin - 2]))
    return true;
  return s[begin] != '-' && preceded_by(s, begin, "-");
}

/// A command argument ("\sqrt{2}", "x_{3}"), but not a box or text.
bool command_argument(std::string_view s, std::size_t begin) {
  if (!preceded_by(s, begin, "{"))
    return false;
  std::size_t p = back_skip(s, begin) - 1;
  std::size_t k = p;
  while (k > 0 && is_alpha(s[k - 1]))
    --k;
  auto name = s.substr(k, p - k);
  return !(k > 0 && s[k - 1] == '\\'
           && (name == "boxed" || name == "text" || name == "textbf"
               || name == "mathbf" || name == "mathrm"
               || name == "textnormal"));
}

/// A variable, an operator or an exponent glued to the number ("2x",
/// "2^n", "1/x"); one-letter
/// units ("5m", "3h") and degrees ("90^\circ") are not.
bool glued_after(std::string_view s, std::size_t e) {
  if (e < s.size() && is_alpha(s[e])) {
    std::size_t k = e;
    while (k < s.size() && is_alpha(s[k]))
      ++k;
    static constexpr std::array<char, 7> units{'m', 'g', 's', 'l',
                                               'h', 'k', 'L'};
    if (k - e == 1
        && std::find(units.begin(), units.end(), s[e]) == units.end())
      return true;
  }
  // An operand: "1/sqrt(x)", "2*pi", "2(x+1)".
  const bool bold = s.substr(e, 2) == "**"; // markdown, not a product
  if (e < s.size() && (s[e] == '/' || (s[e] == '*' && !bold) || s[e] == '('))
    return true;
  return e < s.size() && s[e] == '^'
         && !(s.substr(e, 6) == "^\\circ" || s.substr(e, 7) == "^{\\circ");
}

/// The end of the brace group opening at `open` ('{'), or npos.
std::size_t group_end(std::string_view s, std::size_t open) {
  if (open >= s.size() || s[open] != '{')
    return std::string_view::npos;
  int depth = 0;
  for (std::size_t k = open; k < s.size() && k < open + 256; ++k) {
    if (s[k] == '{')
      ++depth;
    else if (s[k] == '}' && --depth == 0)
      return k + 1;
  }
  return std::string_view::npos;
}

/// "\frac{1}{6}" (\dfrac, \tfrac) in prose around `pos`: the whole command,
/// with a leading unary minus ("The slope is -\frac{1}{2}.").
std::optional<number_token> fraction_around(std::string_view s,
                                            std::size_t pos) {
  const std::size_t from = pos > 64 ? pos - 64 : 0;
  for (std::size_t k = pos; k-- > from;) {
    if (s[k] != '\\')
      continue;
    std::size_t name_end = k + 1;
    while (name_end < s.size() && is_alpha(s[name_end]))
      ++name_end;
    const auto name = s.substr(k + 1, name_end - k - 1);
    if (name != "frac" && name != "dfrac" && name != "tfrac")
      return std::nullopt;
    const std::size_t mid = group_end(s, name_end);
    const std::size_t end =
      mid == std::string_view::npos ? mid : group_end(s, mid);
    if (end == std::string_view::npos || pos >= end)
      return std::nullopt;
    std::size_t b = k;
    if (b > 0 && s[b - 1] == '-' && (b == 1 || is_space(s[b - 2])))
      --b;
    return number_token{b, end};
  }
  return std::nullopt;
}

/// The position where the sentence holding `pos` starts: after the last
/// ". ", "! ", "? ", ": " or line break before it.
std::size_t sentence_start(std::string_view s, std::size_t pos) {
  for (std::size_t k = pos; k-- > 0;) {
    if (s[k] == '\n')
      return k + 1;
    // "i.e. ", "e.g. " end no sentence.
    const bool abbreviation =
      s[k] == '.' && k >= 2 && is_alpha(s[k - 1]) && s[k - 2] == '.';
    if ((s[k] == '.' || s[k] == '!' || s[k] == '?' || s[k] == ';')
        && k + 1 < s.size() && is_space(s[k + 1]) && !abbreviation)
      return k + 1;
  }
  return 0;
}

} // namespace

/// The sentence states the value again in another unit of the same kind
/// before it: "45 minutes in total, which is 3/4 of an hour".
bool restated_in_another_unit(std::string_view s, std::size_t from,
                              std::size_t at, std::size_t end) {
  const auto last_unit = unit_after(s, end);
  if (last_unit.empty())
    return false;
  for (std::size_t k = from; k < at; ++k) {
    if (!is_digit(s[k]))
      continue;
    std::size_t e = k;
    while (e < at
           && (is_digit(s[e]) || s[e] == '.' || s[e] == ',' || s[e] == '/'))
      ++e;
    if (other_unit_of_a_kind(unit_after(s, e), last_unit))
      return true;
    k = e;
  }
  return false;
}

bool prose_number_is_ambiguous(std::string_view s, std::string_view number) {
  if (number.data() < s.data() || number.data() > s.data() + s.size())
    return false;
  const std::size_t at = static_cast<std::size_t>(number.data() - s.data());
  if (restated_in_another_unit(s, sentence_start(s, at), at,
                               at + number.size()))
    return true;
  // The grammar says it: "is 12", "= 12", "equals 12", "gives 12".
  static constexpr std::array<std::string_view, 20> marks{
    "=",
    "is",
    "are",
    "was",
    "were",
    "be",
    "equals",
    "equal",
    "gives",
    "get",
    "gets",
    "makes",
    ":",
    "\\approx",
    "\xE6\x98\xAF",
    "\xE4\xB8\xBA",
    "\xE6\x9C\x89", // 是 为 有
    "\xE7\xAD\x89\xE4\xBA\x8E",
    "\xE5\xBE\x97",  // 等于 得
    "\xEF\xBC\x9A"}; // ：
  for (auto w : marks)
    if (preceded_by(s, at, w))
      return false;
  const std::size_t from = sentence_start(s, at);
  for (std::size_t k = from; k < at; ++k)
    if (is_digit(s[k]) || vulgar_fraction_length(s, k))
      return true; // another value in the same sentence
  return false;
}

std::optional<std::string_view> last_number_in_prose(std::string_view s) {
  if (looks_like_code(s))
    return std::nullopt;
  auto tok = last_number_token(s);
  if (!tok)
    return std::nullopt;
  if (!segment_holding(math_segments(s), tok->begin))
    if (auto f = fraction_around(s, tok->begin)) {
      // A fraction written in LaTeX in the sentence: the answer when
      // nothing around it says otherwise ("The probability is \frac{1}{6}.").
      if (listed_or_set_aside(s, f->begin) || after_operator(s, f->begin)
          || in_parentheses_or_choice(s, f->begin) || glued_after(s, f->end))
        return std::nullopt;
      return s.substr(f->begin, f->end - f->begin);
    }
  auto segs = math_segments(s);
  const segment* g = segment_holding(segs, tok->begin);
  const std::size_t anchor = g ? g->begin - 1 : tok->begin;
  if (listed_or_set_aside(s, anchor))
    return std::nullopt;
  if (g)
    return segment_value(s.substr(g->begin, g->end - g->begin));
  if (in_parentheses_or_choice(s, tok->begin) || after_operator(s, tok->begin)
      || command_argument(s, tok->begin) || glued_after(s, tok->end))
    return std::nullopt;
  return s.substr(tok->begin, tok->end - tok->begin);
}

namespace {

/// A digit, a vulgar fraction or a CJK numeral character at `k`: a value
/// of its own (full-width digits are mapped before the finder runs).
std::size_t value_char_at(std::string_view s, std::size_t k) {
  if (is_digit(s[k]))
    return 1;
  if (auto v = vulgar_fraction_length(s, k))
    return v;
  if (text::is_non_ascii(s[k]) && k + 3 <= s.size()
      && is_cjk_numeral_run(s.substr(k, 3)))
    return 3;
  return 0;
}

/// No other value in `s` than the one in [at, end).
bool only_value(std::string_view s, std::size_t at, std::size_t end) {
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (k == at) {
      k = end - 1;
      continue;
    }
    if (value_char_at(s, k))
      return false;
  }
  return true;
}

// Words that open a concluding clause, in the languages the answer
// markers cover (answer_phrase.cpp); ASCII ones as whole words.
constexpr std::array<std::string_view, 33> conclusion_words{
  "so",
  "thus",
  "therefore",
  "hence",
  "consequently",
  "\\therefore",
  "\xE6\x89\x80\xE4\xBB\xA5",                                     // 所以
  "\xE5\x9B\xA0\xE6\xAD\xA4",                                     // 因此
  "\xE6\x95\x85",                                                 // 故
  "\xE4\xBB\x8E\xE8\x80\x8C",                                     // 从而
  "\xE4\xBA\x8E\xE6\x98\xAF",                                     // 于是
  "\xE7\xBB\xBC\xE4\xB8\x8A",                                     // 综上
  "\xE3\x82\x88\xE3\x81\xA3\xE3\x81\xA6",                         // よって
  "\xE3\x81\x97\xE3\x81\x9F\xE3\x81\x8C\xE3\x81\xA3\xE3\x81\xA6", // したがって
  "\xE3\x82\x86\xE3\x81\x88\xE3\x81\xAB",                         // ゆえに
  "\xEB\x94\xB0\xEB\x9D\xBC\xEC\x84\x9C",                         // 따라서
  "\xEA\xB7\xB8\xEB\x9F\xAC\xEB\xAF\x80\xEB\xA1\x9C",         // 그러므로
  "\xD0\xBF\xD0\xBE\xD1\x8D\xD1\x82\xD0\xBE\xD0\xBC\xD1\x83", // поэтому
  "\xD1\x81\xD0\xBB\xD0\xB5\xD0\xB4\xD0\xBE\xD0\xB2\xD0\xB0\xD1\x82\xD0"
  "\xB5\xD0\xBB\xD1\x8C\xD0\xBD\xD0\xBE", // следовательно
  "\xD0\xB8\xD1\x82\xD0\xB0\xD0\xBA",     // итак
  "donc",
  "ainsi",
  "somit",
  "daher",
  "folglich",
  "entonces",
  "portanto",
  "logo",
  "quindi",
  "dunque",
  "perci\xC3\xB2",       // perciò
  "v\xE1\xBA\xADy",      // vậy
  "do \xC4\x91\xC3\xB3", // do đó
};

/// The conclusion word that starts at `k` and ends by `to` (ASCII words
/// case-insensitively and whole); empty when none does.
std::string_view conclusion_word_at(std::string_view s, std::size_t k,
                                    std::size_t to) {
  // Most bytes start no conclusion word: one look-up rules them out.
  static const auto first_bytes = [] {
    std::array<bool, 256> t{};
    for (auto w : conclusion_words) {
      t[static_cast<unsigned char>(w.front())] = true;
      t[static_cast<unsigned char>(text::upper(w.front()))] = true;
    }
    return t;
  }();
  if (!first_bytes[static_cast<unsigned char>(s[k])])
    return {};
  for (auto w : conclusion_words) {
    const bool ascii = is_alpha(w.front());
    if (k + w.size() > to
        || (ascii ? !text::iequal_at(s, k, w) : s.substr(k, w.size()) != w))
      continue;
    if (ascii
        && ((k > 0 && is_alpha(s[k - 1]))
            || (k + w.size() < s.size() && is_alpha(s[k + w.size()]))))
      continue;
    return w;
  }
  return {};
}

/// Where the last conclusion word in [from, to) ends; npos when there is
/// none.
std::size_t last_conclusion_end(std::string_view s, std::size_t from,
                                std::size_t to) {
  for (std::size_t k = to; k-- > from;)
    if (auto w = conclusion_word_at(s, k, to); !w.empty())
      return k + w.size();
  return std::string_view::npos;
}

bool conclusion_word_in(std::string_view s, std::size_t from, std::size_t to) {
  return last_conclusion_end(s, from, to) != std::string_view::npos;
}

/// The start of the arithmetic chain "8 \times 9 =" ending right before
/// `pos` (digits, operators, groups, \times \cdot \div \frac, '$'), or
/// `pos` when no '=' stands right before it.
std::size_t chain_start(std::string_view s, std::size_t pos) {
  std::size_t k = back_skip(s, pos);
  if (k == 0 || s[k - 1] != '=')
    return pos;
  static constexpr std::string_view chain_chars = "0123456789 +-*/^(){}.,=$";
  static constexpr std::array<std::string_view, 7> commands{
    "times", "cdot", "div", "frac", "dfrac", "left", "right"};
  while (k > 0) {
    if (chain_chars.find(s[k - 1]) != std::string_view::npos) {
      --k;
      continue;
    }
    std::size_t w = k;
    while (w > 0 && is_alpha(s[w - 1]))
      --w;
    if (w < k && w > 0 && s[w - 1] == '\\'
        && std::find(commands.begin(), commands.end(), s.substr(w, k - w))
             != commands.end()) {
      k = w - 1;
      continue;
    }
    break;
  }
  return k;
}

/// [from, to) holds a value: a digit, a CJK numeral, or a math segment
/// with a letter or digit in it ("$E$", "$x$").
bool holds_value(std::string_view s, std::size_t from, std::size_t to) {
  for (std::size_t k = from; k < to; ++k)
    if (value_char_at(s, k))
      return true;
  for (const auto& g : math_segments(s)) {
    const std::size_t b = std::max(g.begin, from), e = std::min(g.end, to);
    for (std::size_t k = b; k < e; ++k)
      if (is_alpha(s[k]))
        return true;
  }
  return false;
}

/// A conclusion word right before `pos` (spaces, '$', '*' and a comma
/// between them).
bool conclusion_word_before(std::string_view s, std::size_t pos) {
  pos = back_skip(s, pos);
  while (pos > 0 && s[pos - 1] == ',')
    pos = back_skip(s, pos - 1);
  for (auto w : conclusion_words) {
    if (pos < w.size())
      continue;
    const std::size_t k = pos - w.size();
    if (is_alpha(w.front())
          ? text::iequal_at(s, k, w) && !(k > 0 && is_alpha(s[k - 1]))
          : s.substr(k, w.size()) == w)
      return true;
  }
  return false;
}

/// Nothing but a unit and punctuation after `end`: up to three words of
/// letters ("apples in total"), a \text{} group, or up to four characters
/// of another script (个, 千克, 个苹果), bare or in brackets ("（台）").
bool ends_the_text(std::string_view s, std::size_t end) {
  std::size_t k = end;
  auto skip = [&](std::string_view chars) {
    while (k < s.size() && chars.find(s[k]) != std::string_view::npos)
      ++k;
  };
  skip(" $*`");
  if (s.substr(k, 6) == "\\text{" || s.substr(k, 8) == "\\mathrm{") {
    const auto close = s.find('}', k);
    if (close == std::string_view::npos || close - k > 30)
      return false;
    k = close + 1;
  } else if (k < s.size() && is_alpha(s[k])) {
    for (int words = 0; words < 3 && k < s.size() && is_alpha(s[k]); ++words) {
      const std::size_t b = k;
      while (k < s.size() && is_alpha(s[k]))
        ++k;
      if (k - b > 20)
        return false;
      skip(" ");
    }
  } else {
    const bool ascii_bracket = k < s.size() && s[k] == '(';
    const bool bracket = ascii_bracket || s.substr(k, 3) == "\xEF\xBC\x88";
    k += ascii_bracket ? 1 : bracket ? 3 : 0;
    const std::size_t b = k;
    while (k < s.size() && text::is_non_ascii(s[k]) && k - b < 12
           && s.substr(k, 3) != "\xEF\xBC\x89"
           && s.substr(k, 3) != "\xE3\x80\x82")
      ++k;
    // A unit may hold a numeral (千克, 千米), but is not one (万: 12万).
    if (k > b && is_cjk_numeral_run(s.substr(b, k - b)))
      return false;
    if (bracket) {
      if (s.substr(k, 3) == "\xEF\xBC\x89")
        k += 3;
      else if (k < s.size() && s[k] == ')')
        ++k;
      else
        return false;
    }
  }
  skip(" $*`.!)\\]");
  while (s.substr(k, 3) == "\xE3\x80\x82") { // "。"
    k += 3;
    skip(" $*`");
  }
  return k >= s.size();
}

} // namespace

answer_locator prose_value_locator(std::string_view s, std::string_view value) {
  if (value.empty() || value.data() < s.data()
      || value.data() + value.size() > s.data() + s.size())
    return answer_locator::last_number;
  const std::size_t at = static_cast<std::size_t>(value.data() - s.data());
  const std::size_t end = at + value.size();
  if (in_parentheses_or_choice(s, at))
    return answer_locator::last_number; // "（0除外）": an aside
  // The only value, unless a conclusion after it says something else
  // ("...是360的倍数，因此选C").
  if (only_value(s, at, end) && !conclusion_word_in(s, end, s.size()))
    return answer_locator::only_value;
  // The clause's value: the grammar marks it ("= 12", "is 12"), or the
  // conclusion word stands right before it ("so 25 apples in total").
  const bool marked =
    !prose_number_is_ambiguous(s, value) || conclusion_word_before(s, at);
  // The conclusion holds this value alone, its arithmetic aside ("so 8
  // \times 9 = 72"): not "所以第2004个数和第6个相同为6", not "so the first
  // is E, ..., the fifth is D".
  const auto opened = last_conclusion_end(s, sentence_start(s, at), at);
  if (ends_the_text(s, end) && marked && opened != std::string_view::npos
      && !holds_value(s, opened, chain_start(s, at)))
    return answer_locator::conclusion;
  return answer_locator::last_number;
}

} // namespace ij
