// rules:math: readings added to close general gaps (docs/ANSWER_READING.md
// §5-§6): unions of intervals in canonical form, ratios, quoted answers.
// Our own examples, never rows of the public dev set.
#include <string>

#include <catch2/catch.hpp>

#include "answers/math_rule_judge.hpp"
#include "core/verdicts/judge_response.hpp"
#include "tests/answers/decide.hpp"

using namespace ij;
using namespace ij::test;

TEST_CASE("rules:math: unions of intervals compare as sets",
          "[math_rule_judge][math_reading]") {
  // Touching or overlapping pieces merge.
  CHECK(decide("[1, 4] \\cup [4, 9]", "[1, 9]") == eq);
  CHECK(decide("(1, 4] \\cup (4, 9)", "(1, 9)") == eq);
  CHECK(decide("[0, 5] \\cup [2, 8]", "[0, 3] \\cup [1, 8]") == eq);
  CHECK(decide("(-\\infty, 0] \\cup [0, \\infty)", "(-\\infty, \\infty)")
        == eq);
  // A point left out, or a gap, is another set.
  CHECK(decide("(1, 4) \\cup (4, 9)", "(1, 9)") == diff);
  CHECK(decide("[-5, 1]", "(-\\infty, -5] \\cup [1, \\infty)") == diff);
  CHECK(decide("(-\\infty, -5] \\cup [1, \\infty)", "[-5, 1]") == diff);
  CHECK(decide("[0, 1] \\cup [2, 3]", "[0, 3]") == diff);
  CHECK(decide("[0, \\sqrt{2}] \\cup [\\sqrt 2, 3]", "[0, 3]") == eq);
  CHECK(decide("[0, \\sqrt{2}) \\cup (\\sqrt 2, 3]", "[0, 3]") == diff);
  // Unknown or rounded ends: the pieces may merge or not.
  CHECK(decide("[0, a] \\cup [b, 3]", "[0, 3]") == abstain);
  CHECK(decide("[0, 0.33] \\cup [\\frac{1}{3}, 1]", "[0, 1]") == abstain);
  // Overlapping pieces with a written decimal: not piece by piece.
  CHECK(decide("[1, 5] \\cup [2, 9]", "[1, 2] \\cup [1.5, 9]") == abstain);
  CHECK(decide("(-\\infty, 0.5) \\cup (1, \\infty)",
               "(-\\infty, 0.5) \\cup (2, \\infty)")
        == diff);
}

TEST_CASE("rules:math: quotes around an answer phrase's value are no part "
          "of it",
          "[math_rule_judge][math_reading]") {
  CHECK(decide("So the final answer is \"17\". I hope it is correct.", "17")
        == eq);
  CHECK(decide("The answer is \"17\".", "18") == diff);
  CHECK(decide("The final answer is \\\"$2x-3$\\\". Done.", "2x - 3") == eq);
  CHECK(decide("The answer is \xE2\x80\x9C(4, 5)\xE2\x80\x9D.", "(4,5)") == eq);
  CHECK(decide("The answer is '$\\frac{7}{2}$'.", "3.5") == eq);
  // Two quoted values are two answers, not one quoted span.
  CHECK(decide("The answer is \"6\" or \"9\".", "6") == abstain);
}

TEST_CASE("rules:math: ratios compare term by term",
          "[math_rule_judge][math_reading]") {
  CHECK(decide("5:9", "$5 : 9$") == eq);
  CHECK(decide("The ratio of red to blue is $5:9$.", "\\boxed{5:9}") == eq);
  CHECK(decide("5:9", "9:5") == diff); // a ratio has an order
  CHECK(decide("5:9", "5:8") == diff);
  CHECK(decide("2:3:4", "2:3") == diff);
  CHECK(decide("1:\\sqrt{3}", "\\frac{2}{2}:\\sqrt 3") == eq);
  // Proportional terms: the same ratio, but "10:18" may be a clock time.
  CHECK(decide("5:9", "10:18") == abstain);
  // A ratio is not a fraction or a list unless the problem says so.
  CHECK(decide("5:9", "\\frac{5}{9}") == abstain);
  CHECK(decide("5:9", "5, 9") == abstain);
  // A ratio of names labels the value, as "x = 5" does.
  CHECK(decide("$p:q = 5:9$", "5:9") == eq);
  CHECK(decide("$S_{ABC}:S = 5:9$", "5:9") == eq);
  CHECK(decide("$S_{ABC}:S = 5:9$", "4:9") == diff);
}

