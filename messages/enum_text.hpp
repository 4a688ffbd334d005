#pragma once
// The from-text half of an enumeration written as text (fault kinds, run
// states, alarm actions, audit record types): the value whose to_string is
// `s`, over the enumeration's list of every value; nullopt for any other
// text. One loop, so that each enumeration has one to_string and reads back
// exactly what it writes.
#include <cstddef>
#include <optional>
#include <string_view>

namespace ij {

template <class E, std::size_t N>
std::optional<E> enum_from_text(const E (&all)[N], std::string_view s) {
  for (auto v : all)
    if (to_string(v) == s)
      return v;
  return std::nullopt;
}

} // namespace ij
