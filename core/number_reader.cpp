#include "core/number_reader.hpp"

#include "core/number_words.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace ij {

namespace {

// A hand-written scanner: the reader runs for every pair the numeric judge
// sees, so no std::regex, and a refusal as soon as anything does not fit.

constexpr char thin_sep = '\x01'; // "\," or a thin space: maybe a thousands gap

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
         || c == '\v' || c == thin_sep;
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

// ---------------------------------------------------------------- cleaning

struct utf8_map {
  std::string_view from;
  std::string_view to;
};

// Unicode forms mapped onto the ASCII/LaTeX forms the scanner reads.
constexpr std::array<utf8_map, 42> utf8_forms{{
  {"\xC2\xA0", " "},             // no-break space
  {"\xE2\x80\x89", "\x01"},      // thin space
  {"\xE2\x80\xAF", "\x01"},      // narrow no-break space
  {"\xE2\x80\x88", "\x01"},      // punctuation space
  {"\xE2\x88\x92", "-"},         // minus sign
  {"\xC3\x97", " \\times "},     // multiplication sign
  {"\xC2\xB7", " \\cdot "},      // middle dot
  {"\xE2\x8B\x85", " \\cdot "},  // dot operator
  {"\xE2\x89\x88", " \\approx "},
  {"\xC2\xB0", " \\circ "},      // degree sign
  {"\xC2\xB2", "^2"},
  {"\xC2\xB3", "^3"},
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
  {"\xE2\x80\x93", " \\endash "}, // never read as a minus
  {"\xEF\xBC\x8C", ","},          // fullwidth comma
  {"\xE3\x80\x82", "."},          // ideographic full stop
  {"\xEF\xBC\x9A", ":"},          // fullwidth colon
}};

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

/// Commands whose argument is text or a wrapper: the braces go, the content
/// stays.
bool is_unwrapping_command(std::string_view name) {
  static constexpr std::array<std::string_view, 14> names{
    "text",     "textnormal", "mathrm", "textbf", "mathbf", "textit",
    "mbox",     "textrm",     "mathit", "boxed",  "fbox",   "mathsf",
    "textsf",   "hbox"};
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// Commands that are only spacing or sizing.
bool is_dropped_command(std::string_view name) {
  static constexpr std::array<std::string_view, 14> names{
    "!",     ";",     ":",     "quad", "qquad", "displaystyle", "left",
    "right", "big",   "Big",   "bigl", "bigr",  "Bigl",         "Bigr"};
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// The answer with delimiters, spacing and wrappers removed and Unicode
/// forms mapped to what the scanner reads. Content is never reordered.
std::string clean(std::string_view in) {
  std::string out;
  out.reserve(in.size() + 8);
  std::vector<bool> brace_dropped; // per open '{': is its '}' dropped?
  std::size_t i = 0;
  const std::size_t n = in.size();
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(in[i]);
    if (c >= 0x80) {
      bool mapped = false;
      for (const auto& m : utf8_forms) {
        if (starts_with(in.substr(i), m.from)) {
          // "2½" is a mixed number: keep the whole part apart.
          if (m.to.substr(0, 5) == "\\frac" && !out.empty()
              && is_digit(out.back()))
            out.push_back(' ');
          out.append(m.to);
          i += m.from.size();
          mapped = true;
          break;
        }
      }
      if (!mapped)
        out.push_back(in[i++]);
      continue;
    }
    if (c == '$') { // math delimiters carry no meaning inside one answer
      out.push_back(' ');
      ++i;
      continue;
    }
    if (c == '~' || c == '\t' || c == '\n' || c == '\r') {
      out.push_back(' ');
      ++i;
      continue;
    }
    if (c == '{') {
      if (in.substr(i, 3) == "{,}") { // "14{,}916"
        out.push_back(',');
        i += 3;
        continue;
      }
      brace_dropped.push_back(false);
      out.push_back('{');
      ++i;
      continue;
    }
    if (c == '}') {
      bool dropped = !brace_dropped.empty() && brace_dropped.back();
      if (!brace_dropped.empty())
        brace_dropped.pop_back();
      out.push_back(dropped ? ' ' : '}');
      ++i;
      continue;
    }
    if (c != '\\') {
      out.push_back(in[i++]);
      continue;
    }
    // A command. "\\boxed" (a doubled backslash as some sources write it)
    // is read as "\boxed".
    std::size_t j = i + 1;
    if (j < n && in[j] == '\\' && j + 1 < n && is_alpha(in[j + 1]))
      ++j;
    std::size_t name_start = j;
    if (j < n && is_alpha(in[j])) {
      while (j < n && is_alpha(in[j]))
        ++j;
    } else if (j < n) {
      ++j;
    }
    std::string_view name = in.substr(name_start, j - name_start);
    i = j;
    if (name == ",") {
      out.push_back(thin_sep);
    } else if (name == "%") {
      out.push_back('%');
    } else if (name == "$") {
      out.append(" usd ");
    } else if (name == " ") {
      out.push_back(' ');
    } else if (name == "[" || name == "]" || name == "(" || name == ")") {
      out.push_back(' '); // \[ ... \] and \( ... \) delimiters
    } else if (is_dropped_command(name)) {
      if (name == "!" && !out.empty() && out.back() == ',') {
        while (i < n && in[i] == ' ') // "32,\! 349"
          ++i;
      } else if (name != "!" && name != "left" && name != "right") {
        out.push_back(' ');
      }
    } else if (is_unwrapping_command(name)) {
      while (i < n && in[i] == ' ')
        ++i;
      if (i < n && in[i] == '{') {
        brace_dropped.push_back(true);
        out.push_back(' ');
        ++i;
      } else {
        out.push_back(' ');
      }
    } else if (name == "dfrac" || name == "tfrac" || name == "cfrac") {
      out.append("\\frac");
    } else if (name == "degree" || name == "textdegree") {
      out.append(" \\circ ");
    } else {
      out.push_back('\\');
      out.append(name);
      // Keep a command apart from letters that follow ("\frac34i").
    }
  }
  return out;
}

// ---------------------------------------------------------------- values

using i128 = __int128;

i128 gcd128(i128 a, i128 b) {
  if (a < 0)
    a = -a;
  if (b < 0)
    b = -b;
  while (b != 0) {
    i128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

std::uint64_t gcd64(std::uint64_t a, std::uint64_t b) {
  while (b != 0) {
    std::uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

std::optional<exact_rational> make_rational(i128 num, i128 den) {
  if (den == 0)
    return std::nullopt;
  if (den < 0) {
    num = -num;
    den = -den;
  }
  constexpr i128 small = i128{1} << 62; // 64-bit division is much cheaper
  i128 g = (num < small && num > -small && den < small)
             ? i128(gcd64(static_cast<std::uint64_t>(num < 0 ? -num : num),
                          static_cast<std::uint64_t>(den)))
             : gcd128(num, den);
  if (g > 1) {
    num /= g;
    den /= g;
  }
  return exact_rational{num, den};
}

bool mul_overflows(i128 a, i128 b, i128& r) {
  return __builtin_mul_overflow(a, b, &r);
}

/// Canonical key of sign * digits * 10^exp: no leading or trailing zeros.
std::string decimal_key_of(bool negative, std::string digits, long exp) {
  std::size_t lead = 0;
  while (lead < digits.size() && digits[lead] == '0')
    ++lead;
  digits.erase(0, lead);
  if (digits.empty())
    return "0";
  while (digits.back() == '0') {
    digits.pop_back();
    ++exp;
  }
  return (negative ? "-" : "") + digits + "e" + std::to_string(exp);
}

struct key_parts {
  bool negative;
  std::string digits;
  long exp;
};

key_parts split_key(const std::string& key) {
  key_parts p{false, "0", 0};
  if (key == "0")
    return p;
  std::size_t i = 0;
  if (key[0] == '-') {
    p.negative = true;
    i = 1;
  }
  auto e = key.find('e');
  p.digits = key.substr(i, e - i);
  p.exp = std::strtol(key.c_str() + e + 1, nullptr, 10);
  return p;
}

/// A reading of sign * digits * 10^exp, exact in every field that can be.
number_reading reading_of_decimal(bool negative, std::string_view digits,
                                  long exp, int places) {
  number_reading r;
  r.places = places;
  // Strip zeros here once: the key and the exact value share the result.
  while (!digits.empty() && digits.front() == '0')
    digits.remove_prefix(1);
  while (!digits.empty() && digits.back() == '0') {
    digits.remove_suffix(1);
    ++exp;
  }
  if (digits.empty()) {
    r.decimal_key = "0";
    r.exact = exact_rational{0, 1};
    return r;
  }
  r.decimal_key.reserve(digits.size() + 8);
  if (negative)
    r.decimal_key.push_back('-');
  r.decimal_key.append(digits);
  r.decimal_key.push_back('e');
  r.decimal_key += std::to_string(exp);
  if (digits.size() <= 36 && exp > -38 && exp < 38) {
    i128 m = 0;
    for (char d : digits)
      m = m * 10 + (d - '0');
    i128 scale = 1;
    bool ok = true;
    for (long k = 0; k < std::labs(exp) && ok; ++k)
      ok = !mul_overflows(scale, 10, scale);
    if (ok && exp >= 0)
      ok = !mul_overflows(m, scale, m);
    if (ok) {
      r.exact = make_rational(negative ? -m : m, exp >= 0 ? 1 : scale);
      // Both below 2^53: one IEEE division is the correctly rounded value.
      constexpr i128 exact_double = i128{1} << 53;
      const i128 den = exp >= 0 ? 1 : scale;
      if (m < exact_double && den < exact_double) {
        r.value = static_cast<double>(static_cast<long long>(m))
                  / static_cast<double>(static_cast<long long>(den));
        if (negative)
          r.value = -r.value;
        return r;
      }
    }
  }
  r.value = std::strtod(r.decimal_key.c_str(), nullptr);
  return r;
}

/// Fills decimal_key for an exact rational that terminates (den = 2^a 5^b).
void set_key_from_rational(number_reading& r) {
  if (!r.exact)
    return;
  i128 den = r.exact->den;
  int twos = 0, fives = 0;
  while (den % 2 == 0) {
    den /= 2;
    ++twos;
  }
  while (den % 5 == 0) {
    den /= 5;
    ++fives;
  }
  if (den != 1) {
    r.decimal_key.clear();
    return;
  }
  int k = std::max(twos, fives);
  i128 scale = 1;
  for (int i = 0; i < k; ++i)
    if (mul_overflows(scale, 10, scale))
      return;
  i128 m;
  if (mul_overflows(r.exact->num, scale / r.exact->den, m))
    return;
  bool negative = m < 0;
  if (negative)
    m = -m;
  std::string digits;
  if (m == 0)
    digits = "0";
  while (m > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + int(m % 10)));
    m /= 10;
  }
  r.decimal_key = decimal_key_of(negative, digits, -k);
}

double rational_value(const exact_rational& q) {
  return static_cast<double>(static_cast<long double>(q.num)
                             / static_cast<long double>(q.den));
}

std::optional<number_reading> divide(const number_reading& a,
                                     const number_reading& b) {
  if (b.value == 0.0)
    return std::nullopt;
  number_reading r;
  if (a.exact && b.exact) {
    i128 num, den;
    if (!mul_overflows(a.exact->num, b.exact->den, num)
        && !mul_overflows(a.exact->den, b.exact->num, den)) {
      r.exact = make_rational(num, den);
    }
  }
  if (r.exact) {
    set_key_from_rational(r);
    r.value = r.decimal_key.empty() ? rational_value(*r.exact)
                                    : std::strtod(r.decimal_key.c_str(),
                                                  nullptr);
  } else {
    r.value = a.value / b.value;
  }
  if (!std::isfinite(r.value))
    return std::nullopt;
  return r;
}

std::optional<number_reading> add(const number_reading& a,
                                  const number_reading& b) {
  number_reading r;
  if (a.exact && b.exact) {
    i128 x, y, d, s;
    if (!mul_overflows(a.exact->num, b.exact->den, x)
        && !mul_overflows(b.exact->num, a.exact->den, y)
        && !mul_overflows(a.exact->den, b.exact->den, d)
        && !__builtin_add_overflow(x, y, &s))
      r.exact = make_rational(s, d);
  }
  if (r.exact) {
    set_key_from_rational(r);
    r.value = r.decimal_key.empty() ? rational_value(*r.exact)
                                    : std::strtod(r.decimal_key.c_str(),
                                                  nullptr);
  } else {
    r.value = a.value + b.value;
  }
  return r;
}

number_reading negated(number_reading r) {
  r.value = -r.value;
  if (r.exact)
    r.exact->num = -r.exact->num;
  if (!r.decimal_key.empty() && r.decimal_key != "0") {
    if (r.decimal_key[0] == '-')
      r.decimal_key.erase(0, 1);
    else
      r.decimal_key.insert(r.decimal_key.begin(), '-');
  }
  return r;
}

bool is_proper_positive(const number_reading& r) {
  return r.exact && r.exact->num > 0 && r.exact->num < r.exact->den;
}

bool is_plain_integer(const number_reading& r) {
  return r.exact && r.exact->den == 1 && r.places && *r.places == 0;
}

// ---------------------------------------------------------------- scanner

struct unit_word {
  std::string_view word;
  std::string_view unit;
};

constexpr std::array<unit_word, 22> unit_synonyms{{
  {"degrees", "deg"}, {"degree", "deg"}, {"deg", "deg"},
  {"dollars", "usd"}, {"dollar", "usd"}, {"usd", "usd"},
  {"bucks", "usd"},   {"euros", "eur"},  {"euro", "eur"},
  {"eur", "eur"},     {"pounds", "pound"}, {"pound", "pound"},
  {"gbp", "gbp"},     {"yen", "jpy"},    {"jpy", "jpy"},
  {"rupees", "inr"},  {"rupee", "inr"},  {"inr", "inr"},
  {"rs", "inr"},      {"cents", "cent"}, {"cent", "cent"},
  {"cny", "cny"},
}};

// Words that make a tail a phrase rather than a unit.
constexpr std::array<std::string_view, 34> non_unit_words{{
  "and",   "or",     "is",      "are",   "was",   "were", "the",
  "of",    "to",     "in",      "on",    "at",    "but",  "so",
  "then",  "plus",   "times",   "over",  "divided", "by", "not",
  "if",    "it",     "for",     "with",  "as",    "than", "from",
  "pi",    "sqrt",   "answer",  "be",    "this",  "that",
}};

constexpr std::array<std::string_view, 7> one_letter_units{
  {"m", "g", "s", "l", "h", "k", "L"}};

bool is_currency_prefix(std::string_view w, std::string& unit) {
  static constexpr std::array<unit_word, 7> prefixes{{
    {"usd", "usd"}, {"eur", "eur"}, {"gbp", "gbp"}, {"jpy", "jpy"},
    {"inr", "inr"}, {"rs", "inr"},  {"cny", "cny"},
  }};
  for (const auto& p : prefixes)
    if (p.word == w) {
      unit = std::string{p.unit};
      return true;
    }
  return false;
}

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

class scanner {
public:
  explicit scanner(std::string_view s) : s_(s) {}

  std::optional<number_reading> read_all();

  /// Applies `tail` as the percent / unit suffix of `r`.
  static bool apply_suffix(std::string_view tail, number_reading& r) {
    scanner sc{tail};
    return sc.suffix(r);
  }

private:
  std::string_view s_;
  std::size_t i_ = 0;

  bool at_end() const { return i_ >= s_.size(); }
  char peek(std::size_t k = 0) const {
    return i_ + k < s_.size() ? s_[i_ + k] : '\0';
  }
  void skip_spaces() {
    while (!at_end() && is_space(s_[i_]))
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
  std::optional<number_reading> magnitude();
  std::optional<int> exponent();
  bool suffix(number_reading& r);
};

/// Digits with valid `,` (or thin-space) thousands groups, decimals, "0,5"
/// decimal comma, "1e5". The cursor is at a digit or '.'.
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
  if ((sep == ',' || sep == thin_sep) && !int_digits.empty()
      && int_digits.size() <= 3 && int_digits != "0" && group_follows(sep)) {
    while (group_follows(sep)) {
      int_digits.append(s_.substr(i_ + 1, 3));
      i_ += 4;
    }
    if (peek() == sep && is_digit(peek(1)))
      return std::nullopt; // "1,234,56": a broken group
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
  return reading_of_decimal(false, int_digits + frac_digits,
                            exp10 - static_cast<long>(frac_digits.size()),
                            static_cast<int>(
                              static_cast<long>(frac_digits.size()) - exp10));
}

/// An exponent after '^': "4", "{4}", "{-3}", "-3".
std::optional<int> scanner::exponent() {
  std::string_view body;
  if (peek() == '{') {
    auto g = group('{', '}');
    if (!g)
      return std::nullopt;
    body = trim(*g);
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
    auto t = trim(*g);
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

/// The number itself, before any percent or unit.
std::optional<number_reading> scanner::magnitude() {
  skip_spaces();
  if (peek() == '(' || peek() == '{') {
    // "(3/2)", "\left(\frac{1}{3}\right)", "{5}": a group around one number.
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

  std::size_t after_literal = i_;
  skip_spaces();
  // Scientific: "3 \times 10^{4}", "3×10^4", "3 \cdot 10^4", "3*10^4".
  if (eat_command("times") || eat_command("cdot") || peek() == '*') {
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
    if (!e || !lit->places)
      return std::nullopt;
    auto p = split_key(lit->decimal_key);
    if (lit->decimal_key == "0")
      return lit;
    return reading_of_decimal(false, p.digits, p.exp + *e, *lit->places - *e);
  }

  // Fraction "3/4", "2/(-3)", "1.5/2".
  if (peek() == '/') {
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
    auto q = divide(*lit, *den);
    if (q)
      q->places.reset();
    return q;
  }

  // Mixed number: "1 1/2", "2 \frac{1}{2}", "2\frac12" — a whole number and
  // a proper fraction side by side read as their sum.
  if (is_plain_integer(*lit)) {
    std::size_t save = i_;
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
      auto sum = add(*lit, *part);
      if (sum)
        sum->places.reset();
      return sum;
    }
    if (part)
      return std::nullopt; // "3 4/2": not a mixed number
    i_ = save;
  }
  i_ = after_literal;
  return lit;
}

/// Percent or a unit after the number; false when what follows is neither.
bool scanner::suffix(number_reading& r) {
  skip_spaces();
  if (peek() == '%') {
    ++i_;
    r.percent = true;
    skip_spaces();
  }
  // Degrees: "^\circ", "^{\circ}", "\circ" (from °).
  {
    std::size_t save = i_;
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
    if (eat_command("circ")) {
      skip_spaces();
      if (braced) {
        if (peek() != '}')
          return false;
        ++i_;
      }
      r.unit = "deg";
      skip_spaces();
    } else {
      i_ = save;
    }
  }
  if (at_end())
    return true;

  // Words: percent, currency, units. Letters (any script), '/' and "^2".
  std::vector<std::string> words;
  std::string cur;
  for (; !at_end(); ++i_) {
    char c = s_[i_];
    unsigned char uc = static_cast<unsigned char>(c);
    if (is_alpha(c) || uc >= 0x80) {
      cur.push_back(lower(c));
    } else if (c == '/' || c == '^') {
      if (cur.empty())
        return false;
      cur.push_back(c);
      if (c == '^') { // "m^2", "cm^{3}"
        ++i_;
        if (peek() == '{' && is_digit(peek(1)) && peek(2) == '}') {
          cur.push_back(s_[i_ + 1]);
          i_ += 2;
        } else if (is_digit(peek())) {
          cur.push_back(peek());
        } else {
          return false;
        }
      }
    } else if (is_space(c) || c == '.') {
      if (c == '.' && !(i_ + 1 == s_.size() || is_space(peek(1))))
        return false;
      if (!cur.empty())
        words.push_back(std::move(cur));
      cur.clear();
    } else {
      return false; // digits, operators, brackets, commands: not a unit
    }
  }
  if (!cur.empty())
    words.push_back(std::move(cur));
  if (words.empty())
    return true;

  // Percent words.
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
    for (auto nw : non_unit_words)
      if (w == nw)
        return false;
    if (is_number_word(w) && w != "point")
      return false;
    if (has_cjk_numeral(w))
      return false;
    bool ascii_letters_only = std::all_of(w.begin(), w.end(), is_alpha);
    if (ascii_letters_only && w.size() == 1
        && std::find(one_letter_units.begin(), one_letter_units.end(), w)
             == one_letter_units.end())
      return false; // "2x", "4i", "3 n": a variable, not a unit
    if (!unit.empty())
      unit.push_back(' ');
    std::string_view mapped = w;
    for (const auto& u : unit_synonyms)
      if (u.word == w)
        mapped = u.unit;
    std::string m{mapped};
    // Plurals fold to the singular: "apples" == "apple".
    if (m.size() > 3 && m.back() == 's' && m[m.size() - 2] != 's'
        && std::all_of(m.begin(), m.end(), is_alpha))
      m.pop_back();
    unit += m;
  }
  if (!r.unit.empty() && r.unit != unit)
    r.unit += " " + unit;
  else
    r.unit = unit;
  return true;
}

std::optional<number_reading> scanner::read_all() {
  skip_spaces();
  std::string prefix_unit;
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
      std::string unit;
      if (is_currency_prefix(w, unit)) {
        prefix_unit = unit;
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
    m->unit = prefix_unit;
  }
  if (!suffix(*m))
    return std::nullopt;
  if (!prefix_unit.empty() && m->unit != prefix_unit)
    return std::nullopt; // "$5 cm"
  return m;
}

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
    } else if (is_space(c) || c == '-' || c == ',') {
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
    if (!scanner::apply_suffix(tail, *r))
      return std::nullopt;
  }
  return r;
}

/// "x", "f(x)", "a_{37}", "\theta", "P(A)": the name in "x = 5".
bool is_simple_name(std::string_view s) {
  s = trim(s);
  std::size_t i = 0;
  if (i < s.size() && s[i] == '\\') {
    ++i;
    std::size_t st = i;
    while (i < s.size() && is_alpha(s[i]))
      ++i;
    auto name = s.substr(st, i - st);
    if (name.empty() || name == "frac" || name == "sqrt" || name == "pi"
        || name == "times" || name == "cdot")
      return false;
  } else {
    std::size_t st = i;
    while (i < s.size() && is_alpha(s[i]))
      ++i;
    if (i == st)
      return false;
  }
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
  return trim(s.substr(i)).empty();
}

/// Numbers and operators only ("28 + 32", "5 \times 6 \times 4"): the
/// middle of an "=" chain whose last value is the answer.
bool is_numeric_arithmetic(std::string_view s) {
  s = trim(s);
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
      if (name != "times" && name != "cdot" && name != "div"
          && name != "frac")
        return false;
      --i;
      continue;
    }
    if (is_space(c) || c == '.' || c == ',' || c == '+' || c == '-'
        || c == '*' || c == '/' || c == '^' || c == '(' || c == ')'
        || c == '{' || c == '}' || c == '%')
      continue;
    return false;
  }
  return any_digit;
}

/// Drops trailing sentence punctuation and markdown, and leading markdown.
std::string_view strip_punctuation(std::string_view s) {
  for (;;) {
    auto before = s.size();
    s = trim(s);
    // "5!" is a factorial, not an exclamation: kept, and refused later.
    while (!s.empty()
           && (s.back() == '.' || s.back() == ',' || s.back() == ';'
               || s.back() == ':' || s.back() == '?'
               || (s.back() == '!' && s.size() > 1
                   && !is_digit(s[s.size() - 2]))
               || s.back() == '*' || s.back() == '`' || s.back() == '_'))
      s.remove_suffix(1);
    while (!s.empty() && (s.front() == '*' || s.front() == '`'))
      s.remove_prefix(1);
    if (s.size() == before)
      return s;
  }
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
        s = trim(s.substr(w.size()));
        approx = true;
        break;
      }
    }
  }
  scanner sc{s};
  auto r = sc.read_all();
  if (!r) {
    bool has_letter = std::any_of(s.begin(), s.end(), is_alpha);
    if (has_letter && s.find('\\') == std::string_view::npos)
      r = read_words(s);
  }
  if (r && approx)
    r->approximate = true;
  if (r && !std::isfinite(r->value))
    return std::nullopt;
  return r;
}

} // namespace