TEST_CASE("rules:math: a whole subscript of letters is a label",
          "[math_rule_judge][math_reading]") {
  CHECK(decide("$v_{max} = 12$", "12") == eq);
  CHECK(decide("$S_{ABCD} = 2\\sqrt 3$", "$2\\sqrt{3}$") == eq);
  CHECK(decide("$S_{ABCD} = 2\\sqrt 3$", "$3\\sqrt{2}$") == diff);
}

TEST_CASE("rules:math: a name before a boxed list says whose values they are",
          "[math_rule_judge][math_reading]") {
  // "n = 3, -4" is the set of n's values: the order is free.
  CHECK(decide("so the roots are $t = \\boxed{3,-4}$.", "-4, 3") == eq);
  CHECK(decide("so the roots are $t = \\boxed{3,-4}$.", "3, -4") == eq);
  CHECK(decide("so the roots are $t = \\boxed{3,-4}$.", "3, 4") == diff);
  CHECK(decide("so $a_{2} = \\boxed{7, 9}$", "\\{9, 7\\}") == eq);
  // Without a simple name, or with a single value, the box is read alone.
  CHECK(decide("so $2t = \\boxed{3,-4}$.", "-4, 3") == abstain);
  CHECK(decide("so $2 \\cdot t = \\boxed{3,-4}$.", "-4, 3") == abstain);
  CHECK(decide("so $1 + t = \\boxed{3,-4}$.", "-4, 3") == abstain);
  CHECK(decide("so $t = \\boxed{5}$.", "$2t + s = 5$") == abstain);
  // Digit groups are a decimal comma as much as a list.
  CHECK(decide("so $t = \\boxed{3,5}$.", "3.5") == abstain);
}

TEST_CASE("rules:math: an assigned value of digit groups may be a decimal "
          "comma",
          "[math_rule_judge][math_reading]") {
  CHECK(decide("$t = 3,5$", "3.5") == abstain);
  CHECK(decide("$t = 3,5$", "5, 3") == eq);
  CHECK(decide("$t = 3, 5$", "3.5") == diff);
}

TEST_CASE("rules:math: repeating decimals, the real line and the empty set",
          "[math_rule_judge][math_reading]") {
  CHECK(decide("0.\\overline{7}", "\\frac{7}{9}") == eq);
  CHECK(decide("$0.2\\overline{5}$", "\\frac{23}{90}") == eq);
  CHECK(decide("$3.\\overline{12}$", "\\frac{103}{33}") == eq);
  CHECK(decide("0.\\overline{7}", "\\frac{7}{10}") == diff);
  CHECK(decide("0.\\overline{7}", "0.78") == abstain); // a rounding of it
  CHECK(decide("\\overline{AB}", "5") == abstain);     // a segment: unread
  CHECK(decide("\\mathbb{R}", "(-\\infty, \\infty)") == eq);
  CHECK(decide("x \\in \\mathbb{R}", "(-\\infty,\\infty)") == eq);
  CHECK(decide("\\mathbb{R}", "(-\\infty, 2) \\cup (2, \\infty)") == diff);
  CHECK(decide("\\mathbb{Q}", "(-\\infty, \\infty)") == abstain);
  CHECK(decide("\\emptyset", "\\varnothing") == eq);
  CHECK(decide("\\emptyset", "\\{\\}") == eq);
  CHECK(decide("\\varnothing", "\\{0\\}") == diff);
}

TEST_CASE("rules:math: alternatives of inequalities and \\ne are unions",
          "[math_rule_judge][math_reading]") {
  CHECK(
    decide("t < -3 \\text{ or } t \\ge 4", "(-\\infty,-3) \\cup [4,\\infty)")
    == eq);
  CHECK(
    decide("t < -3 \\text{ or } t \\ge 4", "(-\\infty,-3] \\cup [4,\\infty)")
    == diff);
  CHECK(decide("t \\le 2 \\text{ or } t \\ge 2", "\\mathbb{R}") == eq);
  CHECK(decide("t < 5 \\text{ or } t > 5", "t \\ne 5") == eq);
  CHECK(decide("t \\ne 5", "(-\\infty, 5) \\cup (5, \\infty)") == eq);
  CHECK(decide("t \\neq 5", "(-\\infty, 6) \\cup (6, \\infty)") == diff);
  CHECK(decide("t \\ne 5", "t = 5") == diff);
  // Two variables: not one solution set of the line.
  CHECK(decide("t < 0 \\text{ or } s > 0", "(-\\infty, 0)") == abstain);
}

