#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "answers/numeric_rule_judge.hpp"
#include "core/verdicts/judge_response.hpp"
#include "text_soup.hpp"

using namespace ij;

namespace {

judge_response judged(std::string_view a, std::string_view b) {
  return parse_judge_response(numeric_rule_reply(a, b));
}

} // namespace

TEST_CASE("numeric rule judge: the reply is the exact four-line format",
          "[numeric_rule_judge]") {
  CHECK(numeric_rule_reply("The answer is 200.", "two hundred")
        == "DECISION: EQUIVALENT\n"
           "REASON: Both final answers are the same number.\n"
           "NUMERIC_A: 200\n"
           "NUMERIC_B: 200\n");
  CHECK(numeric_rule_reply("12", "21")
        == "DECISION: DIFFERENT\n"
           "REASON: The final answers are different numbers.\n"
           "NUMERIC_A: 12\n"
           "NUMERIC_B: 21\n");
  CHECK(numeric_rule_reply("(1, 2)", "3")
        == "DECISION: ABSTAIN\n"
           "REASON: The final answer of A does not read as one number.\n"
           "NUMERIC_A: NULL\n"
           "NUMERIC_B: 3\n");
}

TEST_CASE("numeric rule judge: every reply parses cleanly",
          "[numeric_rule_judge]") {
  for (auto [a, b] : std::initializer_list<std::pair<const char*, const char*>>{
         {"\\boxed{1/2}", "0.5"},
         {"1,234", "1.234"},
         {"", "5"},
         {"5", ""},
         {"x^2", "y"},
         {"12 cm", "12 m"},
         {"1/3", "0.3333"},
         {"50%", "0.5"},
         {"\\sqrt{2}", "1.41"}}) {
    INFO(a << " | " << b);
    auto r = judged(a, b);
    CHECK(r.parse_error.empty());
    CHECK_FALSE(r.extra_text);
    CHECK_FALSE(r.inconsistent);
    CHECK(r.decision != judge_decision::parse_error);
    CHECK_FALSE(r.reason.empty());
  }
}

TEST_CASE("numeric rule judge: decisions", "[numeric_rule_judge]") {
  CHECK(judged("\\boxed{\\frac{1}{2}}", "0.5").decision
        == judge_decision::equivalent);
  CHECK(judged("1,234", "1.234").decision == judge_decision::abstain);
  CHECK(judged("1,234", "2.345").decision == judge_decision::different);
  CHECK(judged("The answer is 12. We used 3 steps of 4.", "12").decision
        == judge_decision::equivalent);
  CHECK(judged("The answer is 12. We used 3 steps of 4.", "4").decision
        == judge_decision::different);
  CHECK(judged("50%", "0.5").decision == judge_decision::equivalent);
  CHECK(judged("1/3", "0.3333").decision == judge_decision::abstain);
  CHECK(judged("12 cm", "12 m").decision == judge_decision::abstain);
  CHECK(judged("(1, 2)", "(1, 2)").decision == judge_decision::abstain);
  CHECK(judged("x + 1", "x + 1").decision == judge_decision::abstain);
}

// The parser drops a reason's trailing '.', as SPEC §5 says.
TEST_CASE("numeric rule judge: missing answers abstain with NULL numerics",
          "[numeric_rule_judge]") {
  auto r = judged("", "5");
  CHECK(r.decision == judge_decision::abstain);
  CHECK(r.reason == "Answer A is missing");
  CHECK_FALSE(r.numeric_a.text);
  CHECK_FALSE(r.numeric_b.text);
  CHECK(judged("5", "  \n").reason == "Answer B is missing");
  CHECK(judged("", " ").reason == "Both answers are missing");
  CHECK(judged("odd", "even").reason
        == "Neither final answer reads as one number");
  CHECK(judged("3", "x").reason
        == "The final answer of B does not read as one number");
}

TEST_CASE("numeric rule judge: numerics shown are the values compared",
          "[numeric_rule_judge]") {
  auto r = judged("12.5%", "0.125");
  CHECK(r.numeric_a.text == std::string{"0.125"});
  CHECK(r.numeric_b.text == std::string{"0.125"});
  auto q = judged("33.5 percent", "33.5");
  CHECK(q.numeric_a.text == std::string{"33.5"});
  auto u = judged("12 cm", "12 m");
  CHECK(u.reason.find("units") != std::string::npos);
  CHECK(u.numeric_a.text == std::string{"12"});
  auto w = judged("\\frac{1}{3}", "0.3333");
  CHECK(w.reason.find("places") != std::string::npos);
}

