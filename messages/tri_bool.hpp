#pragma once
// CAF 0.17 has no inspector support for std::optional; nullable booleans cross
// hosts as one byte (0 false, 1 true, 2 null).
#include <cstdint>
#include <optional>

namespace ij {

inline std::uint8_t encode_tri(const std::optional<bool>& x) {
  return !x ? 2 : (*x ? 1 : 0);
}

inline std::optional<bool> decode_tri(std::uint8_t v) {
  if (v == 2)
    return std::nullopt;
  return v == 1;
}

} // namespace ij
