#include "core/numbers/number_text.hpp"

#include <cstdio>

namespace ij {

std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

} // namespace ij
