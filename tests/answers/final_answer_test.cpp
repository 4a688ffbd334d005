#include <string>

#include <catch2/catch.hpp>

#include "answers/final_answer.hpp"

using namespace ij;

namespace {

std::string found(std::string_view text) {
  auto f = find_final_answer(text);
  return f ? std::string{f->text} : std::string{"<none>"};
}

answer_locator how(std::string_view text) {
  auto f = find_final_answer(text);
  REQUIRE(f);
  return f->located_by;
}

std::optional<double> final_value(std::string_view text) {
  auto r = read_final_number(text);
  if (!r)
    return std::nullopt;
  return r->value;
}

} // namespace

TEST_CASE("final answer: the last \\boxed{} wins, nested braces kept",
          "[final_answer]") {
  CHECK(found("First \\boxed{3}, then \\boxed{\\frac{1}{2}}.")
        == "\\frac{1}{2}");
  CHECK(found("$\\boxed{\\frac{\\sqrt{3}}{2}}$") == "\\frac{\\sqrt{3}}{2}");
  CHECK(found("so \\fbox{7} it is") == "7");
  CHECK(found("The answer is \\boxed 4") == "4");
  CHECK(found("could answer therefore\\\\boxed{840}") == "840");
  CHECK(how("x \\boxed{1}") == answer_locator::boxed);
  // Unbalanced: the rest of the text.
  CHECK(found("\\boxed{12") == "12");
}

TEST_CASE("final answer: boxes listed side by side are one multi-part "
          "answer",
          "[final_answer]") {
  CHECK_FALSE(find_final_answer("\\boxed{2}, \\boxed{3}"));
  CHECK_FALSE(find_final_answer("$\\boxed{1}$ and $\\boxed{2}$"));
  CHECK_FALSE(find_final_answer(
    "\\boxed{k = 45} \\quad \\text{and} \\quad \\boxed{n = 2}"));
  // The same value repeated is one answer; prose between boxes is not a list.
  CHECK(found("\\boxed{4} and \\boxed{4}") == "4");
  CHECK(found("\\boxed{10} and then \\boxed{42}") == "42");
  CHECK(found("So \\boxed{4}. Therefore \\boxed{4}.") == "4");
}

TEST_CASE("final answer: the last answer phrase, case-insensitive",
          "[final_answer]") {
  CHECK(found("The answer is 12.") == "12");
  CHECK(found("the Answer is: 3/4") == "3/4");
  CHECK(found("Final answer: $28\\%$. I hope it is correct.") == "$28\\%$");
  CHECK(found("answer: \xE2\x88\x92"
              "5")
        == "\xE2\x88\x92"
           "5");
  CHECK(found("ANSWER = 9") == "9");
  CHECK(found("The answer is 1. No wait, the final answer is 2.") == "2");
  CHECK(found("**ANSWER: 28 + 32 = 60**\nThis solves the problem.")
        == "28 + 32 = 60");
  CHECK(found("Answer \\[ 9 \\]") == "\\[ 9 \\]");
  CHECK(found("Answer $$ \n 9 \n $$") == "$$ \n 9 \n $$");
  CHECK(how("The answer is 12.") == answer_locator::answer_phrase);
}

TEST_CASE("final answer: answer stated first, other numbers after",
          "[final_answer]") {
  CHECK(found("The answer is 12. We used 3 steps of 4.") == "12");
  CHECK(found("The answer is 12, because 3 times 4 is 12 too") == "12");
  CHECK(found("Thus the answer is 5 since 5 squared is 25.") == "5");
  CHECK(final_value("The answer is 12. We used 3 steps of 4.") == 12.0);
}

TEST_CASE("final answer: a later phrase beats an earlier box, a later box "
          "beats an earlier phrase",
          "[final_answer]") {
  CHECK(found("interest is \\boxed{255}. Final Answer: The final answer is "
              "$10,455$. I hope it is correct.")
        == "$10,455$");
  CHECK(found("Final Answer: see below. Thus $\\boxed{14}$.") == "14");
}

TEST_CASE("final answer: a phrase followed by prose reads the number it "
          "states",
          "[final_answer]") {
  CHECK(final_value("Final Answer: The volume of $ABCDEFGH$ is 120. I hope "
                    "it is correct.")
        == 120.0);
  CHECK(final_value("The answer is \"$12$ and $13$\".") == std::nullopt);
  CHECK(final_value("The answer is 5 or 6.") == std::nullopt);
}

