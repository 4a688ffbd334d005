#include "core/final_answer.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace ij {

namespace {

// Plain scanning over the raw text: no regex, no copies; the views returned
// point into the caller's text.

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
         || c == '\v';
}
char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && is_space(s.back()))
    s.remove_suffix(1);
  return s;
}

bool iequal_at(std::string_view s, std::size_t i, std::string_view word) {
  if (i + word.size() > s.size())
    return false;
  for (std::size_t k = 0; k < word.size(); ++k)
    if (lower(s[i + k]) != word[k])
      return false;
  return true;
}

/// Length of the UTF-8 vulgar fraction (½, ⅓, ...) at i, 0 if none.
std::size_t vulgar_at(std::string_view s, std::size_t i) {
  auto u = [&](std::size_t k) {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u;
  };
  if (u(0) == 0xC2 && u(1) >= 0xBC && u(1) <= 0xBE)
    return 2;
  if (u(0) == 0xE2 && u(1) == 0x85 && u(2) >= 0x93 && u(2) <= 0x9E)
    return 3;
  return 0;
}

// ------------------------------------------------------------- math mode

/// [begin, end) of the content of each $...$, $$...$$, \(...\), \[...\].
struct segment {
  std::size_t begin, end;
};

std::vector<segment> math_segments(std::string_view s) {
  std::vector<segment> out;
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\\') {
      i += 2; // "\\" line break, or a doubled backslash: never a delimiter
      continue;
    }
    std::string_view close;
    std::size_t open_len = 0;
    if (s[i] == '\\' && i + 1 < n && (s[i + 1] == '(' || s[i + 1] == '[')) {
      close = s[i + 1] == '(' ? "\\)" : "\\]";
      open_len = 2;
    } else if (s[i] == '\\' && i + 1 < n && s[i + 1] == '$') {
      i += 2;
      continue;
    } else if (s[i] == '$') {
      bool display = i + 1 < n && s[i + 1] == '$';
      close = display ? "$$" : "$";
      open_len = display ? 2 : 1;
    } else {
      ++i;
      continue;
    }
    std::size_t b = i + open_len;
    std::size_t k = b;
    std::size_t found = std::string_view::npos;
    while (k < n) {
      if (s[k] == '\\' && k + 1 < n && s[k + 1] == '$') {
        k += 2;
        continue;
      }
      if (s.substr(k, close.size()) == close) {
        found = k;
        break;
      }
      ++k;
    }
    if (found == std::string_view::npos) {
      // An unclosed delimiter: math runs to the end of the text.
      out.push_back({b, n});
      break;
    }
    out.push_back({b, found});
    i = found + close.size();
  }
  return out;
}

const segment* segment_holding(const std::vector<segment>& segs,
                               std::size_t pos) {
  for (const auto& g : segs)
    if (pos >= g.begin && pos < g.end)
      return &g;
  return nullptr;
}

// ------------------------------------------------------------- prose

/// Prose has at least two words outside math (or one beside a $...$
/// segment, or one of four letters or more): runs of two or more ASCII
/// letters not starting a command, or runs of letters of other scripts.
bool is_prose(std::string_view s, bool strict = false) {
  auto segs = math_segments(s);
  int words = 0;
  std::size_t i = 0;
  const std::size_t n = s.size();
  int depth = 0; // words in braces are command arguments, not prose
  bool long_word = false;
  std::size_t next = 0; // segments are in text order: walk them along
  while (i < n && words < 2) {
    while (next < segs.size() && segs[next].end <= i)
      ++next;
    if (next < segs.size() && i >= segs[next].begin) {
      i = segs[next].end + 1;
      continue;
    }
    if (s[i] == '{')
      ++depth;
    else if (s[i] == '}' && depth > 0)
      --depth;
    if (depth > 0) {
      ++i;
      continue;
    }
    if (is_alpha(s[i])) {
      std::size_t st = i;
      while (i < n && is_alpha(s[i]))
        ++i;
      bool command = st > 0 && s[st - 1] == '\\';
      if (!command && i - st >= 2) {
        ++words;
        long_word = long_word || i - st >= 4;
      }
      continue;
    }
    if (static_cast<unsigned char>(s[i]) >= 0x80 && vulgar_at(s, i) == 0) {
      std::size_t st = i;
      while (i < n && static_cast<unsigned char>(s[i]) >= 0x80
             && vulgar_at(s, i) == 0)
        ++i;
      // Two CJK characters make a word; a lone symbol (°, −, ×) does not.
      if (i - st >= 6)
        words += 2;
      else if (i - st >= 4)
        ++words;
      continue;
    }
    ++i;
  }
  // One word beside math ("Therefore, $x = 5$."), or one long word
  // ("Therefore, x = 5."), is a sentence too; "odd $n$" or "3 and 5" is not.
  return words >= 2
         || (!strict && words == 1 && (!segs.empty() || long_word));
}

