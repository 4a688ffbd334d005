#include "answers/cleaning.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace ij {

namespace {

using text::is_alpha;
using text::is_digit;
using text::starts_with;

struct utf8_map {
  std::string_view from;
  std::string_view to;
};

// Unicode forms mapped onto the ASCII/LaTeX forms the scanner reads.
constexpr std::array<utf8_map, 45> utf8_forms{{
  {"\xC2\xA0", " "},            // no-break space
  {"\xE2\x80\x89", "\x01"},     // thin space
  {"\xE2\x80\xAF", "\x01"},     // narrow no-break space
  {"\xE2\x80\x88", "\x01"},     // punctuation space
  {"\xE2\x88\x92", "-"},        // minus sign
  {"\xC3\x97", " \\times "},    // multiplication sign
  {"\xC2\xB7", " \\cdot "},     // middle dot
  {"\xE2\x8B\x85", " \\cdot "}, // dot operator
  {"\xE2\x89\x88", " \\approx "},
  {"\xC2\xB0", " \\circ "},                 // degree sign
  {"\xC3\xB7", " \\div "},                  // division sign
  {"\xE6\xA0\xB9\xE5\x8F\xB7", " \\sqrt "}, // 根号 (square root)
  {"\xE2\x89\xA4", " \\le "},
  {"\xE2\x89\xA5", " \\ge "},
  {"\xE2\x89\xA0", " \\ne "},
  {"\xC2\xB1", " \\pm "},
  {"\xE2\x88\x9E", " \\infty "},
  {"\xE2\x88\x9A", " \\sqrt "},
  {"\xCF\x80", " \\pi "},
  {"\xE2\x82\xAC", " eur "},
  {"\xC2\xA3", " gbp "},
  {"\xC2\xA5", " jpy "},
  {"\xE2\x82\xB9", " inr "},
  {"\xC2\xBD", "\\frac{1}{2}"},
  {"\xC2\xBC", "\\frac{1}{4}"},
  {"\xC2\xBE", "\\frac{3}{4}"},
  {"\xE2\x85\x93", "\\frac{1}{3}"},
  {"\xE2\x85\x94", "\\frac{2}{3}"},
  {"\xE2\x85\x95", "\\frac{1}{5}"},
  {"\xE2\x85\x96", "\\frac{2}{5}"},
  {"\xE2\x85\x97", "\\frac{3}{5}"},
  {"\xE2\x85\x98", "\\frac{4}{5}"},
  {"\xE2\x85\x99", "\\frac{1}{6}"},
  {"\xE2\x85\x9A", "\\frac{5}{6}"},
  {"\xE2\x85\x9B", "\\frac{1}{8}"},
  {"\xE2\x85\x9C", "\\frac{3}{8}"},
  {"\xE2\x85\x9D", "\\frac{5}{8}"},
  {"\xE2\x85\x9E", "\\frac{7}{8}"},
  {"\xE2\x80\x93", " \\endash "},  // never read as a minus
  {"\xEF\xBC\x8C", ","},           // fullwidth comma
  {"\xE3\x80\x82", "."},           // ideographic full stop
  {"\xEF\xBC\x9A", ":"},           // fullwidth colon
  {"\xE2\x88\x9B", " \\sqrt[3] "}, // cube root
  {"\xE2\x88\x95", "/"},           // division slash
  {"\xE2\x81\x84", "/"},           // fraction slash
}};

/// The ASCII character a superscript (²) or subscript (₂) stands for, and
/// which of the two it is; '\0' when the character at `i` is neither.
struct script_char {
  char c = '\0';
  bool sub = false;
  std::size_t length = 0;
};

script_char script_at(std::string_view s, std::size_t i) {
  auto u = [&](std::size_t k) {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u;
  };
  if (u(0) == 0xC2 && (u(1) == 0xB2 || u(1) == 0xB3)) // ² ³
    return {static_cast<char>('2' + (u(1) - 0xB2)), false, 2};
  if (u(0) == 0xC2 && u(1) == 0xB9) // ¹
    return {'1', false, 2};
  if (u(0) == 0xE2 && u(1) == 0x81) {
    if (u(2) == 0xB0)
      return {'0', false, 3};
    if (u(2) >= 0xB4 && u(2) <= 0xB9)
      return {static_cast<char>('4' + (u(2) - 0xB4)), false, 3};
    if (u(2) == 0xBA)
      return {'+', false, 3};
    if (u(2) == 0xBB)
      return {'-', false, 3};
    if (u(2) == 0xBD)
      return {'(', false, 3};
    if (u(2) == 0xBE)
      return {')', false, 3};
    if (u(2) == 0xBF)
      return {'n', false, 3};
  }
  if (u(0) == 0xE2 && u(1) == 0x82) {
    if (u(2) >= 0x80 && u(2) <= 0x89)
      return {static_cast<char>('0' + (u(2) - 0x80)), true, 3};
    if (u(2) == 0x8A)
      return {'+', true, 3};
    if (u(2) == 0x8B)
      return {'-', true, 3};
  }
  return {};
}

/// Commands whose argument is text or a wrapper: the braces go, the content
/// stays.
bool is_unwrapping_command(std::string_view name) {
  static constexpr std::array<std::string_view, 14> names{
    "text",   "textnormal", "mathrm", "textbf", "mathbf", "textit", "mbox",
    "textrm", "mathit",     "boxed",  "fbox",   "mathsf", "textsf", "hbox"};
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// Commands that are only spacing or sizing.
bool is_dropped_command(std::string_view name) {
  static constexpr std::array<std::string_view, 14> names{
    "!",     ";",   ":",   "quad", "qquad", "displaystyle", "left",
    "right", "big", "Big", "bigl", "bigr",  "Bigl",         "Bigr"};
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// One pass over the answer; each kind of character has its handler.
class cleaner {
public:
  cleaner(std::string_view in, bool keep_line_breaks)
      : in_(in), keep_line_breaks_(keep_line_breaks) {
    out_.reserve(in.size() + 8);
  }

  std::string run() {
    while (i_ < in_.size()) {
      const char c = in_[i_];
      if (text::is_non_ascii(c))
        utf8();
      else if (c == '$' || c == '~' || c == '\t' || c == '\n' || c == '\r')
        space(); // math delimiters carry no meaning inside one answer
      else if (c == '{')
        open_brace();
      else if (c == '}')
        close_brace();
      else if (c == '\\')
        command();
      else
        out_.push_back(in_[i_++]);
    }
    return std::move(out_);
  }

private:
  std::string_view in_;
  bool keep_line_breaks_;
  std::size_t i_ = 0;
  std::string out_;
  std::vector<bool> brace_dropped_; // per open '{': is its '}' dropped?

  void space() {
    out_.push_back(' ');
    ++i_;
  }

  void utf8() {
    // "x²³", "10⁻³", "a₁₂": a run of super- or subscripts is one exponent
    // or index.
    if (auto first = script_at(in_, i_); first.c) {
      out_.append(first.sub ? "_{" : "^{");
      for (auto c = first; c.c && c.sub == first.sub; c = script_at(in_, i_)) {
        out_.push_back(c.c);
        i_ += c.length;
      }
      out_.push_back('}');
      return;
    }
    // Most non-ASCII bytes (continuation bytes, CJK and other letters)
    // start no form: one look-up passes them through.
    static const auto leads = [] {
      std::array<bool, 256> t{};
      for (const auto& m : utf8_forms)
        t[static_cast<unsigned char>(m.from.front())] = true;
      return t;
    }();
    if (!leads[static_cast<unsigned char>(in_[i_])]) {
      out_.push_back(in_[i_++]);
      return;
    }
    for (const auto& m : utf8_forms) {
      if (m.from[0] == in_[i_] && starts_with(in_.substr(i_), m.from)) {
        // "2½" is a mixed number: keep the whole part apart.
        if (starts_with(m.to, "\\frac") && !out_.empty()
            && is_digit(out_.back()))
          out_.push_back(' ');
        out_.append(m.to);
        i_ += m.from.size();
        return;
      }
    }
    out_.push_back(in_[i_++]);
  }

  void open_brace() {
    if (in_.substr(i_, 3) == "{,}") { // "14{,}916"
      out_.push_back(',');
      i_ += 3;
      return;
    }
    brace_dropped_.push_back(false);
    out_.push_back('{');
    ++i_;
  }

  void close_brace() {
    bool dropped = !brace_dropped_.empty() && brace_dropped_.back();
    if (!brace_dropped_.empty())
      brace_dropped_.pop_back();
    out_.push_back(dropped ? ' ' : '}');
    ++i_;
  }

  void skip_blanks() {
    while (i_ < in_.size() && in_[i_] == ' ')
      ++i_;
  }

  /// The name of the command at i_ (letters, or one other character); the
  /// cursor moves past it. "\\boxed" (a doubled backslash as some sources
  /// write it) is read as "\boxed".
  std::string_view command_name() {
    const std::size_t n = in_.size();
    std::size_t j = i_ + 1;
    if (j + 1 < n && in_[j] == '\\' && is_alpha(in_[j + 1]))
      ++j;
    const std::size_t start = j;
    if (j < n && is_alpha(in_[j])) {
      while (j < n && is_alpha(in_[j]))
        ++j;
    } else if (j < n) {
      ++j;
    }
    i_ = j;
    return in_.substr(start, j - start);
  }

  void command() {
    auto name = command_name();
    // "\quadx": a space lost after a spacing command, a stray artefact.
    for (std::string_view spacing : {"qquad", "quad"}) {
      if (name.size() > spacing.size() && starts_with(name, spacing)) {
        i_ -= name.size() - spacing.size();
        name = spacing;
        break;
      }
    }
    if (name == ",")
      out_.push_back(thin_sep);
    else if (name.empty() || (name == "\\" && !keep_line_breaks_))
      out_.push_back(' '); // a stray "\" at the end, a line break
    else if (name == "%")
      out_.push_back('%');
    else if (name == "$")
      out_.append(" usd ");
    else if (name == " " || name == "\n" || name == "[" || name == "]"
             || name == "(" || name == ")")
      out_.push_back(' '); // \[ ... \] and \( ... \) delimiters
    else if (is_dropped_command(name))
      dropped_command(name);
    else if (is_unwrapping_command(name))
      unwrapping_command();
    else if (name == "dfrac" || name == "tfrac" || name == "cfrac")
      out_.append("\\frac");
    else if (name == "degree" || name == "textdegree")
      out_.append(" \\circ ");
    else
      out_.append("\\").append(name);
  }

  void dropped_command(std::string_view name) {
    if (name == "!" && !out_.empty() && out_.back() == ',')
      skip_blanks(); // "32,\! 349"
    else if (name != "!" && name != "left" && name != "right")
      out_.push_back(' ');
  }

  void unwrapping_command() {
    skip_blanks();
    if (i_ < in_.size() && in_[i_] == '{') {
      brace_dropped_.push_back(true);
      ++i_;
    }
    out_.push_back(' ');
  }
};

} // namespace

bool needs_cleaning(std::string_view s) {
  for (char c : s) {
    if (text::is_non_ascii(c) || c == '\\' || c == '$' || c == '{' || c == '}'
        || c == '~' || c == '\t' || c == '\n' || c == '\r')
      return true;
  }
  return false;
}

std::string clean_answer(std::string_view answer, bool keep_line_breaks) {
  return cleaner{answer, keep_line_breaks}.run();
}

std::optional<std::string> halfwidth(std::string_view text) {
  // U+FF01..U+FF5E are EF BC 81..EF BD 9E; U+3000 is E3 80 80.
  if (text.find("\xEF\xBC") == std::string_view::npos
      && text.find("\xEF\xBD") == std::string_view::npos
      && text.find("\xE3\x80\x80") == std::string_view::npos)
    return std::nullopt;
  std::string out;
  out.reserve(text.size());
  bool mapped = false; // "\xEF\xBC" alone is no full-width form
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b = [&](std::size_t k) {
      return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u;
    };
    if (b(0) == 0xEF && (b(1) == 0xBC || b(1) == 0xBD) && b(2) >= 0x80
        && b(2) <= 0xBF) {
      const unsigned code = 0xFF00u + ((b(1) - 0xBCu) << 6) + (b(2) - 0x80u);
      if (code >= 0xFF01 && code <= 0xFF5E) {
        out.push_back(static_cast<char>(code - 0xFF01 + 0x21));
        i += 2;
        mapped = true;
        continue;
      }
    }
    if (b(0) == 0xE3 && b(1) == 0x80 && b(2) == 0x80) {
      out.push_back(' ');
      i += 2;
      mapped = true;
      continue;
    }
    out.push_back(text[i]);
  }
  if (!mapped)
    return std::nullopt; // the callers read the text again: never unchanged
  return out;
}

std::string_view strip_punctuation(std::string_view s) {
  auto trailing = [](std::string_view t) {
    const char c = t.back();
    // "5!" is a factorial, not an exclamation: kept, and refused later.
    if (c == '!')
      return t.size() > 1 && !is_digit(t[t.size() - 2]);
    return c == '.' || c == ',' || c == ';' || c == ':' || c == '?' || c == '*'
           || c == '`' || c == '_';
  };
  for (;;) {
    const auto before = s.size();
    s = trim_gaps(s);
    while (!s.empty() && trailing(s))
      s.remove_suffix(1);
    while (!s.empty() && (s.front() == '*' || s.front() == '`'))
      s.remove_prefix(1);
    if (s.size() == before)
      return s;
  }
}

std::size_t vulgar_fraction_length(std::string_view s, std::size_t i) {
  auto u = [&](std::size_t k) {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u;
  };
  if (u(0) == 0xC2 && u(1) >= 0xBC && u(1) <= 0xBE)
    return 2;
  if (u(0) == 0xE2 && u(1) == 0x85 && u(2) >= 0x93 && u(2) <= 0x9E)
    return 3;
  return 0;
}

} // namespace ij
