#include "answers/final_answer.hpp"

#include "answers/answer_phrase.hpp"
#include "answers/boxed.hpp"
#include "answers/cleaning.hpp"
#include "answers/number_comparison.hpp"
#include "answers/ordinals.hpp"
#include "answers/prose.hpp"
#include "answers/prose_number.hpp"
#include "answers/units.hpp"
#include "core/text.hpp"

namespace ij {

namespace {

using text::trim;

/// find_final_answer, keeping the reading when locating it needed one.
std::optional<final_answer> locate(std::string_view text,
                                   std::optional<number_reading>& reading,
                                   bool& ambiguous) {
  auto boxes = boxed_answers(text);
  auto phrase = last_answer_phrase(text);

  const bool phrase_later =
    phrase.at != std::string_view::npos
    && (boxes.empty() || phrase.at > boxes.back().start);

  if (!boxes.empty() && !phrase_later) {
    // Boxes listed side by side are one multi-part answer: refused unless
    // they all say the same.
    std::size_t k = boxes.size() - 1;
    const auto last = trim(boxes[k].content);
    while (k > 0) {
      auto gap =
        text.substr(boxes[k - 1].end, boxes[k].start - boxes[k - 1].end);
      if (!is_list_gap(gap))
        break;
      if (trim(boxes[k - 1].content) != last)
        return std::nullopt;
      --k;
    }
    return final_answer{last, answer_locator::boxed};
  }
  if (phrase.at != std::string_view::npos) {
    if (is_retracted(text, phrase))
      return std::nullopt; // "the answer is 5, wait, no, it's 6"
    if ((reading = read_number(phrase.span)))
      return final_answer{phrase.span, answer_locator::answer_phrase};
    if (auto lead = leading_number(phrase.span))
      return final_answer{*lead, answer_locator::answer_phrase};
    // After a phrase, prose means a sentence ("The volume of $V$ is
    // 120"), not a label ("choices: (A) 3 (B) 4").
    if (is_prose(phrase.span, true)) {
      if (auto n = last_number_in_prose(phrase.span)) {
        ambiguous = prose_number_is_ambiguous(phrase.span, *n);
        return final_answer{*n, answer_locator::answer_phrase};
      }
      return std::nullopt;
    }
    return final_answer{phrase.span, answer_locator::answer_phrase};
  }
  auto whole = trim(text);
  const bool prose = is_prose(whole);
  // Long prose is never one number (the longest number words stay well
  // under this): skip reading it whole.
  if (!(prose && whole.size() > 160) && (reading = read_number(whole)))
    return final_answer{whole, answer_locator::whole_text};
  if (!prose)
    return final_answer{whole, answer_locator::whole_text};
  if (auto n = last_number_in_prose(whole)) {
    ambiguous = prose_number_is_ambiguous(whole, *n);
    return final_answer{*n, prose_value_locator(whole, *n)};
  }
  return std::nullopt;
}

/// ...but the word right after it may name one ("It takes 3 hours."), to
/// tell a different explicit unit on the other side.
std::string word_after_as_unit(std::string_view text, std::string_view number) {
  if (number.data() < text.data()
      || number.data() + number.size() > text.data() + text.size())
    return {};
  return unit_after(text, static_cast<std::size_t>(number.data() - text.data())
                            + number.size());
}

/// Another answer stated in `text` with another value than `chosen`: an
/// answer phrase's number, or (when a phrase gave the reading) a box's
/// content. A "final answer" phrase that gave the reading settles it.
bool states_another_answer(std::string_view text, const number_reading& chosen,
                           answer_locator located_by) {
  auto phrases = answer_phrases(text);
  if (located_by == answer_locator::answer_phrase && !phrases.empty()
      && is_final_phrase(text, phrases.back().at))
    return false;
  auto differs = [&](std::string_view stated) {
    auto v = read_number(trim(stated));
    if (!v)
      if (auto lead = leading_number(stated))
        v = read_number(*lead);
    return v
           && compare_numbers(*v, chosen).relation
                == number_relation::different;
  };
  // Boxes among themselves follow the graders' convention (side by side:
  // one multi-part answer; prose between them: the last is a correction).
  if (located_by == answer_locator::answer_phrase)
    for (const auto& b : boxed_answers(text))
      if (differs(b.content))
        return true;
  for (const auto& p : phrases)
    if (differs(p.span))
      return true;
  return false;
}

} // namespace

std::optional<final_answer> find_final_answer(std::string_view text) {
  std::optional<number_reading> unused;
  bool ambiguous = false;
  return locate(text, unused, ambiguous);
}

std::optional<number_reading> read_final_number(std::string_view text) {
  if (auto ascii = halfwidth(text)) // "答案是４２"
    return read_final_number(*ascii);
  std::optional<number_reading> r;
  // "twelfth", "twenty-first": prose to the finder, a number word to the
  // reader ("twenty" and a unit); an ordinal when it is the whole answer.
  if (auto digits = ordinal_digits(text);
      digits && (r = read_number(*digits))) {
    r->ordinal = true;
    return r;
  }
  bool ambiguous = false;
  auto found = locate(text, r, ambiguous);
  if (!found)
    return std::nullopt;
  if (!r)
    r = read_number(found->text);
  if (!r)
    if (auto digits = ordinal_digits(found->text))
      if ((r = read_number(*digits)))
        r->ordinal = true;
  if (r) {
    r->ambiguous = ambiguous;
    r->found_by = found->located_by;
    if (found->located_by == answer_locator::boxed
        || found->located_by == answer_locator::answer_phrase)
      r->contradicted = states_another_answer(text, *r, found->located_by);
  }
  if (r
      && !(found->located_by == answer_locator::boxed
           || found->located_by == answer_locator::answer_phrase
           || found->located_by == answer_locator::whole_text)) {
    r->unit.clear(); // prose around the number is not its unit...
    r->prose_unit = word_after_as_unit(text, found->text);
  }
  return r;
}

} // namespace ij
