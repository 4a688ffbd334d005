#pragma once
// An input a test needs that may be absent outside CI (the shared data set,
// SPEC.md, a browser). With CI=true (.ci/run's machine has them all) its
// absence fails the test: a test that skips there could never fail.
// Elsewhere the test is skipped, saying what is missing.
#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>

namespace ij::test {

inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string{ci} == "true";
}

} // namespace ij::test

/// In a TEST_CASE: when `present` is false, fails under CI=true and
/// otherwise warns and returns (the test is skipped). `what` names the input.
#define IJ_REQUIRE_INPUT(present, what)                                        \
  do {                                                                         \
    if (!(present)) {                                                          \
      if (::ij::test::in_ci())                                                 \
        FAIL("CI=true and a required input is missing: " << what);             \
      WARN("missing input, test skipped (required when CI=true): " << what);   \
      return;                                                                  \
    }                                                                          \
  } while (false)