// ------------------------------------------------------------- boxed

struct boxed_span {
  std::size_t start; // of the command
  std::size_t end;   // past the closing brace
  std::string_view content;
};

std::vector<boxed_span> boxed_answers(std::string_view s) {
  std::vector<boxed_span> out;
  std::size_t from = 0;
  for (;;) {
    std::size_t a = s.find("\\boxed", from);
    std::size_t b = s.find("\\fbox", from);
    std::size_t at = std::min(a, b);
    if (at == std::string_view::npos)
      break;
    std::size_t name_len = at == a ? 6 : 5;
    std::size_t i = at + name_len;
    from = i;
    if (i < s.size() && is_alpha(s[i]))
      continue; // "\boxedx": another command
    while (i < s.size() && s[i] == ' ')
      ++i;
    if (i < s.size() && s[i] == '{') {
      int depth = 0;
      std::size_t k = i;
      for (; k < s.size(); ++k) {
        if (s[k] == '\\' && k + 1 < s.size()) {
          ++k; // "\{" and "\}" do not nest
          continue;
        }
        if (s[k] == '{')
          ++depth;
        else if (s[k] == '}' && --depth == 0)
          break;
      }
      if (k >= s.size()) { // unbalanced: take the rest
        out.push_back({at, s.size(), s.substr(i + 1)});
        break;
      }
      out.push_back({at, k + 1, s.substr(i + 1, k - i - 1)});
      from = k + 1;
    } else {
      // "\boxed 4": the next token.
      std::size_t k = i;
      while (k < s.size() && !is_space(s[k]) && s[k] != '$')
        ++k;
      if (k > i)
        out.push_back({at, k, s.substr(i, k - i)});
      from = k;
    }
  }
  return out;
}

/// Only separators between two boxes: they list parts of one answer.
bool is_list_gap(std::string_view gap) {
  std::size_t i = 0;
  while (i < gap.size()) {
    char c = gap[i];
    if (is_space(c) || c == ',' || c == ';' || c == '$' || c == '&'
        || c == '{' || c == '}' || c == '~') {
      ++i;
      continue;
    }
    if (c == '\\') {
      std::size_t k = i + 1;
      while (k < gap.size() && is_alpha(gap[k]))
        ++k;
      auto name = gap.substr(i + 1, k - i - 1);
      if (name.empty() && k < gap.size())
        ++k; // "\\", "\,", "\;"
      else if (!(name == "quad" || name == "qquad" || name == "text"
                 || name == "textrm" || name == "mathrm" || name.empty()))
        return false;
      i = k;
      continue;
    }
    if (iequal_at(gap, i, "and") || iequal_at(gap, i, "or")) {
      i += iequal_at(gap, i, "and") ? 3 : 2;
      continue;
    }
    return false;
  }
  return true;
}

// ------------------------------------------------------------- phrases