TEST_CASE("rules:math: set-builder braces are the solution set of their "
          "condition",
          "[math_rule_judge][math_reading]") {
  CHECK(decide("\\{t \\mid t \\ge 7\\}", "[7, \\infty)") == eq);
  CHECK(decide("\\{t : t > 7\\}", "[7, \\infty)") == diff);
  CHECK(decide("\\{t | -1 < t \\le 4\\}", "(-1, 4]") == eq);
  CHECK(decide("\\{t \\mid t < 0 \\text{ or } t > 2\\}",
               "(-\\infty, 0) \\cup (2, \\infty)")
        == eq);
  // A condition on other names too is not read.
  CHECK(decide("\\{t \\mid t + s > 1\\}", "(1, \\infty)") == abstain);
}

TEST_CASE("rules:math: an array environment is a matrix",
          "[math_rule_judge][math_reading]") {
  CHECK(decide("\\begin{array}{cc} 5 & 6 \\\\ 7 & 8 \\end{array}",
               "\\begin{pmatrix} 5 & 6 \\\\ 7 & 8 \\end{pmatrix}")
        == eq);
  CHECK(decide("\\left(\\begin{array}{c} 5 \\\\ 6 \\end{array}\\right)",
               "\\begin{pmatrix} 5 \\\\ 7 \\end{pmatrix}")
        == diff);
  // Equations laid out in an array are no matrix.
  CHECK(decide("\\begin{array}{l} t = 1 \\\\ s = 2 \\end{array}",
               "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}")
        == abstain);
}

TEST_CASE("rules:math: a unit after a symbolic value is compared as a unit",
          "[math_rule_judge][math_reading]") {
  // It used to be read as letters: "cm" was c times m, and DIFFERENT.
  CHECK(decide("$4\\pi \\text{ cm}$", "$4\\pi$") == eq);
  CHECK(decide("$4\\pi \\text{ cm}$", "$5\\pi$") == diff);
  CHECK(decide("$9\\sqrt{3}\\text{ m}^2$", "9\\sqrt 3\\text{ m}^2") == eq);
  CHECK(decide("$9\\sqrt{3}\\text{ m}^2$", "9\\sqrt 3\\text{ cm}^2")
        == abstain);
  CHECK(decide("The area is $\\frac{\\sqrt5}{4}\\mbox{ square units}$.",
               "\\sqrt{5}/4")
        == eq);
  // Words that qualify the value are no unit.
  CHECK(decide("$t\\text{ only}$", "t") == abstain);
  CHECK(decide("$t\\text{ is odd}$", "t") == abstain);
  // Degrees against a value without a unit: it may be in radians.
  CHECK(decide("45^\\circ", "\\frac{\\pi}{4}") == abstain);
  CHECK(decide("45^\\circ", "\\sqrt{2025}") == eq);
  // Under a strict unit policy one side's unit is not enough.
  answer_policy strict;
  strict.units = unit_policy::strict;
  auto r = parse_judge_response(
    math_rule_reply("$4\\pi \\text{ cm}$", "$4\\pi$", strict));
  CHECK(r.decision == abstain);
}

TEST_CASE("rules:math: a choice label in any text wrapper is dropped",
          "[math_rule_judge][math_reading]") {
  // It was read as the letter times the value: a false DIFFERENT.
  CHECK(decide("\\text{(C) } 17", "17") == eq);
  CHECK(decide("\\mathrm{(B)}~17", "17") == eq);
  CHECK(decide("\\textbf{(E)}\\ 17", "17") == eq);
  CHECK(decide("\\text{(C) } 17", "18") == diff);
  CHECK(decide("\\text{(C)}", "17") == abstain); // the label alone
}

TEST_CASE("rules:math: a logarithm without a base decides only when its base "
          "does not matter",
          "[math_rule_judge][math_reading]") {
  CHECK(decide("\\log 1000", "3") == abstain); // common logarithm
  CHECK(decide("\\log 16", "4") == abstain);   // binary logarithm
  CHECK(decide("\\log 1000", "7") == diff);    // no base gives 7
  CHECK(decide("\\log 1000", "3\\log 10") == eq);
  CHECK(decide("\\frac{\\log 27}{\\log 3}", "3") == eq);
  CHECK(decide("\\log_{10} 1000", "3") == eq);
  CHECK(decide("\\ln 1000", "3 \\ln 10") == eq);
}

TEST_CASE("rules:math: sin^{-1} is arcsin", "[math_rule_judge][math_reading]") {
  // It was read as 1 / sin: a false DIFFERENT against arcsin.
  CHECK(decide("\\sin^{-1}(t)", "\\arcsin t") == eq);
  CHECK(decide("\\cos^{-1} \\frac{1}{2}", "\\frac{\\pi}{3}") == eq);
  CHECK(decide("\\tan^{-1} 1", "\\frac{\\pi}{4}") == eq);
  CHECK(decide("\\sin^{-1}(t)", "\\frac{1}{\\sin t}") == diff);
  CHECK(decide("\\sin^{2} t + \\cos^2 t", "1") == eq);
  CHECK(decide("\\sec^{-1} 2", "\\frac{\\pi}{3}") == abstain); // unread
}

