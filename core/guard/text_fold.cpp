#include "core/guard/text_fold.hpp"

#include <cstdint>

namespace ij {

namespace {

// One UTF-8 sequence at `i`: its code point and length; length 0 for an
// invalid byte.
std::uint32_t decode(std::string_view s, std::size_t i, std::size_t& len) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  auto cont = [&](std::size_t k) {
    return i + k < s.size() && (b(k) & 0xC0) == 0x80;
  };
  unsigned char c = b(0);
  if (c < 0x80) {
    len = 1;
    return c;
  }
  if ((c & 0xE0) == 0xC0 && cont(1)) {
    len = 2;
    return ((c & 0x1Fu) << 6) | (b(1) & 0x3Fu);
  }
  if ((c & 0xF0) == 0xE0 && cont(1) && cont(2)) {
    len = 3;
    return ((c & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
  }
  if ((c & 0xF8) == 0xF0 && cont(1) && cont(2) && cont(3)) {
    len = 4;
    return ((c & 0x07u) << 18) | ((b(1) & 0x3Fu) << 12) | ((b(2) & 0x3Fu) << 6)
           | (b(3) & 0x3Fu);
  }
  len = 0;
  return 0;
}

void encode(std::uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool invisible(std::uint32_t cp) {
  return (cp >= 0x200B && cp <= 0x200F) || cp == 0x2060 || cp == 0xFEFF
         || cp == 0x00AD || (cp >= 0x202A && cp <= 0x202E);
}

// Lower case of the alphabets the answer readers' languages use; anything
// else unchanged.
std::uint32_t lower(std::uint32_t cp) {
  if (cp >= 'A' && cp <= 'Z')
    return cp + 32;
  if ((cp >= 0xC0 && cp <= 0xDE && cp != 0xD7))
    return cp + 32;
  // Latin Extended-A: upper case at even code points (with the exceptions
  // around U+0130..U+0149 and U+0178..U+017E, which alternate the other way).
  if (cp >= 0x100 && cp <= 0x137 && cp % 2 == 0)
    return cp + 1;
  if (cp >= 0x139 && cp <= 0x148 && cp % 2 == 1)
    return cp + 1;
  if (cp >= 0x14A && cp <= 0x177 && cp % 2 == 0)
    return cp + 1;
  if (cp >= 0x179 && cp <= 0x17E && cp % 2 == 1)
    return cp + 1;
  if (cp == 0x1A0 || cp == 0x1AF) // Vietnamese O and U with horn
    return cp + 1;
  if (cp >= 0x391 && cp <= 0x3AB && cp != 0x3A2) // Greek
    return cp + 32;
  if (cp >= 0x410 && cp <= 0x42F) // Cyrillic А..Я
    return cp + 32;
  if (cp >= 0x400 && cp <= 0x40F) // Ѐ..Џ
    return cp + 80;
  // Latin Extended Additional (Vietnamese): upper case at even code points.
  if (cp >= 0x1E00 && cp <= 0x1EFF && cp % 2 == 0)
    return cp + 1;
  return cp;
}

} // namespace

bool word_char_at(std::string_view s, std::size_t i) {
  if (i >= s.size())
    return false;
  std::size_t len = 0;
  auto cp = decode(s, i, len);
  if (len == 0)
    return false;
  return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z')
         || (cp >= 'A' && cp <= 'Z')
         || (cp >= 0xC0 && cp <= 0x24F && cp != 0xD7 && cp != 0xF7)
         || (cp >= 0x370 && cp <= 0x4FF) || (cp >= 0x1E00 && cp <= 0x1EFF);
}

bool ends_in_word_char(std::string_view word) {
  auto last = word.size() - 1;
  while (last > 0 && (static_cast<unsigned char>(word[last]) & 0xC0) == 0x80)
    --last;
  return word_char_at(word, last);
}

std::string fold_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = 0;
    auto cp = decode(s, i, len);
    if (len == 0) {
      out += s[i];
      ++i;
      continue;
    }
    i += len;
    if (invisible(cp))
      continue;
    if (cp >= 0xFF01 && cp <= 0xFF5E) // full-width ASCII
      cp -= 0xFEE0;
    else if (cp == 0x3000 || cp == 0x00A0 || cp == 0x202F || cp == 0x2007)
      cp = ' ';
    else if (cp == 0xFE13 || cp == 0xFE55) // small and vertical colons
      cp = ':';
    else if (cp == 0x2018 || cp == 0x2019 || cp == 0x02BC) // curly apostrophes
      cp = '\'';
    else if (cp == 0x201C || cp == 0x201D) // curly double quotes
      cp = '"';
    encode(lower(cp), out);
  }
  return out;
}

} // namespace ij
