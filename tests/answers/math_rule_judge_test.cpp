// rules:math per structure and per policy (docs/ANSWER_READING.md §5-§6),
// its reply format, and its behaviour on hostile input.
#include <chrono>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "answers/final_expression.hpp"
#include "answers/math_equivalence.hpp"
#include "answers/math_reader.hpp"
#include "answers/math_rule_judge.hpp"
#include "core/verdicts/judge_response.hpp"
#include "tests/answers/decide.hpp"
#include "text_soup.hpp"

using namespace ij;
using namespace ij::test;

namespace {

std::string read_as(std::string_view s) {
  std::lock_guard<std::mutex> lock{math_lock()};
  symbol_table symbols;
  auto a = read_math(s, symbols);
  return a ? math_text(*a) : std::string{"<not read>"};
}

} // namespace

TEST_CASE("rules:math: numbers are decided by the number reader first",
          "[math_rule_judge]") {
  CHECK(math_rule_reply("The answer is 200.", "two hundred")
        == "DECISION: EQUIVALENT\n"
           "REASON: Both final answers are the same number.\n"
           "NUMERIC_A: 200\n"
           "NUMERIC_B: 200\n");
  CHECK(decide("1/3", "0.3333") == abstain); // rounding policy, unchanged
  CHECK(decide("50%", "0.5") == eq);
  CHECK(decide("", "x+1") == abstain);
}

TEST_CASE("rules:math: the reader reads LaTeX and plain text into one model",
          "[math_rule_judge]") {
  CHECK(read_as("\\dfrac{\\sqrt{2}}{2}") == "1/2*sqrt(2)");
  CHECK(read_as("sqrt(2)/2") == "1/2*sqrt(2)");
  CHECK(read_as("2x+1") == "1+2*x");
  CHECK(read_as("\\left( 1, 2 \\right)") == "(1, 2)");
  CHECK(read_as("\\{3, 1\\}") == "{3, 1}");
  CHECK(read_as("[0, 1)") == "[0, 1)");
  CHECK(read_as("(1, \\infty)") == "(1, oo)");
  CHECK(read_as("\\sqrt[3]{8}") == "2");
  CHECK(read_as("\\binom{5}{2}") == "10");
  CHECK(read_as("5!") == "120");
  CHECK(read_as("\\begin{pmatrix}1 & 0\\\\0 & 1\\end{pmatrix}")
        == "[(1, 0), (0, 1)]");
  CHECK(read_as("x = 5") == "x = 5");
  CHECK(read_as("1 \\pm \\sqrt{2}") == "{1+sqrt(2), 1-sqrt(2)}");
  CHECK(read_as("\\text{East}") == "east");
  // Not read: prose, unknown commands, code, dates, hostile sizes.
  CHECK(read_as("Let me think") == "<not read>");
  CHECK(read_as("\\int_0^1 x dx") == "<not read>");
  CHECK(read_as("(lambda: 0)()") == "<not read>");
  CHECK(read_as("2023-01-05") == "<not read>");
  CHECK(read_as("2^{100000}") == "<not read>");
  CHECK(read_as("10000!") == "<not read>");
  CHECK(read_as("x^{x^{x^{99999}}}") == "<not read>");
  CHECK(read_as("1,22") == "1, 22"); // a list only against lists: below
  CHECK(read_as("\\infty + 1") == "<not read>");
}