TEST_CASE("rules:math: \"1/2x\" decides only when both readings agree",
          "[math_rule_judge][math_reading]") {
  CHECK(decide("1/3t", "\\frac{1}{3t}") == abstain); // or t/3
  CHECK(decide("1/3t", "\\frac{t}{3}") == abstain);  // or 1/(3t)
  CHECK(decide("1/3\\pi", "\\frac{\\pi}{3}") == abstain);
  CHECK(decide("1/3t", "5t") == diff);            // neither reading
  CHECK(decide("1/(3t)", "\\frac{1}{3t}") == eq); // brackets settle it
  CHECK(decide("t/3", "\\frac{t}{3}") == eq);
}

TEST_CASE("rules:math: a whole number before a proper fraction inside an "
          "expression decides only when both readings agree",
          "[math_rule_judge][math_reading]") {
  // A mixed number (as the number reader reads one alone) or a product.
  CHECK(decide("(3\\frac{1}{2}, 4)", "(\\frac{7}{2}, 4)") == abstain);
  CHECK(decide("(3\\frac{1}{2}, 4)", "(\\frac{3}{2}, 4)") == abstain);
  CHECK(decide("(3\\frac{1}{2}, 4)", "(9, 4)") == diff);
  CHECK(decide("(3\\frac{5}{2}, 4)", "(\\frac{15}{2}, 4)") == eq); // improper
  CHECK(decide("3\\frac{1}{2}", "3.5") == eq); // the number reader's reading
}

TEST_CASE("rules:math: E notation inside an expression is not read",
          "[math_rule_judge][math_reading]") {
  // "1e-3" was 1 times e minus 3: a false DIFFERENT against 0.001.
  CHECK(decide("(1e-3, 7)", "(0.001, 7)") == abstain);
  CHECK(decide("(4E5, 7)", "(400000, 7)") == abstain);
  CHECK(decide("1e-3", "0.001") == eq); // one number: the number reader's
  CHECK(decide("(3e, 7)", "(3 \\cdot e, 7)") == eq); // Euler's number
}

TEST_CASE("rules:math: an odd root of a negative number is the real one",
          "[math_rule_judge][math_reading]") {
  // GiNaC's principal root made \sqrt[3]{-27} = 1.5 + 2.6i: a false
  // DIFFERENT against -3.
  CHECK(decide("\\sqrt[3]{-27}", "-3") == eq);
  CHECK(decide("\\sqrt[5]{-32} t", "-2t") == eq);
  CHECK(decide("\\sqrt[3]{-27}", "3") == diff);
  CHECK(decide("\\sqrt{-9}", "3i") == eq); // even roots stay principal
  // A power leaves the root open: real or principal?
  CHECK(decide("(-27)^{1/3}", "-3") == abstain);
  CHECK(decide("(-27)^{2/3}", "9") == abstain);
}

TEST_CASE("rules:math: a final factorial of a name or a bracket is kept",
          "[math_rule_judge][math_reading]") {
  // The "!" was dropped as an exclamation: n! was read as n, so n! against
  // n (n-1)! was a false DIFFERENT.
  CHECK(decide("m!", "m \\cdot (m-1)!") == abstain); // not evaluated
  CHECK(decide("m!", "m") == abstain);
  CHECK(decide("(2m)!", "(2m)!") == eq);
  CHECK(decide("4!", "24") == eq);
  CHECK(decide("\\text{Yes!}", "yes") == eq); // an exclamation
}

TEST_CASE("rules:math: an absolute value against a positive constant is "
          "its solution set",
          "[math_rule_judge][math_reading]") {
  CHECK(decide("|t - 4| < 3", "(1, 7)") == eq);
  CHECK(decide("|t - 4| \\le 3", "(1, 7)") == diff);
  CHECK(decide("|4 - t| \\le 3", "1 \\le t \\le 7") == eq);
  CHECK(decide("|t| > 5", "(-\\infty, -5) \\cup (5, \\infty)") == eq);
  CHECK(decide("5 \\le |t|", "(-\\infty, -5) \\cup (5, \\infty)") == diff);
  // Another coefficient or another name in the bars: not read as a set.
  CHECK(decide("|3t - 1| < 2", "(-\\frac13, 1)") == abstain);
  CHECK(decide("|t - s| < 1", "(0, 1)") == abstain);
}