namespace {

/// Plain ASCII without commands, delimiters or braces reads as it is.
bool needs_cleaning(std::string_view s) {
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80 || c == '\\' || c == '$' || c == '{' || c == '}'
        || c == '~' || c == '\t' || c == '\n' || c == '\r')
      return true;
  }
  return false;
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
    cleaned = clean(answer);
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
  auto first = trim(parts.front());
  if (!first.empty() && !is_simple_name(first)
      && !is_numeric_arithmetic(first))
    return std::nullopt;
  for (std::size_t k = 1; k + 1 < parts.size(); ++k)
    if (!is_numeric_arithmetic(parts[k]))
      return std::nullopt;
  auto r = read_single(parts.back());
  if (r && chain.last_is_approx)
    r->approximate = true;
  return r;
}

// ---------------------------------------------------------------- compare

namespace {

number_reading percent_as_fraction(number_reading r) {
  r.percent = false;
  r.value /= 100.0;
  if (!r.decimal_key.empty() && r.decimal_key != "0") {
    auto p = split_key(r.decimal_key);
    r.decimal_key = decimal_key_of(p.negative, p.digits, p.exp - 2);
  }
  if (r.exact) {
    i128 den;
    if (mul_overflows(r.exact->den, 100, den))
      r.exact.reset();
    else
      r.exact = make_rational(r.exact->num, den);
  }
  if (r.places)
    *r.places += 2;
  return r;
}

number_reading percent_as_written(number_reading r) {
  r.percent = false;
  return r;
}

bool same_rational(const exact_rational& x, const exact_rational& y) {
  return x.num == y.num && x.den == y.den;
}

number_relation compare_values(const number_reading& x,
                               const number_reading& y) {
  const bool either_approx = x.approximate || y.approximate;
  if (!either_approx) {
    if (!x.decimal_key.empty() && !y.decimal_key.empty())
      return x.decimal_key == y.decimal_key ? number_relation::equal
                                            : number_relation::different;
    if (x.exact && y.exact) {
      if (same_rational(*x.exact, *y.exact))
        return number_relation::equal;
      if (x.decimal_key.empty() && y.decimal_key.empty())
        return number_relation::different;
    }
  }
  const double ax = std::fabs(x.value), ay = std::fabs(y.value);
  if (x.value == y.value
      || std::fabs(x.value - y.value) <= 1e-9 * std::max(ax, ay))
    return number_relation::equal;
  // A decimal that agrees with the other side only to its written places:
  // 0.3333 vs 1/3, 7.78 vs 70/9, ≈0.58 vs 0.577.
  auto rounds_to = [](const number_reading& d, const number_reading& o) {
    if (!d.places)
      return false;
    if (!(d.approximate || o.decimal_key.empty()))
      return false;
    double half_ulp = 0.5 * std::pow(10.0, -*d.places);
    return std::fabs(o.value - d.value) <= half_ulp * (1 + 1e-9);
  };
  if (rounds_to(x, y) || rounds_to(y, x))
    return number_relation::undecidable;
  return number_relation::different;
}

} // namespace

