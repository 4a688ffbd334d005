#include "answers/math_lexer.hpp"

#include <algorithm>
#include <array>

#include "answers/cleaning.hpp"
#include "core/text.hpp"

namespace ij {

namespace {

using text::is_alpha;
using text::is_digit;

struct alias {
  std::string_view from;
  math_token_kind kind;
  std::string_view to;
};

using K = math_token_kind;

// LaTeX commands the reader understands, with the token each becomes.
constexpr std::array<alias, 64> commands{{
  {"frac", K::command, "frac"},
  {"sqrt", K::command, "sqrt"},
  {"binom", K::command, "binom"},
  {"dbinom", K::command, "binom"},
  {"tbinom", K::command, "binom"},
  {"sin", K::function, "sin"},
  {"cos", K::function, "cos"},
  {"tan", K::function, "tan"},
  {"sec", K::function, "sec"},
  {"csc", K::function, "csc"},
  {"cot", K::function, "cot"},
  {"arcsin", K::function, "arcsin"},
  {"arccos", K::function, "arccos"},
  {"arctan", K::function, "arctan"},
  {"sinh", K::function, "sinh"},
  {"cosh", K::function, "cosh"},
  {"tanh", K::function, "tanh"},
  {"log", K::function, "log"},
  {"ln", K::function, "ln"},
  {"lg", K::function, "lg"},
  {"exp", K::function, "exp"},
  {"pi", K::constant, "pi"},
  {"infty", K::constant, "infty"},
  {"cdot", K::op, "*"},
  {"times", K::op, "*"},
  {"ast", K::op, "*"},
  {"div", K::op, "/"},
  {"le", K::op, "<="},
  {"leq", K::op, "<="},
  {"leqslant", K::op, "<="},
  {"ge", K::op, ">="},
  {"geq", K::op, ">="},
  {"geqslant", K::op, ">="},
  {"lt", K::op, "<"},
  {"gt", K::op, ">"},
  {"ne", K::op, "!="},
  {"neq", K::op, "!="},
  {"pm", K::op, "pm"},
  {"mp", K::op, "mp"},
  {"cup", K::op, "cup"},
  {"in", K::op, "in"},
  {"approx", K::op, "approx"},
  {"%", K::op, "%"},
  {"{", K::op, "\\{"},
  {"}", K::op, "\\}"},
  {"\\", K::op, "\\\\"},
  {"lbrace", K::op, "\\{"},
  {"rbrace", K::op, "\\}"},
  {"vert", K::op, "|"},
  {"lvert", K::op, "|"},
  {"rvert", K::op, "|"},
  {"mid", K::op, "|"},
  {"langle", K::op, "("},
  {"rangle", K::op, ")"},
  {"colon", K::op, ":"},
  {"to", K::op, "->"},
  {"rightarrow", K::op, "->"},
  {"overline", K::command, "overline"},
  {"mathbb", K::command, "mathbb"},
  {"emptyset", K::command, "emptyset"},
  {"varnothing", K::command, "emptyset"},
}};

// Greek letters read as variable names.
constexpr std::array<std::string_view, 30> greek{
  "alpha",  "beta",    "gamma", "delta",    "epsilon", "varepsilon",
  "zeta",   "eta",     "theta", "vartheta", "iota",    "kappa",
  "lambda", "mu",      "nu",    "xi",       "rho",     "sigma",
  "tau",    "upsilon", "phi",   "varphi",   "chi",     "psi",
  "omega",  "Gamma",   "Delta", "Theta",    "Phi",     "Omega"};

// Plain-text words: functions written without a backslash, and the
// joints of a list.
constexpr std::array<alias, 17> plain_words{{
  {"sqrt", K::command, "sqrt"},
  {"sin", K::function, "sin"},
  {"cos", K::function, "cos"},
  {"tan", K::function, "tan"},
  {"sec", K::function, "sec"},
  {"csc", K::function, "csc"},
  {"cot", K::function, "cot"},
  {"log", K::function, "log"},
  {"ln", K::function, "ln"},
  {"exp", K::function, "exp"},
  {"arcsin", K::function, "arcsin"},
  {"arccos", K::function, "arccos"},
  {"arctan", K::function, "arctan"},
  {"pi", K::constant, "pi"},
  {"and", K::word, "and"},
  {"or", K::word, "or"},
  {"infinity", K::constant, "infty"},
}};

// Two-character plain operators.
constexpr std::array<alias, 5> digraphs{{
  {"<=", K::op, "<="},
  {">=", K::op, ">="},
  {"!=", K::op, "!="},
  {"**", K::op, "^"},
  {"=>", K::op, "=>"},
}};

constexpr std::string_view single_ops = "+-*/^!_=<>,;()[]{}|&:";

class lexer {
public:
  lexer(std::string_view s, std::size_t max) : s_(s), max_(max) {}

