#include "core/numbers/answer.hpp"

#include <algorithm>
#include <cctype>

namespace ij {

bool is_absent(std::string_view answer) {
  return std::all_of(answer.begin(), answer.end(),
                     [](unsigned char c) { return std::isspace(c) != 0; });
}

} // namespace ij
