#pragma once
// \boxed{...} and \fbox{...} answers in a model's text.
#include <cstddef>
#include <string_view>
#include <vector>

namespace ij {

struct boxed_span {
  std::size_t start; // of the command
  std::size_t end;   // past the closing brace
  std::string_view content;
};

/// Every box in text order, with nested braces ("\boxed{\frac{1}{2}}"),
/// also "\boxed 4"; an unbalanced box takes the rest of the text.
std::vector<boxed_span> boxed_answers(std::string_view s);

/// Only separators between two boxes (`,` `;` `and` `or` `\quad`
/// `\text{and}`): they list parts of one answer.
bool is_list_gap(std::string_view gap);

} // namespace ij
