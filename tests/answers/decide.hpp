#pragma once
// rules:math's reply to (A, B) in the tests of the readers: parsed back
// through parse_judge_response, which must find it clean and consistent,
// and its decision. One helper for every test file of tests/answers.
#include <string_view>

#include <catch2/catch.hpp>

#include "answers/math_rule_judge.hpp"
#include "core/verdicts/judge_response.hpp"
#include "tests/answers/test_budget.hpp"

namespace ij::test {

inline judge_response judged(std::string_view a, std::string_view b) {
  auto r = parse_judge_response(math_rule_reply(a, b, test_pair_budget));
  INFO(a << " | " << b << "\n" << r.raw);
  REQUIRE(r.parse_error.empty());
  CHECK_FALSE(r.extra_text);
  CHECK_FALSE(r.inconsistent);
  return r;
}

inline judge_decision decide(std::string_view a, std::string_view b) {
  return judged(a, b).decision;
}

inline constexpr auto eq = judge_decision::equivalent;
inline constexpr auto diff = judge_decision::different;
inline constexpr auto abstain = judge_decision::abstain;

} // namespace ij::test
