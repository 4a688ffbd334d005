#include "answers/number_scanner.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "answers/cleaning.hpp"
#include "answers/number_reader.hpp"
#include "answers/units.hpp"

namespace ij {

namespace {

using text::is_alpha;
using text::is_digit;
using text::lower;

class scanner {
public:
  explicit scanner(std::string_view s) : s_(s) {}

  std::optional<number_reading> read_all();
  bool suffix(number_reading& r);

private:
  std::string_view s_;
  std::size_t i_ = 0;

  bool at_end() const { return i_ >= s_.size(); }
  char peek(std::size_t k = 0) const {
    return i_ + k < s_.size() ? s_[i_ + k] : '\0';
  }
  void skip_spaces() {
    while (!at_end() && is_gap(s_[i_]))
      ++i_;
  }
  bool eat_command(std::string_view name) {
    if (peek() != '\\')
      return false;
    auto rest = s_.substr(i_ + 1);
    if (rest.substr(0, name.size()) != name)
      return false;
    if (name.size() < rest.size() && is_alpha(rest[name.size()]))
      return false;
    i_ += 1 + name.size();
    return true;
  }
  /// The lower-cased ASCII word at the cursor, not consumed.
  std::string word_here() const {
    std::string w;
    for (std::size_t k = i_; k < s_.size() && is_alpha(s_[k]); ++k)
      w.push_back(lower(s_[k]));
    return w;
  }
  /// Content of the balanced group opening at i_ ('{' or '('), cursor past
  /// its close; nullopt when unbalanced.
  std::optional<std::string_view> group(char open, char close) {
    if (peek() != open)
      return std::nullopt;
    int depth = 0;
    for (std::size_t k = i_; k < s_.size(); ++k) {
      if (s_[k] == open)
        ++depth;
      else if (s_[k] == close && --depth == 0) {
        auto inner = s_.substr(i_ + 1, k - i_ - 1);
        i_ = k + 1;
        return inner;
      }
    }
    return std::nullopt;
  }