TEST_CASE("numeric rule judge: any text at all gives a reply that parses",
          "[numeric_rule_judge]") {
  // Texts assembled from the pieces the finder and reader care about,
  // including broken UTF-8, unbalanced braces and huge exponents.
  const std::vector<std::string> pieces{"\\boxed{",
                                        "}",
                                        "{",
                                        "$",
                                        "$$",
                                        "\\frac",
                                        "\\dfrac",
                                        "1",
                                        "0",
                                        ",",
                                        ".",
                                        " ",
                                        "-",
                                        "+",
                                        "/",
                                        "%",
                                        "\\%",
                                        "=",
                                        "x",
                                        "answer",
                                        "The answer is ",
                                        "Final answer:",
                                        "and",
                                        "or",
                                        "\\(",
                                        "\\)",
                                        "\\[",
                                        "\\]",
                                        "(",
                                        ")",
                                        "[",
                                        "]",
                                        "\xC2\xBD",
                                        "\xE2\x88\x92",
                                        "\xC2\xB0",
                                        "^",
                                        "\\circ",
                                        "e",
                                        "12,345",
                                        "0,5",
                                        "twelve",
                                        "hundred",
                                        "and a half",
                                        "point",
                                        "minus",
                                        "\\text{",
                                        "cm",
                                        "\\",
                                        "\\\\",
                                        "\n",
                                        "\xE4\xB8\x87",
                                        "\xE2",
                                        "\xC2",
                                        "9999999999999999999999",
                                        "1e99999",
                                        "\\times",
                                        "10^",
                                        "{,}",
                                        "\\,",
                                        "\\!",
                                        "not",
                                        "lambda",
                                        "()",
                                        "**",
                                        "\\approx",
                                        "quarter",
                                        "third"};
  std::mt19937 rng(1647);
  int decided = 0;
  for (int it = 0; it < 3000; ++it) {
    const auto a = test::text_soup(rng, pieces, 10);
    const auto b = test::text_soup(rng, pieces, 10);
    auto r = judged(a, b);
    INFO(a << " | " << b);
    REQUIRE(r.parse_error.empty());
    REQUIRE_FALSE(r.extra_text);
    REQUIRE(r.decision != judge_decision::parse_error);
    if (r.decision != judge_decision::abstain)
      ++decided;
  }
  CHECK(decided > 0); // the soup does hold some plain numbers
}

TEST_CASE("numeric rule judge: a point before three digits is a decimal or "
          "groups thousands",
          "[numeric_rule_judge]") {
  const auto d = [](const char* a, const char* b) {
    return judged(a, b).decision;
  };
  // The two readings decide differently: abstain.
  CHECK(d("12345", "12.345") == judge_decision::abstain);
  CHECK(d("12345", "Die Antwort lautet 12.345.") == judge_decision::abstain);
  CHECK(d("1.500", "1.5") == judge_decision::abstain);
  CHECK(d("-12.345", "-12345") == judge_decision::abstain);
  CHECK(judged("12345", "12.345").reason.find("thousands separator")
        != std::string::npos);
  // They agree: the decision stands.
  CHECK(d("$12.345$", "12.345") == judge_decision::equivalent);
  CHECK(d("3.142", "3.141") == judge_decision::different);
  CHECK(d("2.500", "4") == judge_decision::different);
  CHECK(d("12.345", "12.346") == judge_decision::different);
  // Not a thousands group: a lead 0, two or four digits after the point,
  // an exponent.
  CHECK(d("0.125", "125") == judge_decision::different);
  CHECK(d("1.2345", "12345") == judge_decision::different);
  CHECK(d("12.34", "1234") == judge_decision::different);
  CHECK(d("1.500e0", "1.5") == judge_decision::equivalent);
  // Several point groups are no decimal: refused, never a wrong value
  // (nor a product of two decimals in the algebra's reading).
  CHECK(d("1.234.567", "1234567") == judge_decision::abstain);
  CHECK(d("1.234.567", "5") == judge_decision::abstain);
  CHECK(d("x", "1.234.567") == judge_decision::abstain);
}
