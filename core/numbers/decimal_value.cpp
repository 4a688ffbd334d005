#include "core/numbers/decimal_value.hpp"

#include <charconv>
#include <cstdlib>
#include <string>

namespace ij {

double decimal_value(std::string_view token, bool negative) {
  // A stack buffer covers every realistic number; only absurdly long digit
  // strings pay for an allocation.
  char buf[96];
  std::string heap;
  char* out = buf;
  if (token.size() + 2 > sizeof(buf)) {
    heap.resize(token.size() + 2);
    out = heap.data();
  }
  std::size_t len = 0;
  if (negative)
    out[len++] = '-';
  for (char c : token)
    if (c != ',')
      out[len++] = c;
  double value = 0.0;
  auto res = std::from_chars(out, out + len, value);
  if (res.ec == std::errc::result_out_of_range) {
    // from_chars leaves the value untouched here; strtod saturates to
    // ±HUGE_VAL or ±0 as appropriate. The token holds no locale-sensitive
    // character other than '.', and the process keeps the "C" locale.
    out[len] = '\0';
    value = std::strtod(out, nullptr);
  }
  return value;
}

} // namespace ij
