#pragma once
// The words that declare an answer in the languages public math data comes
// in (docs/ANSWER_READING.md §1, the table of markers): the marker itself
// ("answer", "答案", "【答案】", "答：", "答え", "정답", "Ответ", "Réponse",
// "Antwort", "Respuesta", "Resposta", "Risposta", "Đáp án", "A:" on the
// last line, ...), the words between it and the value ("is", "是", "为",
// "は", "은", "lautet", "é", "è", "là", "—"), and the copulas that may
// follow the value ("です", "입니다"). answer_phrase.cpp finds the phrases
// with them.
#include <cstddef>
#include <string_view>

namespace ij {

struct answer_marker {
  /// Bytes of the marker at the position asked; 0 when there is none.
  std::size_t length = 0;
  /// The value must follow a colon ("答：5", "A: 5"), not a word.
  bool needs_colon = false;
  /// The marker also heads worked solutions ("解答：设……"): only a span
  /// that is a value (not a sentence) is an answer after it.
  bool value_only = false;
};

/// The answer marker starting at byte `k` of `s`: ASCII markers
/// case-insensitively and as whole words, the others byte for byte with the
/// boundaries their script needs (a Hangul or Han character right before
/// "답" or "答" makes them part of another word).
answer_marker answer_marker_at(std::string_view s, std::size_t k);

/// The length of a word introducing the value at `i` ("is", "would be",
/// "est", "ist", "lautet", "é", "è", "là", "是", "为", "は", "은", "—",
/// "】", "："); 0 if none.
std::size_t intro_word_at(std::string_view s, std::size_t i);

/// `span` without a copula after its value ("11です" -> "11", "5입니다"
/// -> "5").
std::string_view without_copula(std::string_view span);

/// "<eoa>" (the end-of-answer tag of bracketed answers) at `k`.
bool end_of_answer_tag_at(std::string_view s, std::size_t k);

} // namespace ij
