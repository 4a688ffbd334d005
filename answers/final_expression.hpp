#pragma once
// Locates the final expression of a text for the symbolic reader, as
// final_answer.hpp does for one number: the last group of boxes listed side
// by side (joined into one list: "\boxed{3}, \boxed{5}" is "3, 5"), else the
// span after the last answer phrase, else the whole text when it is not
// prose, else the last math segment of the prose.
#include <string>
#include <string_view>
#include <vector>

#include "answers/answer_provenance.hpp"

namespace ij {

/// The readings of the final expression: usually one; two when boxes are
/// separated by prose ("\boxed{1} papers and \boxed{2} bins"), which is
/// either a correction (the last group) or a multi-part answer (all boxes):
/// the judge decides only when both readings agree. Empty when there is no
/// final expression.
std::vector<std::string> final_expressions(std::string_view text);

/// The readings of final_expressions and how they were found: boxed, after
/// an answer marker, the whole text (or math segments joined by "and" /
/// "or"), or the last math segment of prose (the working).
struct final_expression_set {
  std::vector<std::string> readings;
  answer_locator found_by = answer_locator::whole_text;
};

final_expression_set find_final_expressions(std::string_view text);

} // namespace ij