  std::optional<number_reading> literal();
  std::optional<number_reading> frac_argument();
  std::optional<number_reading> latex_frac();
  std::optional<number_reading> grouped();
  std::optional<number_reading> magnitude();
  std::optional<number_reading> scientific(const number_reading& lit);
  std::optional<number_reading> fraction(const number_reading& lit);
  std::optional<std::optional<number_reading>> mixed(const number_reading& lit,
                                                     std::size_t after_literal);
  std::optional<int> exponent();
  bool degrees(number_reading& r);
  std::optional<std::vector<std::string>> unit_words();
};

/// Digits with valid `,` (or thin-space, space, or the Swiss apostrophe)
/// thousands groups, decimals, "0,5" decimal comma, "1e5". The cursor is at
/// a digit or '.'.
std::optional<number_reading> scanner::literal() {
  std::string int_digits, frac_digits;
  while (is_digit(peek()))
    int_digits.push_back(s_[i_++]);
  // Thousands groups: every group exactly three digits, the lead 1-3.
  char sep = peek();
  auto group_follows = [&](char sp) {
    return peek() == sp && is_digit(peek(1)) && is_digit(peek(2))
           && is_digit(peek(3)) && !is_digit(peek(4));
  };
  const std::size_t before_groups = i_;
  if ((sep == ',' || sep == thin_sep || sep == ' ' || sep == '\'')
      && !int_digits.empty() && int_digits.size() <= 3 && int_digits != "0"
      && group_follows(sep)) {
    const std::size_t lead = int_digits.size();
    while (group_follows(sep)) {
      int_digits.append(s_.substr(i_ + 1, 3));
      i_ += 4;
    }
    if (sep == ' ' && (peek() == '/' || peek() == '.')) {
      // "1 100/200", "2 345.5": a mixed number or a list, not "1 000".
      i_ = before_groups;
      int_digits.resize(lead);
    } else if (peek() == sep && is_digit(peek(1))) {
      return std::nullopt; // "1,234,56": a broken group
    }
  } else if (int_digits == "0" && peek() == ',' && is_digit(peek(1))) {
    // "0,111": a lone 0 never leads a thousands group, so the comma is a
    // decimal mark.
    ++i_;
    while (is_digit(peek()))
      frac_digits.push_back(s_[i_++]);
    if (peek() == ',' || peek() == '.')
      return std::nullopt;
  }
  if (frac_digits.empty() && peek() == '.' && is_digit(peek(1))) {
    ++i_;
    while (is_digit(peek()))
      frac_digits.push_back(s_[i_++]);
  }
  if (int_digits.empty() && frac_digits.empty())
    return std::nullopt;
  if (is_digit(peek()) || (peek() == '.' && is_digit(peek(1))))
    return std::nullopt;
  long exp10 = 0;
  // "1e5", "1.5E-3": the exponent is glued to the digits.
  if ((peek() == 'e' || peek() == 'E')
      && (is_digit(peek(1))
          || ((peek(1) == '-' || peek(1) == '+') && is_digit(peek(2))))) {
    std::size_t k = i_ + 1;
    bool neg = false;
    if (s_[k] == '-' || s_[k] == '+')
      neg = s_[k++] == '-';
    long e = 0;
    std::size_t digits = 0;
    while (k < s_.size() && is_digit(s_[k])) {
      if (++digits > 5)
        return std::nullopt;
      e = e * 10 + (s_[k++] - '0');
    }
    if (k < s_.size() && is_alpha(s_[k]))
      return std::nullopt;
    exp10 = neg ? -e : e;
    i_ = k;
  }
  auto r = reading_of_decimal(
    false, int_digits + frac_digits,
    exp10 - static_cast<long>(frac_digits.size()),
    static_cast<int>(static_cast<long>(frac_digits.size()) - exp10));
  // "12.345": a decimal, or 12345 where a point groups thousands.
  r.point_grouping = exp10 == 0 && frac_digits.size() == 3
                     && !int_digits.empty() && int_digits.size() <= 3
                     && int_digits.front() != '0' && i_ > 4
                     && s_[i_ - 4] == '.';
  return r;
}

/// An exponent after '^': "4", "{4}", "{-3}", "-3".
std::optional<int> scanner::exponent() {
  std::string_view body;
  if (peek() == '{') {
    auto g = group('{', '}');
    if (!g)
      return std::nullopt;
    body = trim_gaps(*g);
  } else {
    std::size_t k = i_;
    if (k < s_.size() && (s_[k] == '-' || s_[k] == '+'))
      ++k;
    while (k < s_.size() && is_digit(s_[k]))
      ++k;
    body = s_.substr(i_, k - i_);
    i_ = k;
  }
  bool neg = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    neg = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body.empty() || body.size() > 4)
    return std::nullopt;
  int e = 0;
  for (char c : body) {
    if (!is_digit(c))
      return std::nullopt;
    e = e * 10 + (c - '0');
  }
  return neg ? -e : e;
}

/// One argument of \frac: a braced signed number, or one bare digit
/// ("\frac34").
std::optional<number_reading> scanner::frac_argument() {
  skip_spaces();
  if (peek() == '{') {
    auto g = group('{', '}');
    if (!g)
      return std::nullopt;
    auto t = trim_gaps(*g);
    if (!t.empty() && t.size() < 16
        && std::all_of(t.begin(), t.end(), is_digit))
      return reading_of_decimal(false, t, 0, 0); // "{3}": the common case
    auto r = read_number(*g);
    if (!r || r->percent || !r->unit.empty() || r->approximate)
      return std::nullopt;
    return r;
  }
  if (is_digit(peek())) {
    std::string d(1, s_[i_++]);
    return reading_of_decimal(false, d, 0, 0);
  }
  return std::nullopt;
}

std::optional<number_reading> scanner::latex_frac() {
  auto num = frac_argument();
  if (!num)
    return std::nullopt;
  auto den = frac_argument();
  if (!den)
    return std::nullopt;
  auto q = divide(*num, *den);
  if (q)
    q->places.reset();
  return q;
}

/// "(3/2)", "\left(\frac{1}{3}\right)", "{5}": a group around one number.
std::optional<number_reading> scanner::grouped() {
  char open = peek();
  auto g = group(open, open == '(' ? ')' : '}');
  if (!g || g->find(',') != std::string_view::npos
      || g->find(';') != std::string_view::npos)
    return std::nullopt; // "(0,9)", "(0,)": a tuple or an interval
  auto r = read_number(*g);
  if (!r || !r->unit.empty())
    return std::nullopt;
  return r;
}

/// Scientific: "3 \times 10^{4}", "3×10^4", "3 \cdot 10^4", "3*10^4"; the
/// cursor is past the literal and the spaces after it.
std::optional<number_reading> scanner::scientific(const number_reading& lit) {
  if (peek() == '*')
    ++i_;
  skip_spaces();
  if (!(peek() == '1' && peek(1) == '0' && peek(2) != '\0'))
    return std::nullopt;
  i_ += 2;
  skip_spaces();
  if (peek() != '^')
    return std::nullopt;
  ++i_;
  skip_spaces();
  auto e = exponent();
  if (!e || !lit.places)
    return std::nullopt;
  if (lit.decimal_key == "0")
    return lit;
  auto p = split_key(lit.decimal_key);
  return reading_of_decimal(false, p.digits, p.exp + *e, *lit.places - *e);
}

/// Fraction "3/4", "2/(-3)", "1.5/2"; the cursor is at the '/'.
std::optional<number_reading> scanner::fraction(const number_reading& lit) {
  ++i_;
  skip_spaces();
  std::optional<number_reading> den;
  if (peek() == '(') {
    auto g = group('(', ')');
    if (!g)
      return std::nullopt;
    den = read_number(*g);
    if (den && (den->percent || !den->unit.empty()))
      return std::nullopt;
  } else if (is_digit(peek())) {
    den = literal();
  }
  if (!den)
    return std::nullopt;
  auto q = divide(lit, *den);
  if (q)
    q->places.reset();
  return q;
}

/// Mixed number: "1 1/2", "2 \frac{1}{2}", "2\frac12" — a whole number and
/// a proper fraction side by side read as their sum. nullopt: not a mixed
/// number (the cursor is back); a nullopt reading: refused ("3 4/2").
std::optional<std::optional<number_reading>>
scanner::mixed(const number_reading& lit, std::size_t after_literal) {
  const std::size_t save = i_;
  std::optional<number_reading> part;
  if (eat_command("frac")) {
    part = latex_frac();
  } else if (i_ > after_literal && is_digit(peek())) {
    auto num = literal();
    if (num && is_plain_integer(*num) && peek() == '/') {
      ++i_;
      if (is_digit(peek())) {
        auto den = literal();
        if (den && is_plain_integer(*den))
          part = divide(*num, *den);
      }
    }
  }
  if (part && is_proper_positive(*part)) {
    auto sum = add(lit, *part);
    sum.places.reset();
    return std::optional<number_reading>{sum};
  }
  if (part)
    return std::optional<number_reading>{};
  i_ = save;
  return std::nullopt;
}

/// The number itself, before any percent or unit.
std::optional<number_reading> scanner::magnitude() {
  skip_spaces();
  if (peek() == '(' || peek() == '{')
    return grouped();
  if (eat_command("frac"))
    return latex_frac();
  if (!is_digit(peek()) && !(peek() == '.' && is_digit(peek(1))))
    return std::nullopt;
  auto lit = literal();
  if (!lit)
    return std::nullopt;
  // "10^{4}" — but "10^\circ" is an angle.
  if (peek() == '^' && lit->decimal_key == "1e1") {
    std::size_t save = i_;
    ++i_;
    skip_spaces();
    if (peek() == '\\' || (peek() == '{' && peek(1) == '\\')) {
      i_ = save;
    } else {
      auto e = exponent();
      if (!e)
        return std::nullopt;
      return reading_of_decimal(false, "1", *e, -*e);
    }
  }
  const std::size_t after_literal = i_;
  skip_spaces();
  if (eat_command("times") || eat_command("cdot") || peek() == '*')
    return scientific(*lit);
  if (peek() == '/')
    return fraction(*lit);
  if (is_plain_integer(*lit))
    if (auto m = mixed(*lit, after_literal))
      return *m;
  i_ = after_literal;
  return lit;
}

/// Degrees: "^\circ", "^{\circ}", "\circ" (from °); false for a broken
/// "^{\circ".
bool scanner::degrees(number_reading& r) {
  const std::size_t save = i_;
  bool caret = false;
  if (peek() == '^') {
    ++i_;
    caret = true;
    skip_spaces();
  }
  bool braced = false;
  if (caret && peek() == '{') {
    ++i_;
    braced = true;
    skip_spaces();
  }
  if (!eat_command("circ")) {
    i_ = save;
    return true;
  }
  skip_spaces();
  if (braced) {
    if (peek() != '}')
      return false;
    ++i_;
  }
  r.unit = "deg";
  skip_spaces();
  return true;
}

/// The words of a percent / currency / unit tail: letters (any script), '/'
/// and "^2" inside a word; nullopt for anything else (digits, operators,
/// brackets, commands).
std::optional<std::vector<std::string>> scanner::unit_words() {
  std::vector<std::string> words;
  std::string cur;
  for (; !at_end(); ++i_) {
    char c = s_[i_];
    if (is_alpha(c) || text::is_non_ascii(c)) {
      cur.push_back(lower(c));
    } else if (c == '/' || c == '^') {
      if (cur.empty())
        return std::nullopt;
      cur.push_back(c);
      if (c == '^') { // "m^2", "cm^{3}"
        ++i_;
        if (peek() == '{' && is_digit(peek(1)) && peek(2) == '}') {
          cur.push_back(s_[i_ + 1]);
          i_ += 2;
        } else if (is_digit(peek())) {
          cur.push_back(peek());
        } else {
          return std::nullopt;
        }
      }
    } else if (is_gap(c) || c == '.') {
      if (c == '.' && !(i_ + 1 == s_.size() || is_gap(peek(1))))
        return std::nullopt;
      if (!cur.empty())
        words.push_back(std::move(cur));
      cur.clear();
    } else {
      return std::nullopt;
    }
  }
  if (!cur.empty())
    words.push_back(std::move(cur));
  return words;
}

/// Percent or a unit after the number; false when what follows is neither.
bool scanner::suffix(number_reading& r) {
  skip_spaces();
  if (peek() == '%') {
    ++i_;
    r.percent = true;
    skip_spaces();
  }
  if (!degrees(r))
    return false;
  if (at_end())
    return true;
  auto words = unit_words();
  return words && apply_unit_words(std::move(*words), r);
}

std::optional<number_reading> scanner::read_all() {
  skip_spaces();
  std::string_view prefix_unit;
  bool negative = false;
  bool signed_ = false;
  // Currency words before the number, and the sign on either side of them.
  for (int round = 0; round < 2; ++round) {
    if (!signed_ && (peek() == '-' || peek() == '+')) {
      negative = peek() == '-';
      signed_ = true;
      ++i_;
      skip_spaces();
    }
    if (prefix_unit.empty() && is_alpha(peek())) {
      std::string w = word_here();
      prefix_unit = currency_prefix_unit(w);
      if (!prefix_unit.empty()) {
        i_ += w.size();
        skip_spaces();
      }
    }
  }
  auto m = magnitude();
  if (!m)
    return std::nullopt;
  if (negative)
    *m = negated(std::move(*m));
  if (!prefix_unit.empty()) {
    if (!m->unit.empty() && m->unit != prefix_unit)
      return std::nullopt;
    m->unit = std::string{prefix_unit};
  }
  if (!suffix(*m))
    return std::nullopt;
  if (!prefix_unit.empty() && m->unit != prefix_unit)
    return std::nullopt; // "$5 cm"
  return m;
}

} // namespace

std::optional<number_reading> scan_number(std::string_view cleaned) {
  return scanner{cleaned}.read_all();
}

bool apply_suffix(std::string_view tail, number_reading& r) {
  return scanner{tail}.suffix(r);
}

} // namespace ij
