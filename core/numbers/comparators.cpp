#include "core/numbers/comparators.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "core/numbers/answer.hpp"
#include "core/numbers/decimal_value.hpp"
#include "core/text.hpp"

namespace ij {

namespace {

using text::is_digit;
using text::trim;

/// The last match of /[+-]?\d+(,\d{3})*(\.\d+)?/ scanned left to right, as
/// the brittle baseline does: no words, no fractions, no smartness.
std::optional<double> last_number(std::string_view s) {
  std::string_view last;
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    std::size_t start = i;
    std::size_t j = i;
    if ((s[j] == '+' || s[j] == '-') && j + 1 < n && is_digit(s[j + 1]))
      ++j;
    if (!is_digit(s[j])) {
      ++i;
      continue;
    }
    while (j < n && is_digit(s[j]))
      ++j;
    while (j + 3 < n && s[j] == ',' && is_digit(s[j + 1]) && is_digit(s[j + 2])
           && is_digit(s[j + 3]))
      j += 4;
    if (j + 1 < n && s[j] == '.' && is_digit(s[j + 1])) {
      j += 2;
      while (j < n && is_digit(s[j]))
        ++j;
    }
    last = s.substr(start, j - start);
    i = j;
  }
  if (last.empty())
    return std::nullopt;
  bool negative = last.front() == '-';
  if (last.front() == '+' || last.front() == '-')
    last.remove_prefix(1);
  return decimal_value(last, negative);
}

} // namespace

sync_comparator exact_match() {
  return [](std::string_view a, std::string_view b) -> equivalence_outcome {
    if (is_absent(a) || is_absent(b))
      return {std::nullopt, 0.0, "absent", false};
    if (trim(a) == trim(b))
      return {true, 1.0, "exact", false};
    return {false, 1.0, "not exact", false};
  };
}

sync_comparator numeric_match(double abs_tol, double rel_tol) {
  // Details stay within the small-string buffer: no allocation per pair.
  return [abs_tol, rel_tol](std::string_view a,
                            std::string_view b) -> equivalence_outcome {
    auto x = last_number(a);
    auto y = last_number(b);
    if (!x || !y)
      return {std::nullopt, 0.0, "no number", false};
    double tol =
      std::max(abs_tol, rel_tol * std::max(std::fabs(*x), std::fabs(*y)));
    if (*x == *y || std::fabs(*x - *y) <= tol)
      return {true, 1.0, "numeric equal", false};
    return {false, 1.0, "numeric differ", false};
  };
}

async_comparator promote_sync(sync_comparator c) {
  return [c = std::move(c)](std::string_view a, std::string_view b,
                            outcome_handler done) { done(c(a, b)); };
}

} // namespace ij