TEST_CASE("rules:math: expressions by exact simplification or evaluation",
          "[math_rule_judge]") {
  CHECK(decide("x^2+2x+1", "(x+1)^2") == eq);
  CHECK(decide("x^2+2x+1", "(x-1)^2") == diff);
  auto exact = judged("\\frac{x^2-1}{x+1}", "x-1");
  CHECK(exact.decision == eq);
  CHECK(exact.reason.find("exact") != std::string::npos);
  auto sampled = judged("\\tan^2(y)+1", "\\sec^2(y)");
  CHECK(sampled.decision == eq);
  CHECK(sampled.reason.find("numerical evaluation") != std::string::npos);
  CHECK(decide("\\sin(2x)", "2\\sin x") == diff);
  // Another variable name: the problem may have meant either (abstain);
  // no renaming makes these equal, so they differ whatever the names.
  CHECK(decide("x^2+2x+1", "y^2+2y+1") == judge_decision::abstain);
  CHECK(decide("x^2+2x+1", "y^2+2y+2") == diff);
  CHECK(decide("\\sqrt{8}", "2\\sqrt{2}") == eq);
  CHECK(decide("\\pi", "22/7") == diff);
}

TEST_CASE("rules:math: equal only on part of the domain abstains",
          "[math_rule_judge]") {
  auto r = judged("\\sqrt{x^2}", "x");
  CHECK(r.decision == abstain);
  CHECK(r.reason.find("positive reals") != std::string::npos);
  CHECK(decide("\\ln(x^2)", "2\\ln x") == abstain);
  CHECK(decide("\\sqrt{x}\\sqrt{y}", "\\sqrt{xy}") == abstain);
  CHECK(decide("\\sqrt{x^2}", "|x|") == eq);
}

TEST_CASE("rules:math: decimals against exact values follow the rounding "
          "policy",
          "[math_rule_judge]") {
  CHECK(decide("\\sqrt{2}", "1.4142135623730951") == eq);
  CHECK(decide("\\sqrt{2}", "1.414") == abstain);
  CHECK(decide("\\sqrt{2}", "1.5") == diff);
  CHECK(decide("\\frac{\\sqrt3}{3} \\approx 0.577", "\\frac{\\sqrt{3}}{3}")
        == eq); // the exact value before \approx is the answer
}

TEST_CASE("rules:math: tuples keep order, sets do not, bare lists abstain "
          "on order",
          "[math_rule_judge]") {
  CHECK(decide("(1, 2)", "(1,2)") == eq);
  CHECK(decide("(1, 2)", "(2, 1)") == diff);
  CHECK(decide("(1, 2, 3)", "(1, 2)") == diff);
  CHECK(decide("\\{1, 2, 3\\}", "\\{3, 2, 1\\}") == eq);
  CHECK(decide("\\{1, 2\\}", "\\{1, 3\\}") == diff);
  CHECK(decide("3, 5, 7", "3, 5, 7") == eq);
  CHECK(decide("3, 5, 7", "7, 5, 3") == abstain);   // a tuple or a set?
  CHECK(decide("3, 5, 7", "\\{7, 5, 3\\}") == eq);  // a list of solutions
  CHECK(decide("\\{1, 2\\}", "(1, 2)") == abstain); // a set written as a tuple
  CHECK(decide("(1,2), (3,4)", "(3,4), (1,2)") == eq); // points: a set
  CHECK(decide("12", "(1, 2)") == diff);
  CHECK(decide("\\{5\\}", "5") == eq);
  // Digit groups joined by commas without spaces: a list against a list,
  // undecided against one number (a decimal comma, thousands marks).
  CHECK(decide("6,8", "6 \\text{ and } 8") == eq);
  CHECK(decide("1,22", "1.22") == abstain);
  CHECK(decide("1,23,456", "123456") == abstain);
  CHECK(decide("x = 2 \\text{ or } x = 3", "\\{3, 2\\}") == eq);
  CHECK(decide("\\boxed{2}, \\boxed{3}", "\\{2, 3\\}") == eq);
}

TEST_CASE("rules:math: plus-minus is the pair of values", "[math_rule_judge]") {
  CHECK(decide("1 \\pm \\sqrt{2}", "\\{1-\\sqrt2, 1+\\sqrt2\\}") == eq);
  // Two values against one of them: no value proves them different.
  CHECK(decide("\\pm 2", "2") == judge_decision::abstain);
  CHECK(decide("\\pm 2", "3") == diff);
  CHECK(decide("x = \\pm 3", "x = 3 \\text{ or } x = -3") == eq);
}

