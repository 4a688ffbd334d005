#include "answers/final_expression.hpp"

#include "answers/answer_phrase.hpp"
#include "answers/boxed.hpp"
#include "answers/cleaning.hpp"
#include "answers/prose.hpp"
#include "answers/prose_number.hpp"
#include "core/text.hpp"

namespace ij {

namespace {

using text::trim;

std::string joined(const std::vector<boxed_span>& boxes, std::size_t from) {
  std::string out;
  for (std::size_t k = from; k < boxes.size(); ++k) {
    if (!out.empty())
      out += ", ";
    out += trim(boxes[k].content);
  }
  return out;
}

/// Where a name ending at `end` starts: a letter, with a subscript
/// ("n", "x_1", "a_{k}"), standing on its own (after a space, "$", "(" or
/// the start); npos when there is none.
std::size_t name_before(std::string_view s, std::size_t end) {
  std::size_t k = end;
  if (k > 0 && s[k - 1] == '}') {
    const auto open = s.rfind('{', k - 1);
    if (open == std::string_view::npos || open == 0 || s[open - 1] != '_'
        || k - open > 12)
      return std::string_view::npos;
    for (std::size_t i = open + 1; i + 1 < k; ++i)
      if (!text::is_alpha(s[i]) && !text::is_digit(s[i]))
        return std::string_view::npos;
    k = open - 1;
  } else if (k >= 2 && s[k - 2] == '_'
             && (text::is_alpha(s[k - 1]) || text::is_digit(s[k - 1]))) {
    k -= 2;
  }
  if (k == 0 || !text::is_alpha(s[k - 1]))
    return std::string_view::npos;
  --k;
  if (k > 0 && s[k - 1] != ' ' && s[k - 1] != '$' && s[k - 1] != '(')
    return std::string_view::npos;
  // The whole left side: not the last factor of "2 \cdot n" or "3 + n".
  std::size_t j = k;
  while (j > 0 && s[j - 1] == ' ')
    --j;
  if (j > 0
      && (text::is_digit(s[j - 1])
          || std::string_view{"+-*/=^_{}|&<>"}.find(s[j - 1])
               != std::string_view::npos))
    return std::string_view::npos;
  std::size_t w = j;
  while (w > 0 && text::is_alpha(s[w - 1]))
    --w;
  if (w < j && w > 0 && s[w - 1] == '\\')
    return std::string_view::npos; // "\cdot n =", "\times n ="
  return k;
}

/// "$n = \boxed{1, -2}$": the name before a box that holds a list says
/// whose values they are (a set of solutions), as "$n = 1, -2$" without
/// the box is read. Only a list: a single value reads the same either way,
/// and "x = \boxed{5}" must stay 5 against an equation.
std::string labelled_list(std::string_view text, const boxed_span& box,
                          std::string content) {
  if (content.find(',') == std::string::npos
      || content.find_first_not_of("0123456789,") == std::string::npos)
    return content; // "6,8": a decimal comma as much as a list
  std::size_t k = box.start;
  while (k > 0 && text[k - 1] == ' ')
    --k;
  if (k == 0 || text[k - 1] != '=')
    return content;
  --k;
  while (k > 0 && text[k - 1] == ' ')
    --k;
  const auto at = name_before(text, k);
  if (at == std::string_view::npos)
    return content;
  return std::string{text.substr(at, k - at)} + " = " + content;
}

std::vector<std::string> boxed_readings(std::string_view text,
                                        const std::vector<boxed_span>& boxes) {
  std::size_t first = boxes.size() - 1;
  while (first > 0
         && is_list_gap(text.substr(boxes[first - 1].end,
                                    boxes[first].start - boxes[first - 1].end)))
    --first;
  if (first + 1 == boxes.size()) {
    std::vector<std::string> out{
      labelled_list(text, boxes[first], joined(boxes, first))};
    if (first > 0)
      out.push_back(joined(boxes, 0));
    return out;
  }
  std::vector<std::string> out{joined(boxes, first)};
  if (first > 0)
    out.push_back(joined(boxes, 0));
  return out;
}

/// Math segments joined only by list words ("$21,16$ or $11$",
/// "$6$ and $8$", "$2$、$3$"): one list answer, not prose. Words of other
/// scripts between them are prose.
bool joined_math(std::string_view s) {
  auto segs = math_segments(s);
  if (segs.size() < 2)
    return false;
  std::size_t from = 0;
  for (std::size_t k = 0; k <= segs.size(); ++k) {
    const std::size_t to = k < segs.size() ? segs[k].begin : s.size();
    for (std::size_t i = from; i < to;) {
      if (text::is_non_ascii(s[i])) {
        // The Chinese enumeration comma and list words join; any other
        // letter is prose ("所以…为$$120$$").
        bool joint = false;
        for (std::string_view w :
             {"\xE3\x80\x81", "\xE5\x92\x8C", "\xE6\x88\x96", "\xE4\xB8\x8E",
              "\xE3\x80\x82"}) // 、和或与 and 。
          if (s.substr(i, w.size()) == w) {
            i += w.size();
            joint = true;
            break;
          }
        if (!joint)
          return false;
        continue;
      }
      if (!text::is_alpha(s[i])) {
        ++i;
        continue;
      }
      std::size_t e = i;
      while (e < to && text::is_alpha(s[e]))
        ++e;
      const auto w = s.substr(i, e - i);
      if (!text::iequals(w, "and") && !text::iequals(w, "or"))
        return false;
      i = e;
    }
    if (k < segs.size())
      from = segs[k].end;
  }
  return true;
}

/// The content of the last math segment of prose, if any.
std::string_view last_math_segment(std::string_view s) {
  auto segs = math_segments(s);
  if (segs.empty())
    return {};
  const auto& g = segs.back();
  return trim(s.substr(g.begin, g.end - g.begin));
}

} // namespace

final_expression_set find_final_expressions(std::string_view text) {
  if (auto ascii = halfwidth(text))
    return find_final_expressions(*ascii);
  auto boxes = boxed_answers(text);
  auto phrase = last_answer_phrase(text);
  const bool phrase_later =
    phrase.at != std::string_view::npos
    && (boxes.empty() || phrase.at > boxes.back().start);
  if (!boxes.empty() && !phrase_later)
    return {boxed_readings(text, boxes), answer_locator::boxed};
  if (phrase.at != std::string_view::npos && is_retracted(text, phrase))
    return {}; // taken back: no final expression
  std::string_view found;
  auto how = answer_locator::whole_text;
  if (phrase.at != std::string_view::npos) {
    found = is_prose(phrase.span, true) ? last_math_segment(phrase.span)
                                        : phrase.span;
    how = answer_locator::answer_phrase;
  } else if (auto whole = trim(text); !is_prose(whole) || joined_math(whole)) {
    found = whole;
  } else if (auto seg = last_math_segment(whole); !seg.empty()) {
    found = seg;
    how = prose_value_locator(whole, seg);
  } else {
    // "ab + ac", "even": an answer of one word is the text itself; the
    // reader refuses real prose.
    found = whole;
    if (is_prose(whole, true))
      how = answer_locator::last_number;
  }
  if (trim(found).empty())
    return {};
  return {{std::string{trim(found)}}, how};
}

std::vector<std::string> final_expressions(std::string_view text) {
  return find_final_expressions(text).readings;
}

} // namespace ij
