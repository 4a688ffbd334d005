#include "answers/final_expression.hpp"

#include "answers/answer_phrase.hpp"
#include "answers/boxed.hpp"
#include "answers/cleaning.hpp"
#include "answers/prose.hpp"
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

std::vector<std::string> boxed_readings(std::string_view text,
                                        const std::vector<boxed_span>& boxes) {
  std::size_t first = boxes.size() - 1;
  while (first > 0
         && is_list_gap(text.substr(boxes[first - 1].end,
                                    boxes[first].start - boxes[first - 1].end)))
    --first;
  std::vector<std::string> out{joined(boxes, first)};
  if (first > 0)
    out.push_back(joined(boxes, 0));
  return out;
}

/// Math segments joined only by list words ("$21,16$ or $11$",
/// "$6$ and $8$"): one list answer, not prose.
bool joined_math(std::string_view s) {
  auto segs = math_segments(s);
  if (segs.size() < 2)
    return false;
  std::size_t from = 0;
  for (std::size_t k = 0; k <= segs.size(); ++k) {
    const std::size_t to = k < segs.size() ? segs[k].begin : s.size();
    for (std::size_t i = from; i < to;) {
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

std::vector<std::string> final_expressions(std::string_view text) {
  if (auto ascii = halfwidth(text))
    return final_expressions(*ascii);
  auto boxes = boxed_answers(text);
  auto phrase = last_answer_phrase(text);
  const bool phrase_later =
    phrase.at != std::string_view::npos
    && (boxes.empty() || phrase.at > boxes.back().start);
  std::string_view found;
  if (!boxes.empty() && !phrase_later)
    return boxed_readings(text, boxes);
  if (phrase.at != std::string_view::npos && is_retracted(text, phrase))
    return {}; // taken back: no final expression
  if (phrase.at != std::string_view::npos)
    found = is_prose(phrase.span, true) ? last_math_segment(phrase.span)
                                        : phrase.span;
  else if (auto whole = trim(text); !is_prose(whole) || joined_math(whole))
    found = whole;
  else if (auto seg = last_math_segment(whole); !seg.empty())
    found = seg;
  else
    found = whole; // "ab + ac", "even": the reader refuses real prose
  if (trim(found).empty())
    return {};
  return {std::string{trim(found)}};
}

} // namespace ij