TEST_CASE("rules:math: intervals by ends and brackets", "[math_rule_judge]") {
  CHECK(decide("[0, 1)", "[0,1)") == eq);
  CHECK(decide("(0, 1)", "[0, 1]") == diff);
  CHECK(decide("[0, 1)", "(0, 1]") == diff);
  CHECK(decide("(1, \\infty)", "(1, +\\infty)") == eq);
  CHECK(decide("(2, 12) \\cup (12, 102)", "(12,102) \\cup (2,12)") == eq);
  CHECK(decide("x \\in [-2, 7]", "[-2, 7]") == eq);
  CHECK(decide("-2 < x \\le 7", "(-2, 7]") == eq);
  CHECK(decide("x > 3", "(3, \\infty)") == eq);
  CHECK(decide("x \\ge 3", "(3, \\infty)") == diff);
  CHECK(decide("(\\frac13, 1)", "(0.33, 1)") == abstain); // rounded end
}

TEST_CASE("rules:math: matrices cell by cell", "[math_rule_judge]") {
  CHECK(decide("\\begin{pmatrix}1 & 0\\\\0 & 1\\end{pmatrix}",
               "\\begin{bmatrix}1&0\\\\0&1\\end{bmatrix}")
        == eq);
  CHECK(decide("\\begin{pmatrix}1 & 2\\\\3 & 4\\end{pmatrix}",
               "\\begin{pmatrix}1 & 3\\\\2 & 4\\end{pmatrix}")
        == diff);
  CHECK(decide("\\begin{pmatrix}1 & 2\\end{pmatrix}",
               "\\begin{pmatrix}1\\\\2\\end{pmatrix}")
        == diff);
}

TEST_CASE("rules:math: equations and assignments, the policy",
          "[math_rule_judge]") {
  CHECK(decide("x = 5", "5") == eq);     // the name labels the value
  CHECK(decide("5 = x", "x = 5") == eq); // written the other way round
  CHECK(decide("x = 2", "x = -2") == diff);
  CHECK(decide("y = 2x+1", "2x+1") == eq);
  CHECK(decide("y = 2x+1", "2x - y + 1 = 0") == eq); // both equations
  CHECK(decide("2x+1", "2x - y + 1 = 0")
        == abstain); // an expression is no equation
  CHECK(decide("2x+4y-3=0", "y=-\\frac{1}{2}x+\\frac{3}{4}") == eq);
  CHECK(decide("x + y = 1", "x - y = 1") == diff);
  CHECK(decide("x = 3, y = 4", "y = 4, x = 3") == eq);
  CHECK(decide("x = 3, y = 4", "x = 4, y = 3") == diff);
  CHECK(decide("(x, y) = (1, 2)", "(1, 2)") == eq);
  CHECK(decide("x_1 = 2, x_2 = 5", "5, 2") == eq); // the solutions of x
}

TEST_CASE("rules:math: inequalities by their solution set",
          "[math_rule_judge]") {
  CHECK(decide("x < 1", "-x > -1") == eq);
  CHECK(decide("x < 1", "x > -1") == diff);
  CHECK(decide("2 > x", "x < 2") == eq);
  CHECK(decide("x < 3", "x \\le 3") == diff);
  CHECK(decide("x + y < 1", "y < 1 - x") == eq);
}

TEST_CASE("rules:math: text answers compare as words", "[math_rule_judge]") {
  CHECK(decide("\\text{east}", "\\text{west}") == diff);
  CHECK(decide("\\text{Even}", "even") == eq);
  CHECK(decide("blue", "x = -7") == abstain); // a word against a value
}

