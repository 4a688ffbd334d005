#pragma once
// The tests' CPU budget per pair for rules:math. The product's 50 ms is a
// guard against pathological input, not part of any decision the tests
// pin: under AddressSanitizer a slow reading (an interval union, a long
// expression) can spend it and abstain, so a floor or a metamorphic
// comparison would depend on the machine. The budget's own behaviour is
// tested with explicit budgets (math_rule_judge_test).
#include <chrono>

namespace ij::test {

inline constexpr std::chrono::microseconds test_pair_budget{2'000'000};

} // namespace ij::test
