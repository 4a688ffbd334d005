#include "answers/final_answer.hpp"

#include "answers/answer_phrase.hpp"
#include "answers/boxed.hpp"
#include "answers/cleaning.hpp"
#include "answers/prose.hpp"
#include "answers/prose_number.hpp"
#include "core/text.hpp"

namespace ij {

namespace {

using text::trim;

/// find_final_answer, keeping the reading when locating it needed one.
std::optional<final_answer> locate(std::string_view text,
                                   std::optional<number_reading>& reading) {
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
      auto gap = text.substr(boxes[k - 1].end,
                             boxes[k].start - boxes[k - 1].end);
      if (!is_list_gap(gap))
        break;
      if (trim(boxes[k - 1].content) != last)
        return std::nullopt;
      --k;
    }
    return final_answer{last, answer_locator::boxed};
  }
  if (phrase.at != std::string_view::npos) {
    if ((reading = read_number(phrase.span)))
      return final_answer{phrase.span, answer_locator::answer_phrase};
    if (auto lead = leading_number(phrase.span))
      return final_answer{*lead, answer_locator::answer_phrase};
    // After a phrase, prose means a sentence ("The volume of $V$ is
    // 120"), not a label ("choices: (A) 3 (B) 4").
    if (is_prose(phrase.span, true)) {
      if (auto n = last_number_in_prose(phrase.span))
        return final_answer{*n, answer_locator::answer_phrase};
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
  if (auto n = last_number_in_prose(whole))
    return final_answer{*n, answer_locator::last_number};
  return std::nullopt;
}

} // namespace

std::optional<final_answer> find_final_answer(std::string_view text) {
  std::optional<number_reading> unused;
  return locate(text, unused);
}

std::optional<number_reading> read_final_number(std::string_view text) {
  if (auto ascii = halfwidth(text)) // "答案是４２"
    return read_final_number(*ascii);
  std::optional<number_reading> r;
  auto found = locate(text, r);
  if (!found)
    return std::nullopt;
  if (!r)
    r = read_number(found->text);
  if (r && found->located_by == answer_locator::last_number)
    r->unit.clear(); // prose around the number is not its unit
  return r;
}

} // namespace ij