TEST_CASE("rules:math: the final expression is found like the final number",
          "[math_rule_judge]") {
  CHECK(final_expressions("Thus the answer is $\\boxed{(1, 2)}$.")
        == std::vector<std::string>{"(1, 2)"});
  CHECK(final_expressions("Therefore $x \\geq 5$ is the solution.")
        == std::vector<std::string>{"x \\geq 5"});
  CHECK(final_expressions("$21,16$ or $11$")
        == std::vector<std::string>{"$21,16$ or $11$"});
  // Boxes with prose between: the last group, or all boxes.
  CHECK(final_expressions("\\boxed{10} and then \\boxed{42}")
        == std::vector<std::string>{"42", "10, 42"});
  CHECK(decide("\\boxed{10} and then \\boxed{42}", "\\{10, 42\\}") == abstain);
  CHECK(decide("\\boxed{10} and then \\boxed{42}", "42") == eq); // numbers
  CHECK(final_expressions("I don't know").size() == 1);
  CHECK(decide("I don't know", "42") == abstain);
}

TEST_CASE("rules:math: NUMERIC_A/B carry the canonical text of what was "
          "read",
          "[math_rule_judge]") {
  auto r = judged("\\left(1, \\frac{1}{2}\\right)", "(1, 0.5)");
  CHECK(r.decision == eq);
  CHECK(r.numeric_a.text == std::string{"(1, 1/2)"});
  CHECK(r.numeric_b.text == std::string{"(1, 1/2)"});
  auto s = judged("\\sqrt{2}", "1.4142135623730951");
  CHECK(s.numeric_a.text == std::string{"sqrt(2)"});
  CHECK(s.numeric_b.text == std::string{"1.4142135623730951"});
}

TEST_CASE("rules:math: a spent budget abstains, and says so",
          "[math_rule_judge]") {
  auto r = parse_judge_response(math_rule_reply("\\tan^2(y)+1", "\\sec^2(y)",
                                                std::chrono::microseconds{0}));
  CHECK(r.decision == judge_decision::abstain);
  CHECK(r.reason.find("budget") != std::string::npos);
  // Numbers do not need the budget.
  CHECK(parse_judge_response(
          math_rule_reply("12", "12", std::chrono::microseconds{0}))
          .decision
        == judge_decision::equivalent);
}

TEST_CASE("rules:math: repeated boxes at the 1 MiB line limit finish and "
          "decide",
          "[math_rule_judge]") {
  // Once super-linear (0.78 s at 193 KB, 4.9 s at 495 KB): every reader is
  // now linear. Just under the 1 MiB line limit.
  std::string same, different;
  while (same.size() + 11 < 1048576 - 64)
    same += "\\boxed{1}, ";
  for (int k = 0; different.size() + 16 < 1048576 - 64; ++k)
    different += "\\boxed{" + std::to_string(k % 97) + "}, ";
  CHECK(decide(same, "1") == eq);                // listed boxes that all say 1
  CHECK(decide(different, "(1, 2)") == abstain); // too long to read
  CHECK(decide(std::string(1048000, 'x'), "x") == abstain);
  std::string parens(1048000, '(');
  CHECK(decide(parens, "1") == abstain);
}

TEST_CASE("rules:math: any text at all gives a reply that parses",
          "[math_rule_judge]") {
  const std::vector<std::string> pieces{"\\boxed{",
                                        "}",
                                        "{",
                                        "$",
                                        "\\frac",
                                        "\\sqrt",
                                        "[",
                                        "]",
                                        "(",
                                        ")",
                                        "\\{",
                                        "\\}",
                                        "1",
                                        "0",
                                        "x",
                                        "y",
                                        ",",
                                        ";",
                                        "=",
                                        "<",
                                        "\\le",
                                        "\\pm",
                                        "\\cup",
                                        "\\infty",
                                        "^",
                                        "!",
                                        "\\begin{pmatrix}",
                                        "\\end{pmatrix}",
                                        "&",
                                        "\\\\",
                                        "\\sin",
                                        "\\ln",
                                        "e",
                                        "i",
                                        "\\pi",
                                        "-",
                                        "+",
                                        "/",
                                        "*",
                                        " and ",
                                        " or ",
                                        "\\text{",
                                        "99999",
                                        "\\binom",
                                        "|",
                                        ".",
                                        "\xC2\xB1",
                                        "\xE2\x88\x9A",
                                        "\xEF\xBC\x91",
                                        "\xE4\xB8\x89",
                                        "answer is "};
  std::mt19937 rng(2505);
  for (int it = 0; it < 1500; ++it) {
    const auto a = test::text_soup(rng, pieces, 12);
    const auto b = test::text_soup(rng, pieces, 12);
    auto r = parse_judge_response(math_rule_reply(a, b));
    INFO(a << " | " << b);
    REQUIRE(r.parse_error.empty());
    REQUIRE_FALSE(r.extra_text);
  }
}