  std::optional<std::vector<math_token>> run() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      bool ok = true;
      if (is_gap(c) || c == '`') // spacing, markdown code quotes
        ++i_;
      else if (is_digit(c) || (c == '.' && is_digit(peek(1))))
        ok = number();
      else if (c == '\\')
        ok = command();
      else if (is_alpha(c))
        ok = letters();
      else
        ok = symbol();
      if (!ok || out_.size() > max_)
        return std::nullopt;
    }
    return std::move(out_);
  }

private:
  std::string_view s_;
  std::size_t max_;
  std::size_t i_ = 0;
  std::vector<math_token> out_;

  char peek(std::size_t k = 0) const {
    return i_ + k < s_.size() ? s_[i_ + k] : '\0';
  }
  void push(math_token_kind k, std::string_view t) { out_.push_back({k, t}); }

  /// False at "1e-3", "2E5": scientific notation (the number reader's) or
  /// a product with e ("2e-1" = 2e - 1)? The text does not say.
  bool number() {
    const std::size_t b = i_;
    while (is_digit(peek()))
      ++i_;
    if (peek() == '.' && is_digit(peek(1))) {
      ++i_;
      while (is_digit(peek()))
        ++i_;
    } else if (peek() == '.' && s_.substr(i_ + 1, 9) == "\\overline") {
      ++i_; // "0.\overline{3}": the point belongs to the repeating decimal
    }
    // "1.234.567": points grouping thousands (or a version, a date), never
    // a product of two decimals.
    if (peek() == '.' && is_digit(peek(1)))
      return false;
    push(K::number, s_.substr(b, i_ - b));
    if (peek() == 'e' || peek() == 'E') {
      const char n = peek(1);
      if (is_digit(n) || ((n == '-' || n == '+') && is_digit(peek(2))))
        return false;
    }
    return true;
  }

  /// A run of letters: a plain-text word it knows, else one variable a
  /// letter ("xy" is x times y); a longer unknown run is a word of prose,
  /// not a product of variables ("Let me think").
  bool letters() {
    std::size_t e = i_;
    while (e < s_.size() && is_alpha(s_[e]))
      ++e;
    const auto run = s_.substr(i_, e - i_);
    if (subscript_label(e)) {
      push(K::name, run); // "S_{ABC}": the area of triangle ABC
      i_ = e;
      return true;
    }
    for (const auto& w : plain_words) {
      if (run == w.from) {
        push(w.kind, w.to);
        i_ = e;
        return true;
      }
    }
    if (run.size() > 2)
      return false;
    for (; i_ < e; ++i_) {
      const auto letter = s_.substr(i_, 1);
      push(letter == "e" || letter == "i" ? K::constant : K::name, letter);
    }
    return true;
  }

  /// A run of letters that is a whole subscript ("_{ABC}", "_{max}"):
  /// a label of the name it follows, not a word of prose.
  bool subscript_label(std::size_t run_end) const {
    const std::size_t n = out_.size();
    return n >= 2 && out_[n - 2].kind == K::op && out_[n - 2].text == "_"
           && out_[n - 1].kind == K::op && out_[n - 1].text == "{"
           && run_end < s_.size() && s_[run_end] == '}';
  }

  bool symbol() {
    for (const auto& d : digraphs) {
      if (s_.substr(i_, 2) == d.from) {
        push(d.kind, d.to);
        i_ += 2;
        return true;
      }
    }
    const auto pos = single_ops.find(s_[i_]);
    if (pos == std::string_view::npos)
      return false; // a symbol the reader does not know
    push(K::op, single_ops.substr(pos, 1));
    ++i_;
    return true;
  }

  /// The argument of \begin / \end: "{pmatrix}".
  std::optional<std::string_view> environment() {
    while (is_gap(peek()))
      ++i_;
    if (peek() != '{')
      return std::nullopt;
    const auto close = s_.find('}', i_);
    if (close == std::string_view::npos)
      return std::nullopt;
    auto name = s_.substr(i_ + 1, close - i_ - 1);
    i_ = close + 1;
    return name;
  }

  bool command() {
    std::size_t j = i_ + 1;
    const std::size_t start = j;
    if (j < s_.size() && is_alpha(s_[j])) {
      while (j < s_.size() && is_alpha(s_[j]))
        ++j;
    } else if (j < s_.size()) {
      ++j;
    }
    const auto name = s_.substr(start, j - start);
    i_ = j;
    if (name == "begin" || name == "end") {
      auto env = environment();
      if (!env)
        return false;
      push(name == "begin" ? K::begin : K::end, *env);
      if (name == "begin" && *env == "array")
        return environment().has_value(); // the column spec "{cc}", "{c|c}"
      return true;
    }
    if (name == "operatorname" || name == "mathrm" || name == "text")
      return true; // the braces that follow group the name
    for (const auto& c : commands) {
      if (c.from == name) {
        push(c.kind, c.to);
        return true;
      }
    }
    if (std::find(greek.begin(), greek.end(), name) != greek.end()) {
      push(K::name, name);
      return true;
    }
    return name == "circ" ? false : name == " " || name == ",";
  }
};

} // namespace

std::optional<std::vector<math_token>> lex_math(std::string_view cleaned,
                                                std::size_t max_tokens) {
  return lexer{cleaned, max_tokens}.run();
}

} // namespace ij
