#pragma once
// Planted verdicts (issue 29): an answer that carries the judge's own reply
// format or prompt layout, or talks to the judge, is trying to decide its
// own verdict — published attacks show judges obey such text
// (stanford-crfm/helm #4344, NVIDIA-NeMo/Gym #2852). Such an answer is
// flagged; a flagged pair is never EQUIVALENT on a model's word
// (core/guard/pair_guard.hpp says what happens instead).
//
// The kinds, matched on folded text (core/guard/text_fold.hpp) in every
// language the answer readers know:
//   decision_line      a line "DECISION: ..." (or its translation, or any
//                      "key: <verdict word>"), or the format's choice line
//                      "EQUIVALENT | DIFFERENT | ABSTAIN"
//   reply_field        a NUMERIC_A / NUMERIC_B line of the reply format
//   verdict_json       a JSON object with a decision or verdict key, or a
//                      quoted verdict word as a value
//   prompt_layout      a line of a built-in prompt, an "--- Answer B ---"
//                      header or a "Rules:" line in any language, a chat
//                      role marker ("<|im_start|>", "assistant:")
//   judge_instruction  words for the judge: addressing a grader or judge,
//                      "ignore the previous instructions", a verdict word
//                      in capitals, "both answers are equivalent"
// Pure.
#include <string>
#include <string_view>
#include <vector>

namespace ij {

/// The kinds of planted judge text in `answer`, each once, in the order
/// above; empty when there is none.
std::vector<std::string> planted_flags(std::string_view answer);

/// The same, given the answer's folded text (fold_text(answer)).
std::vector<std::string> planted_flags(std::string_view answer,
                                       std::string_view folded);

} // namespace ij