TEST_CASE("final answer: a whole text that is an answer is read as one",
          "[final_answer]") {
  CHECK(found("  3/4 \n") == "3/4");
  CHECK(how("3/4") == answer_locator::whole_text);
  CHECK(found("(1, 2)") == "(1, 2)"); // found, then refused by the reader
  CHECK_FALSE(read_final_number("(1, 2)"));
  CHECK_FALSE(read_final_number("$19, 46, and 82$"));
}

TEST_CASE("final answer: long number words are an answer, not prose",
          "[final_answer]") {
  CHECK(final_value("one hundred twenty three million four hundred fifty six "
                    "thousand seven hundred and eighty nine")
        == 123456789.0);
  CHECK(final_value("two million twenty three thousand and forty nine point "
                    "two three six nine")
        == Approx(2023049.2369));
}

TEST_CASE("final answer: prose falls back to the last number",
          "[final_answer]") {
  CHECK(final_value("First 20 apples, then 5 more, so 25 apples in total.")
        == 25.0);
  // How prose states it (answer_provenance.hpp): its only value, the end
  // of a concluding clause, else the working.
  CHECK(how("so there are 25 apples in total") == answer_locator::only_value);
  CHECK(how("First 20 apples, then 5 more, so 25 apples in total.")
        == answer_locator::conclusion);
  CHECK(how("She had 5 apples. She has 8 apples now.")
        == answer_locator::last_number);
  CHECK(how("Each row has 3 seats and 4 rows make 12 seats, then 2 left.")
        == answer_locator::last_number);
  CHECK(final_value("the result is \xC2\xBD") == 0.5);
  CHECK(final_value("got -\xC2\xBD as the result") == -0.5);
  CHECK(final_value("answer 2\xC2\xBD") == 2.5);
  CHECK(final_value("The total is $1,250.") == 1250.0);
  CHECK(final_value("So the area equals $\\frac{9}{2}$.") == 4.5);
  CHECK(final_value("Therefore, $5 \\times 6 \\times 4 = 120$.") == 120.0);
  CHECK(final_value("so the number is 10 which is 1,000.99m\xC2\xB2")
        == 1000.99);
  // The value after the last '=' of a segment that is not one number.
  CHECK(final_value("Hence $f(2) = 3 + 4 = 7$ as claimed") == 7.0);
  CHECK(final_value("Therefore, x = 5.") == 5.0);
  CHECK(final_value("1) add them 2) the total is 9") == 9.0);
  CHECK_FALSE(read_final_number("odd 5"));
}

TEST_CASE("final answer: prose whose last number is not an answer is "
          "refused",
          "[final_answer]") {
  CHECK_FALSE(read_final_number("The value lies between 3 and 5."));
  CHECK_FALSE(read_final_number("The roots are 2 or 3."));
  CHECK_FALSE(read_final_number("We need x < 4 here."));
  CHECK_FALSE(read_final_number("it is 3 + 4 in the end"));
  CHECK_FALSE(read_final_number("the numbers are 2, 3 in order"));
  CHECK_FALSE(read_final_number("so we take 2x from both sides"));
  CHECK_FALSE(read_final_number("then raise 2^n to the power"));
  CHECK_FALSE(read_final_number("we write it as \\sqrt{2} in the end"));
  CHECK_FALSE(read_final_number("the value is sqrt(2)"));
  CHECK_FALSE(read_final_number("we evaluate f(x, 2) next"));
  CHECK_FALSE(read_final_number("We get it (since 5^2 = 25)"));
  CHECK_FALSE(read_final_number("It is 6, not 5."));
  CHECK_FALSE(read_final_number("Answer choices: (A) 3 (B) 4"));
  CHECK_FALSE(read_final_number("the options are (A) 3 and B) 4"));
  CHECK_FALSE(read_final_number("so it must be more than 5"));
  CHECK_FALSE(read_final_number("The answer is 5 apples and 3 oranges."));
  CHECK_FALSE(read_final_number("no number in this text at all"));
  CHECK_FALSE(find_final_answer("no number in this text at all"));
}

TEST_CASE("final answer: code is never read, never evaluated",
          "[final_answer]") {
  CHECK_FALSE(read_final_number("(lambda: open('marker', 'w'))() or 0"));
  CHECK_FALSE(read_final_number("__import__('os').system('touch m') or 0"));
  CHECK_FALSE(read_final_number("open('marker', 'w').write('x') or 0"));
}

TEST_CASE("final answer: empty and whitespace texts have none",
          "[final_answer]") {
  CHECK_FALSE(read_final_number(""));
  CHECK_FALSE(read_final_number("   \n"));
}
