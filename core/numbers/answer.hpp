#pragma once
#include <string_view>

namespace ij {

/// An answer is absent when it is empty or whitespace only (SPEC §2).
bool is_absent(std::string_view answer);

} // namespace ij