TEST_CASE("rules:math: a broken full-width byte sequence is read once, not "
          "forever",
          "[math_rule_judge]") {
  // Found by the fuzzer: the full-width mapping returned such a text
  // unchanged and the reader read it again without end.
  const std::string broken{"\xEF\xBC\xD7\x90 h"};
  CHECK(decide(broken, "2") == abstain);
  CHECK(decide("\xEF\xBC\x92", "2") == eq); // a real full-width ２
}

// ------------------------------------------------ issue 15: hard answers

namespace {

judge_response judged_under(std::string_view a, std::string_view b,
                            const answer_policy& p) {
  auto r = parse_judge_response(math_rule_reply(a, b, p));
  INFO(a << " | " << b << "\n" << r.raw);
  REQUIRE(r.parse_error.empty());
  CHECK_FALSE(r.inconsistent);
  return r;
}

} // namespace

TEST_CASE("rules:math: the example rows walk-02 and dice-01",
          "[math_rule_judge]") {
  // A trailing aside: several values, nothing says which is the answer.
  CHECK(
    decide("She walks at 5 km/h, that is 1 km every 12 minutes.", "\\boxed{5}")
    == abstain);
  CHECK(decide("1/6", "The probability is \\frac{1}{6}.") == eq);
}

TEST_CASE("rules:math: which value is the answer", "[math_rule_judge]") {
  CHECK(decide("So she ate $\\frac{3}{4}$ of the cake.", "0.75") == eq);
  CHECK(decide("The slope is -\\frac{1}{2}.", "-0.5") == eq);
  CHECK(decide("The probability is \\frac{1}{6}.", "1/5") == diff);
  // Several values in the final sentence: may confirm, never refute.
  CHECK(decide("Thus, 12 apples remain after giving 3 away.", "12") == abstain);
  CHECK(decide("He drove 3 hours at 60 mph and covered 180 miles", "180")
        == eq);
  CHECK(decide("He drove 3 hours at 60 mph and covered 180 miles", "170")
        == abstain);
  // The last number of prose is the working unless the text states it as
  // its answer (answer_provenance.hpp): its only value, or the end of a
  // concluding clause the grammar marks ("so ... = 12."). Working may
  // confirm an answer the other side marks, never refute it.
  CHECK(decide("With 3 boxes of 4, the total is 12.", "13") == abstain);
  CHECK(decide("With 3 boxes of 4, the total is 12.", "12") == eq);
  CHECK(decide("With 3 boxes of 4, so the total is 12.", "13") == diff);
  CHECK(decide("We have 3 boxes, so 3 \\times 4 = 12.", "13") == diff);
  // The value restated in another unit: which one is the answer?
  CHECK(decide("So she has 30 + 15 = 45 minutes in total, which is 3/4 of "
               "an hour.",
               "45")
        == abstain);
  CHECK(decide("Total time is 45 minutes, i.e. 0.75 hours.", "45") == abstain);
  CHECK(decide("Total time is 45 minutes, i.e. 0.75 hours.", "0.75") == eq);
  // Earlier sentences do not make the last one ambiguous; without a
  // conclusion its value is still the working's.
  CHECK(decide("She had 5 apples. She has 8 apples now.", "8") == eq);
  CHECK(decide("She had 5 apples. She has 8 apples now.", "7") == abstain);
  CHECK(decide("She had 5 apples. So she has 8 apples now.", "7") == diff);
}

