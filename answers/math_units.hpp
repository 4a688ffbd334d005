#pragma once
// A unit written as text after a symbolic value ("16\pi\text{ cm}^2",
// "\frac{\sqrt 3}{2}\mbox{ m}"): split off, so that the value is read and
// the unit compared as the number reader's units are (docs/
// ANSWER_READING.md §3: ignored when only one side has one, different
// units on both sides abstain). Read as letters, "cm" would be c times m.
#include <optional>
#include <string>
#include <string_view>

namespace ij {

struct unit_split {
  std::string expression; // the value, without the unit
  std::string unit;       // normalised ("cm", "cm^2", "square unit")
};

/// The value and its unit when `e` ends with \text{...}, \mathrm{...},
/// \textrm{...} or \mbox{...} (with an optional ^2 or ^3) holding unit
/// words right after a value; nullopt otherwise.
std::optional<unit_split> trailing_unit(std::string_view e);

} // namespace ij