/// The answer span after an "answer" phrase starting at `after`; empty when
/// the phrase is not followed by an answer.
std::string_view phrase_span(std::string_view s, std::size_t after) {
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
  } else if (iequal_at(s, i, "is") && !(i + 2 < n && is_alpha(s[i + 2]))) {
    i += 2;
    introduced = true;
    skip_markup();
    if (i < n && s[i] == ':')
      ++i;
  } else if (iequal_at(s, i, "would be") || iequal_at(s, i, "will be")) {
    i += 8;
    introduced = true;
  }
  // Skip markup and line breaks before the value.
  while (i < n && (is_space(s[i]) || s[i] == '*' || s[i] == '#'))
    ++i;
  if (i >= n)
    return {};
  if (!introduced) {
    // "Answer \[ 9 \]", "answer 2½": only a value may follow directly.
    char c = s[i];
    if (!(c == '$' || c == '\\' || is_digit(c) || c == '-' || c == '+'
          || vulgar_at(s, i) || static_cast<unsigned char>(c) == 0xE2))
      return {};
  }
  const std::size_t start = i;
  // To the end of the sentence, outside math and braces.
  int depth = 0;
  bool in_math = false;
  std::string_view close;
  std::size_t k = start;
  const std::size_t limit = std::min(n, start + 600);
  for (; k < limit; ++k) {
    char c = s[k];
    if (in_math) {
      if (c == '\\' && k + 1 < n && s[k + 1] == '$') {
        ++k;
        continue;
      }
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
    if (c == '\\' && k + 1 < n && s[k + 1] == '$') {
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
    if (depth > 0)
      continue;
    if (c == '\n')
      break;
    if ((c == '.' || c == '!' || c == '?')
        && (k + 1 >= n || is_space(s[k + 1]) || s[k + 1] == '*'))
      break;
    if (c == ',' && k + 2 < n && s[k + 1] == ' ' && is_alpha(s[k + 2]))
      break; // "12, because ..."
    if (static_cast<unsigned char>(c) == 0xE3 && s.substr(k, 3) == "\xE3\x80\x82")
      break; // "。"
  }
  auto span = trim(s.substr(start, k - start));
  while (!span.empty() && (span.back() == '*' || span.back() == '.'))
    span.remove_suffix(1);
  return trim(span);
}

/// The span after the last "answer" phrase that has one; npos start when
/// none.
struct phrase_hit {
  std::size_t at = std::string_view::npos;
  std::string_view span;
};

phrase_hit last_answer_phrase(std::string_view s) {
  phrase_hit hit;
  std::size_t pos = s.size();
  while (pos > 0) {
    // Search backwards for "answer" case-insensitively.
    std::size_t found = std::string_view::npos;
    for (std::size_t k = pos; k-- > 0;) {
      if ((s[k] == 'a' || s[k] == 'A') && iequal_at(s, k, "answer")) {
        found = k;
        break;
      }
    }
    if (found == std::string_view::npos)
      break;
    pos = found;
    bool word_start = found == 0 || !is_alpha(s[found - 1]);
    bool word_end = found + 6 >= s.size() || !is_alpha(s[found + 6]);
    if (!word_start || !word_end)
      continue;
    auto span = phrase_span(s, found + 6);
    if (!span.empty()) {
      hit.at = found;
      hit.span = span;
      return hit;
    }
  }
  return hit;
}

// ------------------------------------------------------------- numbers

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
    bool starts = is_digit(s[i]) || vulgar_at(s, i)
                  || (s[i] == '.' && i + 1 < n && is_digit(s[i + 1])
                      && !(i > 0 && is_digit(s[i - 1])));
    if (!starts) {
      ++i;
      continue;
    }
    std::size_t b = i;
    while (i < n) {
      if (is_digit(s[i])) {
        ++i;
      } else if (auto v = vulgar_at(s, i)) {
        i += v;
      } else if ((s[i] == ',' || s[i] == '.' || s[i] == '/') && i + 1 < n
                 && is_digit(s[i + 1])) {
        ++i;
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
    if (b > 0 && s[b - 1] == '-' && (b == 1 || is_space(s[b - 2])
                                     || s[b - 2] == '$' || s[b - 2] == '('))
      --b;
    else if (b >= 3 && s.substr(b - 3, 3) == "\xE2\x88\x92")
      b -= 3;
    last = number_token{b, e};
    i = e;
  }
  return last;
}

/// The text before `pos`, spaces, '$' and '*' skipped, ends with `w`.
bool preceded_by(std::string_view s, std::size_t pos, std::string_view w) {
  while (pos > 0 && (is_space(s[pos - 1]) || s[pos - 1] == '$'
                     || s[pos - 1] == '*'))
    --pos;
  if (pos < w.size())
    return false;
  for (std::size_t k = 0; k < w.size(); ++k)
    if (lower(s[pos - w.size() + k]) != w[k])
      return false;
  // A word must start there.
  std::size_t st = pos - w.size();
  return !(is_alpha(w.front()) && st > 0 && is_alpha(s[st - 1]));
}

/// The position before `pos` with spaces, '$' and '*' skipped.
std::size_t back_skip(std::string_view s, std::size_t pos) {
  while (pos > 0 && (is_space(s[pos - 1]) || s[pos - 1] == '$'
                     || s[pos - 1] == '*'))
    --pos;
  return pos;
}

/// The last number of prose, refused when it sits in a list ("3 and 5",
/// "2, 3"), a relation ("x < 2") or an unevaluated expression ("3 + 4",
/// "2x", "2^n").
std::optional<std::string_view> last_number_in_prose(std::string_view s) {
  // Code is not prose: a payload such as "f() or 0" is never read.
  static constexpr std::array<std::string_view, 8> code_marks{
    "()", "__", "lambda", "import ", "');", "')", "=>", "def "};
  for (std::string_view code : code_marks)
    if (s.find(code) != std::string_view::npos)
      return std::nullopt;
  auto tok = last_number_token(s);
  if (!tok)
    return std::nullopt;
  auto segs = math_segments(s);
  const segment* g = segment_holding(segs, tok->begin);
  // A list or an alternative around the number or its $...$ segment:
  // "3 or 4", "$21,16$ or $11$", "f() or 0", "2, 3", "3 to 5".
  const std::size_t anchor = g ? g->begin - 1 : tok->begin;
  if (preceded_by(s, anchor, "or") || preceded_by(s, anchor, "and"))
    return std::nullopt;
  // A number being set aside: "it is 6, not 5", "more than 5".
  if (preceded_by(s, anchor, "not") || preceded_by(s, anchor, "than"))
    return std::nullopt;
  static constexpr std::array<std::string_view, 3> list_joints{",", ";", "to"};
  for (std::string_view sep : list_joints) {
    if (preceded_by(s, anchor, sep)) {
      std::size_t p = back_skip(s, anchor);
      p = back_skip(s, p - sep.size());
      if (p > 0 && (is_digit(s[p - 1]) || s[p - 1] == '%'))
        return std::nullopt;
    }
  }
  if (g) {
    // The number is inside $...$: the segment is the candidate, or the
    // value after its last top-level '=' ("... = \frac{10}{9}").
    auto seg = s.substr(g->begin, g->end - g->begin);
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
  // Inside parentheses: an argument ("sqrt(2)", "f(x, 2)") or an aside
  // ("(since 5^2 = 25)"), not the answer.
  {
    int parens = 0;
    for (std::size_t k = 0; k < tok->begin; ++k) {
      if (s[k] == '(')
        ++parens;
      else if (s[k] == ')' && parens > 0)
        --parens;
    }
    if (parens > 0)
      return std::nullopt;
  }
  // "(B) 4": a choice label, one of a list of options.
  {
    std::size_t p = back_skip(s, tok->begin);
    if (p >= 3 && s[p - 1] == ')' && is_alpha(s[p - 2])
        && (s[p - 3] == '(' || is_space(s[p - 3])))
      return std::nullopt;
  }
  // Context before the number.
  static constexpr std::array<std::string_view, 21> refusing_before{
    "<", ">", "\\le", "\\ge", "\\leq", "\\geq", "\\lt", "\\gt", "\\ne",
    "\\neq", "\xE2\x89\xA4", "\xE2\x89\xA5", "\\pm", "\xC2\xB1", "+", "*",
    "^", "/", "\\times", "\\cdot", "\xC3\x97"};
  for (auto w : refusing_before)
    if (preceded_by(s, tok->begin, w))
      return std::nullopt;
  // A binary minus ("5 - 3") unless the minus is the token's own sign.
  if (s[tok->begin] != '-' && preceded_by(s, tok->begin, "-"))
    return std::nullopt;
  // A command argument ("\sqrt{2}", "x_{3}"), but not a box or text.
  if (preceded_by(s, tok->begin, "{")) {
    std::size_t p = back_skip(s, tok->begin) - 1;
    std::size_t k = p;
    while (k > 0 && is_alpha(s[k - 1]))
      --k;
    auto name = s.substr(k, p - k);
    if (!(k > 0 && s[k - 1] == '\\'
          && (name == "boxed" || name == "text" || name == "textbf"
              || name == "mathbf" || name == "mathrm"
              || name == "textnormal")))
      return std::nullopt;
  }
  // Context after: a variable or an exponent glued to the number.
  std::size_t e = tok->end;
  if (e < s.size() && is_alpha(s[e])) {
    std::size_t k = e;
    while (k < s.size() && is_alpha(s[k]))
      ++k;
    static constexpr std::array<char, 7> units{'m', 'g', 's', 'l', 'h', 'k', 'L'};
    if (k - e == 1
        && std::find(units.begin(), units.end(), s[e]) == units.end())
      return std::nullopt;
  }
  if (e < s.size() && s[e] == '^'
      && !(s.substr(e, 6) == "^\\circ" || s.substr(e, 7) == "^{\\circ"))
    return std::nullopt;
  return s.substr(tok->begin, tok->end - tok->begin);
}

/// "12 since ...": a phrase span that opens with the number, followed by
/// words rather than operators.
std::optional<std::string_view> leading_number(std::string_view span) {
  std::size_t i = 0;
  while (i < span.size() && (is_space(span[i]) || span[i] == '$'
                             || span[i] == '*'))
    ++i;
  auto rest = span.substr(i);
  std::size_t k = 0;
  if (k < rest.size() && rest[k] == '-')
    ++k;
  if (!(k < rest.size() && (is_digit(rest[k]) || vulgar_at(rest, k))))
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
    "and", "or", "to", "through", "plus", "minus", "times", "over",
    "divided", "x", "i", "pi"};
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

} // namespace

namespace {

/// find_final_answer, keeping the reading when locating it needed one.
std::optional<final_answer> locate(std::string_view text,
                                   std::optional<number_reading>& reading) {
  auto boxes = boxed_answers(text);
  auto phrase = last_answer_phrase(text);

  const bool phrase_later =
    phrase.at != std::string_view::npos
    && (boxes.empty() || phrase.at > boxes.back().start);

  if (!boxes.empty() && !phrase_later) {
    // Boxes listed side by side are one multi-part answer: refused unless
    // they all say the same.
    std::size_t k = boxes.size() - 1;
    const auto last = trim(boxes[k].content);
    while (k > 0) {
      auto gap = text.substr(boxes[k - 1].end,
                             boxes[k].start - boxes[k - 1].end);
      if (!is_list_gap(gap))
        break;
      if (trim(boxes[k - 1].content) != last)
        return std::nullopt;
      --k;
    }
    return final_answer{last, answer_locator::boxed};
  }
  if (phrase.at != std::string_view::npos) {
    if ((reading = read_number(phrase.span)))
      return final_answer{phrase.span, answer_locator::answer_phrase};
    if (auto lead = leading_number(phrase.span))
      return final_answer{*lead, answer_locator::answer_phrase};
    // After a phrase, prose means a sentence ("The volume of $V$ is
    // 120"), not a label ("choices: (A) 3 (B) 4").
    if (is_prose(phrase.span, true)) {
      if (auto n = last_number_in_prose(phrase.span))
        return final_answer{*n, answer_locator::answer_phrase};
      return std::nullopt;
    }
    return final_answer{phrase.span, answer_locator::answer_phrase};
  }
  auto whole = trim(text);
  const bool prose = is_prose(whole);
  // Long prose is never one number (the longest number words stay well
  // under this): skip reading it whole.
  if (!(prose && whole.size() > 160) && (reading = read_number(whole)))
    return final_answer{whole, answer_locator::whole_text};
  if (!prose)
    return final_answer{whole, answer_locator::whole_text};
  if (auto n = last_number_in_prose(whole))
    return final_answer{*n, answer_locator::last_number};
  return std::nullopt;
}

} // namespace

std::optional<final_answer> find_final_answer(std::string_view text) {
  std::optional<number_reading> unused;
  return locate(text, unused);
}

std::optional<number_reading> read_final_number(std::string_view text) {
  std::optional<number_reading> r;
  auto found = locate(text, r);
  if (!found)
    return std::nullopt;
  if (!r)
    r = read_number(found->text);
  if (r && found->located_by == answer_locator::last_number)
    r->unit.clear(); // prose around the number is not its unit
  return r;
}

} // namespace ij
