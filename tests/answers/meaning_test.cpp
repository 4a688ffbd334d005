// Readings that keep meaning (docs/ANSWER_READING.md §5): a name before a
// parenthesised argument is an application unless the pair uses the name
// as a number, and a pair the two readings decide differently abstains
// (never a product that vanishes); an equation or relation is compared as
// a whole, its left side dropped only when it is a bare variable or
// function name; equal expressions in another form stay EQUIVALENT.
#include <string>

#include <catch2/catch.hpp>

#include "answers/math_reader.hpp"
#include "answers/math_rule_judge.hpp"
#include "answers/number_reader.hpp"
#include "core/verdicts/judge_response.hpp"
#include "tests/answers/decide.hpp"

using namespace ij;
using namespace ij::test;

TEST_CASE("meaning: a name before a group is an application unless known "
          "to be a number",
          "[meaning]") {
  // g is never a number in the pair: g applied to 0, or g times 0 = 0?
  CHECK(decide("2g(0)", "0") == abstain);
  CHECK(decide("0", "2g(0)") == abstain);
  CHECK(decide("2g(0)", "g(0)") == abstain);
  // Either reading says the same.
  CHECK(decide("g(0)+g(0)", "2g(0)") == eq);
  CHECK(decide("3f(x)", "f(x)+2f(x)") == eq);
  // The name is a number elsewhere in the pair: a product.
  CHECK(decide("x(x+1)", "x^2+x") == eq);
  CHECK(decide("a(b+c)", "ab+ac") == eq);
  CHECK(decide("k(k+1)/2", "\\frac{k^2+k}{2}") == eq);
  CHECK(decide("x(x+1)", "x^2+2x") == diff);
  // A label before a relation is still the function's name.
  CHECK(decide("f(x) = x^2", "x^2") == eq);
}

TEST_CASE("meaning: the application reads its argument as GiNaC prints it",
          "[meaning]") {
  symbol_table symbols;
  auto a = read_math("g(2-1)", symbols);
  auto b = read_math("g(1)", symbols);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->ambiguous_application);
  CHECK((a->value - b->value).is_zero());
  // Noted as a number, the name multiplies.
  symbol_table numbers;
  note_number_names("x+1", numbers);
  auto c = read_math("x(x+1)", numbers);
  REQUIRE(c);
  CHECK_FALSE(c->ambiguous_application);
}

TEST_CASE("meaning: an equation's left side is dropped only when it is a "
          "bare name",
          "[meaning]") {
  CHECK(decide("y = 2x+1", "2x+1") == eq);
  CHECK(decide("g(x) = 2x", "2x") == eq);
  CHECK(decide("x = 3", "3") == eq);
  // An expression on the left: the equation is compared as a whole.
  CHECK(decide("\\tan(x)=c", "\\cot(x)=c") != eq);
  CHECK(decide("\\tan(x)=\\frac{1}{2}", "\\cot(x)=\\frac{1}{2}") != eq);
  CHECK(decide("\\tan(x)=\\frac{1}{2}", "\\frac{1}{2}") == abstain);
  CHECK(decide("tan(x) = 1/2", "1/2") == abstain);
  CHECK(decide("\\sin x = \\frac{1}{2}", "\\frac{1}{2}") == abstain);
  CHECK(decide("x^2 = 4", "4") == abstain);
  CHECK(decide("2x = 6", "6") == abstain);
  CHECK_FALSE(read_number("\\tan(x)=\\frac{1}{2}"));
  CHECK_FALSE(read_number("\\log(x) = 2"));
  CHECK(read_number("f(x) = 2"));
  // Plain arithmetic on the left is a computation whose result is read.
  CHECK(decide("28 + 32 = 60", "60") == eq);
}

TEST_CASE("meaning: equal expressions in another form stay EQUIVALENT",
          "[meaning]") {
  CHECK(decide("1-2\\sin^2 x", "\\cos 2x") == eq);
  CHECK(decide("\\sin 2x", "2\\sin x\\cos x") == eq);
  CHECK(decide("\\frac{x^2-1}{x+1}", "x-1") == eq);
  CHECK(decide("\\tan^2 y + 1", "\\sec^2 y") == eq);
  CHECK(decide("1-2\\sin^2 x", "\\cos x") == diff);
}

TEST_CASE("meaning: a point before three digits is read both ways in "
          "rules:math",
          "[meaning]") {
  // Two numbers (the reply of both rule judges) and a number against an
  // expression (the algebra's): the readings 12.345 and 12345 disagree.
  CHECK(decide("12345", "12.345") == abstain);
  CHECK(decide("12000+345", "12.345") == abstain);
  CHECK(decide("12.345", "12000+345") == abstain);
  // They agree.
  CHECK(decide("\\sqrt{2}+12", "12.345") == diff);
  CHECK(decide("12000+345", "12345") == eq);
  // Points in a row are no number, and no product either.
  CHECK(decide("1.234.567", "1.234 \\cdot 0.567") == abstain);
}