TEST_CASE("rules:math: names that do not matter", "[math_rule_judge]") {
  CHECK(decide("f(z)=z", "f(x)=x") == eq);
  CHECK(decide("f(n) = 2n+1007", "f(m) = 2m+1007") == eq);
  CHECK(decide("f(n) = 2n+1007", "f(m) = 2m+1008") == diff);
  CHECK(decide("x = k\\pi, k \\in \\mathbb{Z}", "x = n\\pi") == eq);
  CHECK(decide("x = k\\pi, k \\in \\mathbb{Z}", "x = 2n\\pi") == diff);
  CHECK(decide("\\frac{x^3}{3} + C", "\\frac{x^3}{3}") == eq);
  CHECK(decide("\\frac{x^3}{3} + C", "x^3") == diff);
  CHECK(decide("A + B + C", "A + B") == diff); // C is a name there
  CHECK(decide("-\\cos x + C", "-\\cos(x) + K") == eq);
  CHECK(decide("x^2 + C", "x^2 + C") == eq);
  CHECK(decide("5 + C", "5") == diff);
  CHECK(decide("y = x^2 + 1", "x^2 + 1") == eq);
  CHECK(decide("x+1", "y+1") == abstain);
  CHECK(decide("x+1", "y+2") == diff);
  CHECK(decide("x+y", "a+b") == abstain);
}

TEST_CASE("rules:math: shorthand expands", "[math_rule_judge]") {
  CHECK(decide("(\\pm\\sqrt{2}, 0, \\pm\\sqrt{2})",
               "(\\sqrt{2},0,\\sqrt{2}), (\\sqrt{2},0,-\\sqrt{2}), "
               "(-\\sqrt{2},0,\\sqrt{2}), (-\\sqrt{2},0,-\\sqrt{2})")
        == eq);
  CHECK(decide("(\\pm 1, 2)", "(1, 2), (-1, 2)") == eq);
  CHECK(decide("(\\pm 1, 2)", "(1, 2), (-1, 3)") == diff);
  CHECK(decide("12^{\\mathrm{th}}", "12") == eq);
  CHECK(decide("12th", "12") == eq);
  CHECK(decide("twelfth", "12") == eq);
  CHECK(decide("twenty-first", "21") == eq);
  CHECK(decide("\\boxed{13^{\\text{th}}}", "12") == diff);
  CHECK(decide("third", "1/3") == abstain); // a position or a fraction
  CHECK(decide("1, 2, 3", "\\{1, 2, 3\\}") == eq);
  CHECK(decide("[2, 5)", "2 \\le x < 5") == eq);
}

TEST_CASE("rules:math: different shapes abstain unless a value differs",
          "[math_rule_judge]") {
  CHECK(decide("(1, 2)", "x = 1") == abstain);
  CHECK(decide("2, 3", "3") == abstain);
  CHECK(decide("2, 3", "4") == diff);
  CHECK(decide("2", "\\{\\}") == diff); // an empty set holds no value
  CHECK(decide("[0, 1]", "x = 1") == abstain);
}

