#pragma once
// "The answer is X", "Final answer: X", "**ANSWER:** X": the span an answer
// phrase introduces, and the number a span opens with ("12, because ...").
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace ij {

/// The span after the last "answer" phrase that has one; `at` is npos when
/// there is none.
struct phrase_hit {
  std::size_t at = std::string_view::npos;
  std::string_view span;
};

/// The last answer word — `answer` (a whole word, case-insensitive) or its
/// French, Spanish, German, Chinese, Arabic, Hindi, Russian counterparts —
/// followed by `:`, `=`, `is`, `is:`, `would be`, `will be`, `est`, `是`,
/// `：` ..., or directly by a value; its span runs to the end of the
/// sentence, never inside math or braces.
phrase_hit last_answer_phrase(std::string_view s);

/// Every answer phrase with a span, in text order (the last is
/// last_answer_phrase's).
std::vector<phrase_hit> answer_phrases(std::string_view s);

/// The phrase at `at` says "final answer" (the word "final" right before
/// the answer word): it settles what was stated before it.
bool is_final_phrase(std::string_view s, std::size_t at);

/// The phrase's span is taken back right after it ("the answer is 5, wait,
/// no, it's 6"; "actually", "sorry", "I mean", "correction", "oops").
bool is_retracted(std::string_view s, const phrase_hit& hit);

/// "12 since ...": a phrase span that opens with a number followed by
/// words rather than operators or list joints; nullopt otherwise, and when
/// another number is joined on later ("5 apples and 3 oranges").
std::optional<std::string_view> leading_number(std::string_view span);

} // namespace ij
