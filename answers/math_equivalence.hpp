#pragma once
// Whether two answers read by the symbolic reader mean the same, by their
// meaning (docs/ANSWER_READING.md §5): tuples element by element in order,
// sets in any order, bare lists in order (a list that only differs in order
// is a tuple or a set of solutions: undecided), intervals by ends and
// brackets, matrices cell by cell, ± as its pair of values, assignments by
// their value, equations by proportionality, inequalities by their solution
// set, text by its words.
#include <mutex>
#include <string>

#include "answers/expression_equality.hpp"
#include "answers/math_answer.hpp"

namespace ij {

math_outcome compare_math(const math_answer& a, const math_answer& b,
                          const pair_budget& budget);

/// One line of canonical text for what was read ("(1, 2)", "sqrt(2)/2",
/// "[0, 1)", "x = 5"), at most about 300 bytes.
std::string math_text(const math_answer& a);

/// GiNaC shares global objects with unsynchronised reference counts: every
/// use of it (reading, comparing, printing, destroying) holds this lock.
std::mutex& math_lock();

} // namespace ij