TEST_CASE("rules:math: the declared answer policy decides and is named",
          "[math_rule_judge][answer_policy]") {
  answer_policy strict, consistent, tolerant, fraction, units, reduced;
  strict.rounding = rounding_policy::strict;
  consistent.rounding = rounding_policy::consistent;
  tolerant.relative_tolerance = 0.01;
  fraction.percent = percent_policy::fraction;
  units.units = unit_policy::strict;
  reduced.fractions = fraction_policy::reduced;
  auto d = judged_under("299.94", "300", {});
  CHECK(d.decision == abstain);
  CHECK(d.reason.find("rounding: abstain") != std::string::npos);
  d = judged_under("299.94", "300", strict);
  CHECK(d.decision == diff);
  CHECK(d.reason.find("rounding: strict") != std::string::npos);
  d = judged_under("299.94", "300", consistent);
  CHECK(d.decision == eq);
  CHECK(d.reason.find("Equal within the declared rounding")
        != std::string::npos);
  CHECK(judged_under("299.94", "302", consistent).decision == diff);
  // Symbolic: a decimal against an exact value.
  CHECK(judged_under("\\sqrt{2}", "1.414", {}).decision == abstain);
  CHECK(judged_under("\\sqrt{2}", "1.414", strict).decision == diff);
  CHECK(judged_under("\\sqrt{2}", "1.414", consistent).decision == eq);
  d = judged_under("10.5%", "10.4%", tolerant);
  CHECK(d.decision == eq);
  CHECK(d.reason.find("declared tolerance") != std::string::npos);
  CHECK(judged_under("10.5%", "10.4%", {}).decision == diff);
  CHECK(judged_under("10%", "10", fraction).decision == diff);
  CHECK(judged_under("10%", "0.1", fraction).decision == eq);
  d = judged_under("5 cm", "5", units);
  CHECK(d.decision == abstain);
  CHECK(d.reason.find("units: strict") != std::string::npos);
  d = judged_under("6/8", "3/4", reduced);
  CHECK(d.decision == diff);
  CHECK(d.reason.find("fractions: reduced") != std::string::npos);
  CHECK(judged_under("6/8", "3/4", {}).decision == eq);
}

TEST_CASE("rules:math: units and choice labels never make a false DIFFERENT",
          "[math_rule_judge]") {
  // A unit in \text after a value is not c times m.
  CHECK(decide("\\boxed{5\\text{ cm}^2}", "5") != diff);
  CHECK(decide("Therefore the area is $24\\text{ cm}^2$.", "24") != diff);
  CHECK(decide("x = 2 \\text{ or } x = 3", "\\{2, 3\\}") == eq); // a joint
  // The word after a number in prose names a unit the other side contradicts.
  CHECK(decide("It takes 3 hours.", "180 minutes") == abstain);
  CHECK(decide("It takes 3 hours.", "3 hours") == eq);
  CHECK(decide("It takes 3 hours.", "4 hours") == diff);
  // Only a unit of the same kind contradicts ("km" is no speed unit's rival).
  CHECK(decide("We divide: 180 / 3 = 60. The speed is 60 km/h.",
               "The answer is 60 km/h.")
        == eq);
  CHECK(decide("So the train moves at 60 km per hour.", "60 km/h") == eq);
  CHECK(decide("The area is 1,200 square metres.", "1200 m^2") == eq);
  // A choice's label before its value.
  CHECK(decide("(B) 4", "4") == eq);
  CHECK(decide("\\textbf{(D) } 24", "24") == eq);
  CHECK(decide("(B) 4", "5") == diff);
  CHECK(decide("\\boxed{(B) 4}", "B") == abstain); // a letter against a value
  CHECK(decide("B", "C") == diff);
  CHECK(decide("The ratio is 3:4", "\\frac{3}{4}") != diff);
}

TEST_CASE("rules:math: a self-contradicting answer is never judged",
          "[math_rule_judge]") {
  CHECK(decide("The answer is 5. The answer is 6.", "6") == abstain);
  CHECK(decide("The answer is 5. The answer is 6.", "5") == abstain);
  CHECK(decide("the answer is 5, wait no it's 6", "5") == abstain);
  CHECK(decide("The answer is 5, actually 6.", "5") == abstain);
  CHECK(decide("\\boxed{5} \\boxed{6}", "5") == abstain);
  CHECK(decide("The answer is 7. So the answer is 7.", "7") == eq);
  // A final answer settles what came before; a set-aside value is no answer.
  CHECK(decide("The answer is \\boxed{5}. Final answer: 6", "6") == eq);
  CHECK(decide("The answer is \\boxed{5}, not 6.", "5") == eq);
}
