#include "answers/number_value.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace ij {

namespace {

using i128 = __int128;

bool mul_overflows(i128 a, i128 b, i128& r) {
  return __builtin_mul_overflow(a, b, &r);
}

/// Fills decimal_key for an exact rational that terminates.
void set_key_from_rational(number_reading& r) {
  if (r.exact)
    r.decimal_key = terminating_key(*r.exact);
}

double rational_value(const exact_rational& q) {
  return static_cast<double>(static_cast<long double>(q.num)
                             / static_cast<long double>(q.den));
}

/// After exact arithmetic: the key and the double follow from the fraction;
/// without one, `fallback` (the double arithmetic) is the value.
void settle_value(number_reading& r, double fallback) {
  if (!r.exact) {
    r.value = fallback;
    return;
  }
  set_key_from_rational(r);
  r.value = r.decimal_key.empty() ? rational_value(*r.exact)
                                  : std::strtod(r.decimal_key.c_str(), nullptr);
}

} // namespace

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

std::optional<number_reading> divide(const number_reading& a,
                                     const number_reading& b) {
  if (b.value == 0.0)
    return std::nullopt;
  number_reading r;
  if (a.exact && b.exact) {
    i128 num, den;
    if (!mul_overflows(a.exact->num, b.exact->den, num)
        && !mul_overflows(a.exact->den, b.exact->num, den))
      r.exact = make_rational(num, den);
  }
  settle_value(r, a.value / b.value);
  if (!std::isfinite(r.value))
    return std::nullopt;
  if (is_plain_integer(a) && is_plain_integer(b) && r.exact
      && r.exact->den != b.exact->num && r.exact->den != -b.exact->num)
    r.unreduced = true; // reducing changed the denominator
  return r;
}

number_reading add(const number_reading& a, const number_reading& b) {
  number_reading r;
  if (a.exact && b.exact) {
    i128 x, y, d, s;
    if (!mul_overflows(a.exact->num, b.exact->den, x)
        && !mul_overflows(b.exact->num, a.exact->den, y)
        && !mul_overflows(a.exact->den, b.exact->den, d)
        && !__builtin_add_overflow(x, y, &s))
      r.exact = make_rational(s, d);
  }
  settle_value(r, a.value + b.value);
  return r;
}

number_reading as_point_grouped(number_reading r) {
  r.value *= 1000;
  if (r.exact) {
    i128 n;
    if (mul_overflows(r.exact->num, 1000, n))
      r.exact.reset();
    else
      r.exact = make_rational(n, r.exact->den);
  }
  // "-12345e-3" -> "-12345e0": the key's exponent moves by three.
  if (const auto e = r.decimal_key.rfind('e'); e != std::string::npos)
    r.decimal_key =
      r.decimal_key.substr(0, e + 1)
      + std::to_string(std::stol(r.decimal_key.substr(e + 1)) + 3);
  r.places = 0;
  r.point_grouping = false;
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

number_reading hundredth_of(number_reading r) {
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

bool is_proper_positive(const number_reading& r) {
  return r.exact && r.exact->num > 0 && r.exact->num < r.exact->den;
}

bool is_plain_integer(const number_reading& r) {
  return r.exact && r.exact->den == 1 && r.places && *r.places == 0;
}

key_parts split_key(const std::string& key) {
  key_parts p;
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

std::string number_text(const number_reading& r) {
  if (r.approximate) {
    auto exact = r;
    exact.approximate = false;
    return "~" + number_text(exact);
  }
  constexpr __int128 limit = INT64_MAX;
  if (r.decimal_key.empty() && r.exact && r.exact->num <= limit
      && r.exact->num >= -limit && r.exact->den <= limit)
    return std::to_string(static_cast<long long>(r.exact->num)) + "/"
           + std::to_string(static_cast<long long>(r.exact->den));
  if (!r.decimal_key.empty()) {
    if (r.decimal_key == "0")
      return "0";
    auto p = split_key(r.decimal_key);
    std::string sign = p.negative ? "-" : "";
    const long nd = static_cast<long>(p.digits.size());
    if (p.exp >= 0 && nd + p.exp <= 40)
      return sign + p.digits
             + std::string(static_cast<std::size_t>(p.exp), '0');
    if (p.exp < 0 && -p.exp < nd)
      return sign + p.digits.substr(0, static_cast<std::size_t>(nd + p.exp))
             + "." + p.digits.substr(static_cast<std::size_t>(nd + p.exp));
    if (p.exp < 0 && -p.exp - nd <= 20)
      return sign + "0."
             + std::string(static_cast<std::size_t>(-p.exp - nd), '0')
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
