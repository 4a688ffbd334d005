#pragma once
// Cleaning a final answer before it is scanned: LaTeX delimiters, spacing
// and wrappers dropped, Unicode forms mapped onto the ASCII/LaTeX forms the
// scanner reads, trailing sentence punctuation and markdown removed. Content
// is never reordered, so a cleaned answer means what the written one means.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/text.hpp"

namespace ij {

/// "\," or a thin space in the cleaned text: maybe a thousands gap, else a
/// space.
constexpr char thin_sep = '\x01';

/// Whitespace, or a thin separator.
constexpr bool is_gap(char c) {
  return text::is_space(c) || c == thin_sep;
}

constexpr std::string_view trim_gaps(std::string_view s) {
  return text::trim_if(s, is_gap);
}

/// Plain ASCII without commands, delimiters or braces reads as it is: the
/// common case skips the cleaning copy.
bool needs_cleaning(std::string_view answer);

/// The answer with delimiters, spacing and wrappers removed and Unicode forms
/// mapped to what the scanner reads. A LaTeX line break "\\" becomes a
/// space unless `keep_line_breaks` (a matrix's rows need them); a stray
/// backslash before a space or at the end is dropped.
std::string clean_answer(std::string_view answer,
                         bool keep_line_breaks = false);

/// `text` with full-width forms (０-９, ＋, ．, （ ...) and the ideographic
/// space mapped to ASCII; nullopt when it has none (the common case), so
/// that a caller reading the result again never loops.
std::optional<std::string> halfwidth(std::string_view text);

/// Drops trailing sentence punctuation and markdown, and leading markdown
/// ("**42**." -> "42"); a factorial's "!" stays.
std::string_view strip_punctuation(std::string_view s);

/// Length of the UTF-8 vulgar fraction (½, ⅓, ...) at `i`, 0 if none.
std::size_t vulgar_fraction_length(std::string_view s, std::size_t i);

} // namespace ij
