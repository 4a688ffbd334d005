#pragma once
// Names that do not matter (docs/ANSWER_READING.md §6): a function's
// argument (f(z) = z and f(x) = x), a declared integer parameter (x = k\pi,
// k \in \mathbb{Z} and n\pi), an antiderivative's constant (+ C). The two
// readings of a pair are aligned before they are compared; a free variable
// that differs for no such reason (x + 1 against y + 1) makes an equality
// only "undecided": the problem may have meant either name.
#include <optional>
#include <set>
#include <string>

#include "answers/math_answer.hpp"

namespace ij {

/// Strips a declaration of an integer parameter from the end of a final
/// expression (", k \in \mathbb{Z}", "(n \in \mathbb Z)", "for any integer
/// k", "where k is an integer") and returns the parameter's name.
std::optional<std::string> strip_integer_parameter(std::string& expression);

/// How the names of two readings were aligned.
enum class naming {
  same,      // nothing renamed, or only names that do not matter
  arbitrary, // one free variable renamed for no stated reason
  unaligned, // several free variables differ: equality cannot be told
};

/// Aligns `b`'s names to `a`'s (both read with one symbol table): drops a
/// lone "+ C" that only one side has, renames function arguments when both
/// define the same function, renames a declared integer parameter, else
/// renames one free variable that differs (naming::arbitrary).
naming align_names(math_answer& a, math_answer& b,
                   const std::set<std::string>& parameters,
                   symbol_table& symbols);

} // namespace ij
