// Uncertain reading abstains, as a property of the code
// (answers/answer_provenance.hpp): every value the readers return carries
// how it was found, and DIFFERENT needs both answers stated as answers. The
// property test generates pairs whose B hides its answer behind working
// (intermediate values in several languages and notations, then an ending
// the readers cannot read as an answer) and checks that none is DIFFERENT.
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "answers/final_answer.hpp"
#include "answers/final_expression.hpp"
#include "answers/math_rule_judge.hpp"
#include "core/verdicts/judge_response.hpp"
#include "tests/answers/decide.hpp"

using namespace ij;
using namespace ij::test;

namespace {

answer_locator how(const std::string& text) {
  auto r = read_final_number(text);
  REQUIRE(r);
  return r->found_by;
}

/// Working in the texts' usual forms: each step states values that are
/// not the answer.
std::string working_step(std::mt19937& rng) {
  std::uniform_int_distribution<int> n(2, 99), form(0, 7);
  const int a = n(rng), b = n(rng);
  const auto s = [](int v) { return std::to_string(v); };
  switch (form(rng)) {
    case 0: return "First, " + s(a) + " + " + s(b) + " = " + s(a + b) + ".";
    case 1:
      return "Each box holds " + s(a) + " apples, and there are " + s(b)
             + " boxes.";
    case 2: return "$" + s(a) + " \\times " + s(b) + " = " + s(a * b) + "$.";
    case 3:
      return "每个盒子有" + s(a) + "个，" + s(b) + "个盒子共" + s(a * b)
             + "个。";
    case 4: return "We know that $x = " + s(a) + "$ and $y = " + s(b) + "$.";
    case 5: return "Il y a " + s(a) + " pommes et " + s(b) + " poires.";
    case 6:
      return "$$" + s(a) + "\\div " + s(b) + "=" + s(a / b) + "\\cdots "
             + s(a % b) + "$$，";
    default:
      return "<<" + s(a) + "*" + s(b) + "=" + s(a * b) + ">>" + s(a * b)
             + " in the second step";
  }
}

/// An ending that states the answer in a way no reader here reads (a
/// marker of a language it does not know, the answer in words of one, a
/// reference to what came before) or that stops mid-way.
std::string hiding_ending(std::mt19937& rng) {
  std::uniform_int_distribution<int> n(2, 99), form(0, 7);
  const auto v = std::to_string(n(rng));
  switch (form(rng)) {
    case 0: return " Jawabannya adalah tujuh belas.";
    case 1: return " Svaret er sytten, som vist ovenfor.";
    case 2: return " That is the value the question asks for.";
    case 3: return " 以上即为所求。";
    case 4: return " Then the next step is " + v + " \\times";
    case 5: return " (see the table above)";
    case 6: return " Odpowied\xC5\xBA jest w tabeli.";
    default:
      return " and " + v + " of them are left over, as the figure shows.";
  }
}

std::string stated(std::mt19937& rng) {
  std::uniform_int_distribution<int> n(1, 200), form(0, 3);
  const auto v = std::to_string(n(rng));
  switch (form(rng)) {
    case 0: return "\\boxed{" + v + "}";
    case 1: return v;
    case 2: return "The answer is " + v + ".";
    default: return "答案是" + v + "。";
  }
}

} // namespace

TEST_CASE("provenance: every route the finder takes is carried with the value",
          "[provenance]") {
  CHECK(how("so \\boxed{12}") == answer_locator::boxed);
  CHECK(how("The answer is 12.") == answer_locator::answer_phrase);
  CHECK(how("答案是 12。") == answer_locator::answer_phrase);
  CHECK(how("12") == answer_locator::whole_text);
  CHECK(how("The probability is \\frac{1}{6}.") == answer_locator::only_value);
  CHECK(how("3 + 4 = 7, so there are 7 apples.") == answer_locator::conclusion);
  CHECK(how("3 + 4 = 7, then 7 apples are in the bag now.")
        == answer_locator::last_number);
  CHECK(
    find_final_expressions("We get $x = 2$ and then $x = 3$ again.").found_by
    == answer_locator::last_number);
  CHECK(find_final_expressions("\\boxed{(1, 2)}").found_by
        == answer_locator::boxed);
}

TEST_CASE("provenance: the gate on decisions", "[provenance]") {
  using L = answer_locator;
  CHECK(may_say_different(L::boxed, L::answer_phrase));
  CHECK(may_say_different(L::only_value, L::conclusion));
  CHECK_FALSE(may_say_different(L::boxed, L::last_number));
  CHECK_FALSE(may_say_different(L::last_number, L::whole_text));
  CHECK(may_say_equivalent(L::boxed, L::last_number));
  CHECK(may_say_equivalent(L::conclusion, L::only_value));
  CHECK_FALSE(may_say_equivalent(L::only_value, L::last_number));
  CHECK_FALSE(may_say_equivalent(L::last_number, L::last_number));
}

TEST_CASE("provenance: a value from the working never refutes",
          "[provenance]") {
  CHECK(decide("\\boxed{13}", "3 + 4 = 7, then 7 apples are in the bag now.")
        == abstain);
  CHECK(decide("\\boxed{7}", "3 + 4 = 7, then 7 apples are in the bag now.")
        == eq);
  // Two texts' working agreeing is a coincidence of what they discuss.
  CHECK(decide("本市明天将有$$80 \\%$$的地区降水．",
               "$$80 \\%$$的概率也不是指肯定下雨，$$100 \\%$$的概率才是肯定"
               "下雨．$$80 \\%$$的概率是说明有比较大的可能性下雨．")
        == abstain);
}

TEST_CASE("provenance property: B hiding its answer in working is never "
          "DIFFERENT",
          "[provenance]") {
  std::mt19937 rng(2028);
  std::uniform_int_distribution<int> steps(2, 5);
  int read_from_working = 0;
  const int n = 1500;
  for (int i = 0; i < n; ++i) {
    std::string b;
    for (int k = steps(rng); k > 0; --k)
      b += (b.empty() ? "" : " ") + working_step(rng);
    b += hiding_ending(rng);
    const auto a = stated(rng);
    INFO("A: " << a << "\nB: " << b);
    const auto reply = math_rule_reply(a, b, test::test_pair_budget);
    INFO(reply);
    CHECK(parse_judge_response(reply).decision != judge_decision::different);
    if (auto r = read_final_number(b); r && !states_the_answer(r->found_by))
      ++read_from_working;
  }
  // Not vacuous: the reader does pick values from most of that working.
  CHECK(read_from_working > n / 3);
}
