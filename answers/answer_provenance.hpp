#pragma once
// How a final answer was found in its text, carried by every value the
// readers return (a number_reading, a side of rules:math), and the one rule
// that says which decisions a pair of such values may support
// (docs/ANSWER_READING.md §1). A value the text states as its answer (a box,
// an answer marker in any of the languages the readers know, the whole text
// being the answer or prose holding no other value, a concluding clause
// that ends on the value) may prove
// a difference; a value picked from the working (the last number of prose)
// never can: it may only confirm an answer the other side states.

namespace ij {

enum class answer_locator {
  boxed,         // the last \boxed{...} / \fbox{...}
  answer_phrase, // after a declared answer marker: "the answer is", "答案",
                 // "【答案】", "Ответ", "A:" on the last line, ...
  whole_text,    // the text is the answer itself ("3/4", "(1, 2)")
  only_value,    // prose whose only value it is ("The probability is
                 // \frac{4}{11}.")
  conclusion,    // a concluding sentence ("所以 ...", "Therefore ...") that
                 // ends on the value: nothing but a unit after it
  last_number,   // prose: the last number, or the $...$ segment holding it
};

/// The route says "this is the answer" (every route but the working's).
constexpr bool states_the_answer(answer_locator l) {
  return l != answer_locator::last_number;
}

/// The text marks the value as its answer in so many words (a box, a
/// marker) or is nothing but the answer; the only value of prose and the
/// end of a concluding clause state it by the text's shape alone.
constexpr bool marks_the_answer(answer_locator l) {
  return l == answer_locator::boxed || l == answer_locator::answer_phrase
         || l == answer_locator::whole_text;
}

/// DIFFERENT needs both answers stated as answers: a value from the
/// working may be an intermediate result, and another value the text never
/// calls its answer proves nothing.
constexpr bool may_say_different(answer_locator a, answer_locator b) {
  return states_the_answer(a) && states_the_answer(b);
}

/// EQUIVALENT needs both answers stated, or one marked: the other side's
/// working arriving at a marked answer is the confirmation. A value the
/// working of one text shares with the prose of another ("80% of the area"
/// against a solution that discusses 80%) agrees by the coincidence of what
/// both discuss.
constexpr bool may_say_equivalent(answer_locator a, answer_locator b) {
  return (states_the_answer(a) && states_the_answer(b)) || marks_the_answer(a)
         || marks_the_answer(b);
}

} // namespace ij
