#pragma once
// Locates the final answer in a model's text (docs/ANSWER_READING.md):
// the last \boxed{} (or \fbox{}), or what follows the last "the answer is" /
// "final answer:" / "answer:", whichever comes later; else the whole text
// when it is an answer rather than prose; else, in prose, the last number
// (the value after a trailing "=", a whole $...$ segment, a fraction).
#include <optional>
#include <string_view>

#include "answers/answer_provenance.hpp"
#include "answers/number_reader.hpp"

namespace ij {

struct final_answer {
  /// A view into the text given to find_final_answer.
  std::string_view text;
  answer_locator located_by = answer_locator::whole_text;
};

/// nullopt when there is no single final answer: no number at all in
/// prose, or several boxed answers listed side by side with different
/// contents ("\boxed{2}, \boxed{3}"), or the last number sits in a list,
/// relation or unevaluated expression ("between 3 and 5", "x < 2").
std::optional<final_answer> find_final_answer(std::string_view text);

/// find_final_answer, then read_number on what it found; nullopt when the
/// final answer is not exactly one number.
std::optional<number_reading> read_final_number(std::string_view text);

} // namespace ij
