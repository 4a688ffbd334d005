#pragma once
// Tokens of a final answer written in LaTeX or plain text, for the
// symbolic reader. The input is the output of clean_answer (delimiters and
// wrappers dropped, Unicode mapped onto LaTeX). Anything the reader does not
// know (an unknown command, a stray symbol) makes the lexer refuse: the
// judge abstains rather than guess what it means.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace ij {

enum class math_token_kind {
  number,   // "12", "0.25", ".5" (digits with at most one '.')
  name,     // one letter, or a Greek letter's name: a variable
  function, // sin, cos, tan, sec, csc, cot, arcsin, ..., log, ln, exp, lg
  constant, // "pi", "e", "i", "infty"
  command,  // frac, sqrt, binom
  op,       // + - * / ^ ! _ = < > <= >= != , ; ( ) [ ] { } \{ \} | & \\ pm
            // mp cup in approx %
  word,     // "and", "or"
  begin,    // \begin{env}: text is env
  end,      // \end{env}
};

struct math_token {
  math_token_kind kind;
  std::string_view text;
};

/// The tokens of `cleaned`, at most `max_tokens`; nullopt when a part is
/// not understood or there are too many.
std::optional<std::vector<math_token>> lex_math(std::string_view cleaned,
                                                std::size_t max_tokens);

} // namespace ij
