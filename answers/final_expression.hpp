#pragma once
// Locates the final expression of a text for the symbolic reader, as
// final_answer.hpp does for one number: the last group of boxes listed side
// by side (joined into one list: "\boxed{3}, \boxed{5}" is "3, 5"), else the
// span after the last answer phrase, else the whole text when it is not
// prose, else the last math segment of the prose.
#include <string>
#include <vector>
#include <string_view>

namespace ij {

/// The readings of the final expression: usually one; two when boxes are
/// separated by prose ("\boxed{1} papers and \boxed{2} bins"), which is
/// either a correction (the last group) or a multi-part answer (all boxes):
/// the judge decides only when both readings agree. Empty when there is no
/// final expression.
std::vector<std::string> final_expressions(std::string_view text);

} // namespace ij
