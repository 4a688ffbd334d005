#include <catch2/catch.hpp>

#include "core/verdicts/outcome_mapping.hpp"

using namespace ij;

namespace {

void check(const equivalence_outcome& o, std::optional<bool> eq,
           double confidence, const std::string& detail, bool fault) {
  CHECK(o.equivalent == eq);
  CHECK(o.confidence == confidence);
  CHECK(o.detail == detail);
  CHECK(o.fault == fault);
}

} // namespace

TEST_CASE("outcome mapping: default (abstain_as_neither = true), every row") {
  check(outcome_of(judge_decision::equivalent), true, 1.0, "EQUIVALENT", false);
  check(outcome_of(judge_decision::different), false, 1.0, "DIFFERENT", false);
  check(outcome_of(judge_decision::abstain), std::nullopt, 0.0, "ABSTAIN",
        false);
  check(outcome_of(judge_decision::parse_error), std::nullopt, 0.0,
        "PARSE_ERROR", false);
}

TEST_CASE("outcome mapping: abstain_as_neither = false, every row") {
  check(outcome_of(judge_decision::equivalent, false), true, 1.0, "EQUIVALENT",
        false);
  check(outcome_of(judge_decision::different, false), false, 1.0, "DIFFERENT",
        false);
  // The safer side: no claim of invariance, and not null either.
  check(outcome_of(judge_decision::abstain, false), false, 0.0, "ABSTAIN",
        false);
  // A parse error stays null whatever the setting.
  check(outcome_of(judge_decision::parse_error, false), std::nullopt, 0.0,
        "PARSE_ERROR", false);
}

TEST_CASE("outcome mapping: absent and adapter failure") {
  check(absent_outcome(), std::nullopt, 0.0, "absent", false);
  check(fault_outcome("connection refused"), std::nullopt, 0.0,
        "connection refused", true);
  check(fault_outcome(""), std::nullopt, 0.0, "", true);
}
