#pragma once
// The symbolic reader: a final answer's expression — LaTeX (\frac, \dfrac,
// \sqrt[n]{}, ^{}, \cdot, \times, \pi, e, \infty, \left( \right), \text{},
// trig, log, ln, exp, factorial, binomial), plain text (sqrt(2)/2, 2x+1,
// x^2), implicit multiplication — read into GiNaC expressions and the
// structure around them (math_answer.hpp). A hand-written recursive-descent
// parser: bounded nesting, bounded exponents, factorials and sizes, so that
// nothing a hostile answer says makes GiNaC compute for long; nothing is
// ever evaluated as code.
#include <optional>
#include <string_view>

#include "answers/math_answer.hpp"

namespace ij {

/// Reads `final_answer` (already located: a box's content, the span after
/// "the answer is", a whole short answer); nullopt when it is not read.
/// GiNaC is not thread-safe: callers hold math_lock() (math_equivalence.hpp).
std::optional<math_answer> read_math(std::string_view final_answer,
                                     symbol_table& symbols);

/// How "\log x" without a base is read: the natural logarithm (analysis,
/// most graders), the common one (school texts, log 100 = 2) or the binary
/// one (computer science, log 8 = 3).
enum class log_reading { natural, common, binary };

/// The conventions a text may leave open; the judge decides only when the
/// answers compare the same under each one the text leaves open.
struct math_convention {
  log_reading log = log_reading::natural;
  /// "1/2x" is 1/(2x) (else (1/2)x, left to right).
  bool tight_division = false;
  /// "2\frac{1}{3}" is the mixed number 7/3 (else 2 times 1/3).
  bool mixed_numbers = false;
  /// "g(0)" is g times 0 (else g applied to 0) for a name nothing in the
  /// pair uses as a number.
  bool juxtaposed_products = false;
};

std::optional<math_answer> read_math(std::string_view final_answer,
                                     symbol_table& symbols,
                                     const math_convention& convention);

/// Notes in `symbols` the names `final_answer` uses as numbers (not right
/// before "("), so that "x(x+1)" reads as a product in either answer of
/// the pair.
void note_number_names(std::string_view final_answer, symbol_table& symbols);

/// Something in `final_answer` stands right before "(" ("g(0)", "x_1 (2)",
/// "2(x+1)"): the pair's names may matter to how it reads. A cheap scan
/// that spares the others note_number_names.
bool may_apply_a_name(std::string_view final_answer);

/// The text writes a logarithm without a base ("\log 8", "log(x)"), whose
/// base the reader can only assume.
bool has_unbased_log(std::string_view final_answer);

} // namespace ij