number_comparison compare_numbers(const number_reading& a,
                                  const number_reading& b) {
  number_comparison out;
  out.shown_a = a;
  out.shown_b = b;
  if (!a.unit.empty() && !b.unit.empty() && a.unit != b.unit) {
    out.relation = number_relation::undecidable;
    out.why = "the answers carry different units (" + a.unit + ", " + b.unit
              + ")";
    return out;
  }
  if (a.percent == b.percent) {
    out.shown_a = percent_as_written(a);
    out.shown_b = percent_as_written(b);
    out.relation = compare_values(out.shown_a, out.shown_b);
  } else {
    // One side in percent: it matches when either p or p/100 does.
    const bool a_pct = a.percent;
    const number_reading& p = a_pct ? a : b;
    const number_reading other = percent_as_written(a_pct ? b : a);
    auto as_written = percent_as_written(p);
    auto as_fraction = percent_as_fraction(p);
    auto r1 = compare_values(as_written, other);
    auto r2 = compare_values(as_fraction, other);
    const number_reading* chosen = &as_fraction;
    if (r1 == number_relation::equal) {
      out.relation = r1;
      chosen = &as_written;
    } else if (r2 == number_relation::equal) {
      out.relation = r2;
    } else if (r1 == number_relation::undecidable
               || r2 == number_relation::undecidable) {
      out.relation = number_relation::undecidable;
    } else {
      out.relation = number_relation::different;
    }
    (a_pct ? out.shown_a : out.shown_b) = *chosen;
    (a_pct ? out.shown_b : out.shown_a) = other;
  }
  if (out.relation == number_relation::undecidable && out.why.empty())
    out.why = "one answer agrees with the other only to the places it gives";
  return out;
}

