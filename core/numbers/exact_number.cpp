#include "core/numbers/exact_number.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "core/numbers/decimal_value.hpp"
#include "core/text.hpp"

namespace ij {

namespace {

using i128 = __int128;
using text::is_digit;

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

bool mul_overflows(i128 a, i128 b, i128& r) {
  return __builtin_mul_overflow(a, b, &r);
}

/// Length of the unsigned decimal at the start of s: digits with optional
/// `,` thousands groups, optional decimals, optional exponent; 0 if none.
std::size_t decimal_length(std::string_view s, bool allow_fraction_part) {
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n && is_digit(s[i]))
    ++i;
  std::size_t int_digits = i;
  if (int_digits > 0 && int_digits <= 3 && i < n && s[i] == ',') {
    // Thousands groups: every group exactly three digits.
    while (i + 3 < n && s[i] == ',' && is_digit(s[i + 1]) && is_digit(s[i + 2])
           && is_digit(s[i + 3]) && (i + 4 == n || !is_digit(s[i + 4])))
      i += 4;
    if (i < n && s[i] == ',')
      return 0;
  }
  if (!allow_fraction_part)
    return i;
  std::size_t frac_digits = 0;
  if (i < n && s[i] == '.') {
    ++i;
    while (i < n && is_digit(s[i])) {
      ++i;
      ++frac_digits;
    }
  }
  if (int_digits == 0 && frac_digits == 0)
    return 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < n && (s[j] == '+' || s[j] == '-'))
      ++j;
    std::size_t exp_start = j;
    while (j < n && is_digit(s[j]))
      ++j;
    if (j == exp_start)
      return 0;
    i = j;
  }
  return i;
}

/// The decimal key of a validated token (digits, `,` groups, '.',
/// exponent); empty when the exponent is absurd.
std::string key_of_token(std::string_view t, bool negative) {
  std::string digits;
  long exp = 0;
  std::size_t i = 0;
  for (; i < t.size() && (is_digit(t[i]) || t[i] == ','); ++i)
    if (t[i] != ',')
      digits.push_back(t[i]);
  if (i < t.size() && t[i] == '.')
    for (++i; i < t.size() && is_digit(t[i]); ++i, --exp)
      digits.push_back(t[i]);
  if (i < t.size()) { // the exponent
    const auto e = t.substr(i + 1);
    if (e.size() > 9)
      return {};
    exp += std::strtol(std::string{e}.c_str(), nullptr, 10);
  }
  return decimal_key_of(negative, digits, exp);
}

/// An integer token (no '.', no exponent) as a 128-bit value.
std::optional<i128> integer_of(std::string_view t) {
  i128 v = 0;
  std::size_t digits = 0;
  for (char c : t) {
    if (c == ',')
      continue;
    if (!is_digit(c) || ++digits > 36)
      return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::optional<exact_number>
parse_fraction(std::string_view num, std::string_view den, bool negative) {
  num = text::trim(num);
  den = text::trim(den);
  if (num.empty() || den.empty() || decimal_length(num, false) != num.size()
      || decimal_length(den, false) != den.size())
    return std::nullopt;
  const double d = decimal_value(den, false);
  if (d == 0.0)
    return std::nullopt;
  exact_number out;
  out.value = decimal_value(num, negative) / d;
  auto p = integer_of(num), q = integer_of(den);
  if (p && q)
    out.exact = make_rational(negative ? -*p : *p, *q);
  if (out.exact)
    out.decimal_key = terminating_key(*out.exact);
  return out;
}

} // namespace

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

std::string terminating_key(const exact_rational& q) {
  i128 den = q.den;
  int twos = 0, fives = 0;
  while (den % 2 == 0) {
    den /= 2;
    ++twos;
  }
  while (den % 5 == 0) {
    den /= 5;
    ++fives;
  }
  if (den != 1)
    return {};
  int k = std::max(twos, fives);
  i128 scale = 1;
  for (int i = 0; i < k; ++i)
    if (mul_overflows(scale, 10, scale))
      return {};
  i128 m;
  if (mul_overflows(q.num, scale / q.den, m))
    return {};
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
  return decimal_key_of(negative, digits, -k);
}

std::optional<bool> exactly_same(const exact_number& x, const exact_number& y) {
  if (x.approximate || y.approximate)
    return std::nullopt;
  if (!x.decimal_key.empty() && !y.decimal_key.empty())
    return x.decimal_key == y.decimal_key;
  if (x.exact && y.exact) {
    if (x.exact->num == y.exact->num && x.exact->den == y.exact->den)
      return true;
    if (x.decimal_key.empty() && y.decimal_key.empty())
      return false;
  }
  return std::nullopt;
}

bool within_tolerance(double x, double y) {
  return x == y
         || std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
}

bool same_value(const exact_number& x, const exact_number& y) {
  if (auto e = exactly_same(x, y))
    return *e;
  return within_tolerance(x.value, y.value);
}

std::optional<exact_number> parse_exact_number(std::string_view s) {
  s = text::trim(s);
  bool approximate = false;
  if (!s.empty() && s.front() == '~') {
    approximate = true;
    s = text::trim(s.substr(1));
  }
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty())
    return std::nullopt;
  std::optional<exact_number> out;
  if (auto slash = s.find('/'); slash != std::string_view::npos) {
    out = parse_fraction(s.substr(0, slash), s.substr(slash + 1), negative);
  } else if (decimal_length(s, true) == s.size()) {
    out = exact_number{};
    out->value = decimal_value(s, negative);
    out->decimal_key = key_of_token(s, negative);
  }
  if (out)
    out->approximate = approximate;
  return out;
}

} // namespace ij
