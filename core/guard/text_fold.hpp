#pragma once
// Text folded for matching words in any of the languages the answer readers
// know (issue 29's screening and planted-verdict flags): lower case for
// Latin (with its accented letters, Vietnamese included), Greek and
// Cyrillic; full-width ASCII and the ideographic space as ASCII; the
// full-width colon and comma, curly quotes and apostrophes as ASCII; no-break
// spaces as spaces; and invisible characters (zero-width spaces and joiners,
// the word joiner, soft hyphen, byte-order mark) dropped, so that
// "ＤＥＣＩＳＩＯＮ：" or a zero-width space inside a word cannot hide it.
// Invalid UTF-8 bytes are kept as they are. Pure.
#include <string>
#include <string_view>

namespace ij {

std::string fold_text(std::string_view text);

/// Whether the character at byte `i` of `s` continues a word of an
/// alphabetic script (an ASCII letter or digit, a Latin, Greek or Cyrillic
/// letter): phrases are matched whole, so "solutions" is not "solution".
/// Ideographs and kana are not: a CJK phrase has no word boundary.
bool word_char_at(std::string_view s, std::size_t i);

/// Whether `word` (not empty) ends in such a character: then a match of it
/// must not be followed by one.
bool ends_in_word_char(std::string_view word);

} // namespace ij