std::string number_text(const number_reading& r) {
  if (!r.decimal_key.empty()) {
    if (r.decimal_key == "0")
      return "0";
    auto p = split_key(r.decimal_key);
    std::string sign = p.negative ? "-" : "";
    const long nd = static_cast<long>(p.digits.size());
    if (p.exp >= 0 && nd + p.exp <= 40)
      return sign + p.digits + std::string(static_cast<std::size_t>(p.exp), '0');
    if (p.exp < 0 && -p.exp < nd)
      return sign + p.digits.substr(0, static_cast<std::size_t>(nd + p.exp))
             + "." + p.digits.substr(static_cast<std::size_t>(nd + p.exp));
    if (p.exp < 0 && -p.exp - nd <= 20)
      return sign + "0." + std::string(static_cast<std::size_t>(-p.exp - nd), '0')
             + p.digits;
    // Far from 1: d.ddd e±X, still exact.
    std::string out = sign + p.digits.substr(0, 1);
    if (nd > 1)
      out += "." + p.digits.substr(1);
    out += "e" + std::to_string(p.exp + nd - 1);
    return out;
  }
  // Values without a decimal key are non-terminating: they need 15 to 17
  // digits, so the search for the shortest round trip starts at 15.
  char buf[40];
  for (int prec = 15; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, r.value);
    if (std::strtod(buf, nullptr) == r.value)
      break;
  }
  return buf;
}

} // namespace ij
