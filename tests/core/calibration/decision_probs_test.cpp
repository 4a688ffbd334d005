// The judge's own probabilities from token log-probabilities (issue 16
// item 1): the decision token is found after "DECISION:" (or the JSON key),
// its alternatives are mapped to words by prefix and normalised over the
// three; nothing is invented when the tokens do not carry a decision.
#include <cmath>

#include <catch2/catch.hpp>

#include "core/calibration/decision_probs.hpp"

using namespace ij;

namespace {

token_logprob tok(std::string text, double logprob = -0.01,
                  std::vector<std::pair<std::string, double>> top = {}) {
  return token_logprob{std::move(text), logprob, std::move(top)};
}

std::vector<token_logprob>
lines_with(std::vector<std::pair<std::string, double>> top,
           std::string chosen = " EQUIV", double logprob = -0.105) {
  return {tok("DECIS"),  tok("ION"),
          tok(":"),      tok(chosen, logprob, std::move(top)),
          tok("ALENT"),  tok("\n"),
          tok("REASON"), tok(":"),
          tok(" same")};
}

} // namespace

TEST_CASE("decision probs: prefixes map to words and the three are normalised",
          "[core][decision_probs]") {
  auto probs = decision_probs_of(lines_with({{" EQUIV", -0.105},
                                             {" DIFF", -2.4},
                                             {" ABST", -4.6},
                                             {" NOT", -5.0},
                                             {" ", -6.0}}));
  REQUIRE(probs.size() == 3);
  double e = std::exp(-0.105), d = std::exp(-2.4), a = std::exp(-4.6);
  CHECK(probs[0] == Approx(e / (e + d + a)));
  CHECK(probs[1] == Approx(d / (e + d + a)));
  CHECK(probs[2] == Approx(a / (e + d + a)));
  CHECK(probs[0] + probs[1] + probs[2] == Approx(1.0));
}

TEST_CASE("decision probs: tokens of one word add up, case and markup aside",
          "[core][decision_probs]") {
  // " EQ" and "Equivalent" both lead to EQUIVALENT; " DIFFERENT\n" is the
  // whole word followed by a line break; "DIFFERENTLY" is not the word.
  auto probs = decision_probs_of(lines_with({{" EQUIV", std::log(0.5)},
                                             {" EQ", std::log(0.2)},
                                             {"Equivalent", std::log(0.1)},
                                             {" DIFFERENT\n", std::log(0.1)},
                                             {" DIFFERENTLY", std::log(0.05)}},
                                            " EQUIV", std::log(0.5)));
  REQUIRE(probs.size() == 3);
  CHECK(probs[0] == Approx(0.8 / 0.9));
  CHECK(probs[1] == Approx(0.1 / 0.9));
  CHECK(probs[2] == 0.0);
  CHECK(decision_word_of_token("**ABST") == 2);
  CHECK(decision_word_of_token("\"DI") == 1);
  CHECK(decision_word_of_token(" ") == -1);
  CHECK(decision_word_of_token("EQUALS") == -1);
}

TEST_CASE(
  "decision probs: the chosen token counts when its alternatives omit it",
  "[core][decision_probs]") {
  auto probs = decision_probs_of(
    lines_with({{" DIFF", std::log(0.25)}}, " EQUIV", std::log(0.75)));
  REQUIRE(probs.size() == 3);
  CHECK(probs[0] == Approx(0.75));
  CHECK(probs[1] == Approx(0.25));
}

TEST_CASE("decision probs: a JSON reply's decision member carries the decision",
          "[core][decision_probs]") {
  std::vector<token_logprob> tokens{
    tok("{"),
    tok("\""),
    tok("decis"),
    tok("ion"),
    tok("\""),
    tok(":"),
    tok("\""),
    tok("DIFF", std::log(0.6),
        {{"DIFF", std::log(0.6)}, {"ABST", std::log(0.2)}}),
    tok("ERENT"),
    tok("\""),
    tok("}")};
  auto probs = decision_probs_of(tokens);
  REQUIRE(probs.size() == 3);
  CHECK(probs[1] == Approx(0.75));
  CHECK(probs[2] == Approx(0.25));
}

TEST_CASE("decision probs: never invented", "[core][decision_probs]") {
  CHECK(decision_probs_of({}).empty());
  // No DECISION key.
  CHECK(decision_probs_of({tok("EQUIV", -0.1, {{"EQUIV", -0.1}})}).empty());
  // A decision word that is none of the three.
  CHECK(
    decision_probs_of(lines_with({{" MAYBE", -0.1}}, " MAYBE", -0.1)).empty());
  // No mass on any word: OpenAI's -9999 for tokens outside the top 20.
  CHECK(
    decision_probs_of(lines_with({{" NOT", -0.1}}, " EQUIV", -9999.0)).empty());
  // The text ends after the colon.
  CHECK(decision_probs_of({tok("DECISION"), tok(":")}).empty());
}
