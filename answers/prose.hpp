#pragma once
// The shape of a model's text: where its math segments are ($...$, $$...$$,
// \(...\), \[...\]), whether it is prose or an answer on its own, and what
// stands right before a position. Plain scanning over the raw text: no
// regex, no copies.
#include <cstddef>
#include <string_view>
#include <vector>

namespace ij {

/// [begin, end) of the content of one math segment.
struct segment {
  std::size_t begin, end;
};

/// The math segments in text order; an unclosed one runs to the end.
std::vector<segment> math_segments(std::string_view s);

/// The segment holding `pos`, or nullptr.
const segment* segment_holding(const std::vector<segment>& segs,
                               std::size_t pos);

/// Prose has at least two words outside math (or, unless `strict`, one
/// beside a $...$ segment, or one of four letters or more): runs of two or
/// more ASCII letters not starting a command, or runs of letters of other
/// scripts. Words inside braces are command arguments, not prose.
bool is_prose(std::string_view s, bool strict = false);

/// The text before `pos`, spaces, '$' and '*' skipped, ends with `w` (given
/// in lower case; a word must start there).
bool preceded_by(std::string_view s, std::size_t pos, std::string_view w);

/// The position before `pos` with spaces, '$' and '*' skipped.
std::size_t back_skip(std::string_view s, std::size_t pos);

} // namespace ij
