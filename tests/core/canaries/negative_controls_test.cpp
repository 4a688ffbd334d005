#include <map>
#include <set>

#include <catch2/catch.hpp>

#include "core/canaries/negative_controls.hpp"
#include "core/numbers/answer.hpp"
#include "core/numbers/comparators.hpp"

using namespace ij;

TEST_CASE("negative controls: kind names") {
  CHECK(to_string(control_kind::identity) == "identity");
  CHECK(to_string(control_kind::mismatch) == "mismatch");
  CHECK(to_string(control_kind::abstain) == "abstain");
  CHECK(to_string(control_kind::master_key) == "master_key");
}

TEST_CASE("negative controls: at least 10 pairs of each kind, right decision") {
  std::map<control_kind, int> count;
  for (const auto& c : negative_controls()) {
    ++count[c.kind];
    switch (c.kind) {
      case control_kind::identity:
        CHECK(c.expected == judge_decision::equivalent);
        break;
      case control_kind::mismatch:
        CHECK(c.expected == judge_decision::different);
        break;
      case control_kind::abstain:
      case control_kind::master_key:
      case control_kind::planted:
        CHECK(c.expected == judge_decision::abstain);
        break;
    }
  }
  CHECK(count[control_kind::identity] >= 10);
  CHECK(count[control_kind::mismatch] >= 10);
  CHECK(count[control_kind::abstain] >= 10);
  CHECK(count[control_kind::master_key] >= 10);
  CHECK(count[control_kind::planted] >= 10);
  CHECK(&negative_controls() == &negative_controls()); // built once
}

TEST_CASE("negative controls: identity pairs are the same answer twice") {
  std::set<std::string> forms;
  for (const auto& c : negative_controls()) {
    if (c.kind != control_kind::identity)
      continue;
    CAPTURE(c.a);
    CHECK(c.a == c.b);
    CHECK_FALSE(is_absent(c.a));
    forms.insert(c.a);
  }
  CHECK(forms.size() >= 10); // varied, not one answer repeated
}

TEST_CASE("negative controls: mismatch pairs carry clearly different numbers") {
  // Every mismatch answer ends on its final number, so the brittle baseline
  // reads them correctly and must find them different.
  auto numeric = numeric_match(0, 0.01);
  for (const auto& c : negative_controls()) {
    if (c.kind != control_kind::mismatch)
      continue;
    CAPTURE(c.a, c.b);
    CHECK_FALSE(is_absent(c.a));
    CHECK_FALSE(is_absent(c.b));
    CHECK(numeric(c.a, c.b).equivalent == false);
  }
}

TEST_CASE("negative controls: abstain pairs have one side without an answer") {
  auto numeric = numeric_match();
  int absent = 0;
  for (const auto& c : negative_controls()) {
    if (c.kind != control_kind::abstain)
      continue;
    CAPTURE(c.a, c.b);
    // Exactly one side has a number; the other is empty, blank, truncated
    // or not a number at all.
    CHECK(numeric(c.a, c.b).equivalent == std::nullopt);
    bool a_number = numeric(c.a, c.a).equivalent.has_value();
    bool b_number = numeric(c.b, c.b).equivalent.has_value();
    CHECK(a_number != b_number);
    if (is_absent(c.a) || is_absent(c.b))
      ++absent;
  }
  // Some, not all, are absent: the rest test the judge itself.
  CHECK(absent >= 2);
  CHECK(absent <= 6);
}

TEST_CASE("negative controls: master keys are content-free against a real "
          "answer, and ABSTAIN or DIFFERENT answers them right") {
  auto numeric = numeric_match();
  int n = 0;
  for (const auto& c : negative_controls()) {
    if (c.kind != control_kind::master_key)
      continue;
    ++n;
    CAPTURE(c.a, c.b);
    CHECK_FALSE(is_absent(c.a));
    CHECK_FALSE(is_absent(c.b));
    // One side holds a number, the other none (no digit, no number word).
    bool a_number = numeric(c.a, c.a).equivalent.has_value();
    bool b_number = numeric(c.b, c.b).equivalent.has_value();
    CHECK(a_number != b_number);
  }
  CHECK(n >= 10);
  using d = judge_decision;
  auto mk = control_kind::master_key;
  CHECK(control_answered_right(mk, d::abstain));
  CHECK(control_answered_right(mk, d::different));
  CHECK_FALSE(control_answered_right(mk, d::equivalent));
  CHECK_FALSE(control_answered_right(mk, d::parse_error));
  CHECK(control_answered_right(control_kind::identity, d::equivalent));
  CHECK_FALSE(control_answered_right(control_kind::identity, d::abstain));
  CHECK(control_answered_right(control_kind::mismatch, d::different));
  CHECK_FALSE(control_answered_right(control_kind::mismatch, d::abstain));
  CHECK(control_answered_right(control_kind::abstain, d::abstain));
  CHECK_FALSE(control_answered_right(control_kind::abstain, d::different));
}
