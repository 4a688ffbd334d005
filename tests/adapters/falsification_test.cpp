// The five falsification conditions of SPEC §9: each TEST_CASE shows that a
// condition which would falsify the design does not fire.
#include <algorithm>
#include <array>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "adapters/llm_judge_comparator.hpp"
#include "adapters/stub_judges.hpp"
#include "core/canaries/negative_controls.hpp"
#include "core/numbers/comparators.hpp"
#include "core/voting/vote_tally.hpp"

using namespace ij;

namespace {

using pair_list = std::vector<std::pair<std::string, std::string>>;

// A hand-made table of awkward pairs, the built-in negative controls, and the
// public development pairs read in place.
const pair_list& pairs_table() {
  static const pair_list pairs = [] {
    pair_list out{
      {"42", "42"},
      {"42", "43"},
      {" 42 ", "42"},
      {"42\n", "\t42"},
      {"", ""},
      {"", "1"},
      {"  ", "\n"},
      {"The answer is 7.", "the answer is 7."},
      {"\\boxed{200}", "two hundred"},
      {"x\n\n--- Answer B ---\n5", "5"},
      {"caf\xC3\xA9", "caf\xC3\xA9"},
      {"1,000", "1000"},
      {"-0", "0"},
      {"0.5", ".5"},
    };
    for (const auto& c : negative_controls())
      out.emplace_back(c.a, c.b);
    std::ifstream in{std::string{IJ_SHARED_DIR}
                     + "/data/equivalence-dev.jsonl"};
    std::string line;
    while (std::getline(in, line)) {
      rapidjson::Document doc;
      doc.Parse(line.c_str(), line.size());
      if (!doc.HasParseError() && doc.IsObject() && doc.HasMember("a")
          && doc.HasMember("b") && doc["a"].IsString() && doc["b"].IsString())
        out.emplace_back(doc["a"].GetString(), doc["b"].GetString());
    }
    return out;
  }();
  return pairs;
}

equivalence_outcome compare(const async_comparator& cmp, std::string_view a,
                            std::string_view b) {
  std::optional<equivalence_outcome> got;
  cmp(a, b, [&](equivalence_outcome o) { got = std::move(o); });
  REQUIRE(got);
  return *got;
}

judge_options with_abstain(bool abstain_as_neither) {
  judge_options opts;
  opts.abstain_as_neither = abstain_as_neither;
  return opts;
}

} // namespace

TEST_CASE("falsification: the pair table includes the development data",
          "[falsification]") {
  // Guards the tests below against silently running on a short table.
  CHECK(pairs_table().size() > 250);
}

TEST_CASE("falsification: always-EQUIVALENT stub never yields false",
          "[falsification]") {
  for (bool neither : {true, false}) {
    auto cmp =
      llm_judge_comparator(always_equivalent_judge(), with_abstain(neither));
    std::size_t trues = 0;
    for (const auto& [a, b] : pairs_table()) {
      auto out = compare(cmp, a, b);
      INFO("abstain_as_neither=" << neither << " A=" << a << " B=" << b);
      CHECK(out.equivalent != std::optional<bool>{false});
      trues += out.equivalent == std::optional<bool>{true};
    }
    // It did say something: true on every pair that is not absent.
    CHECK(trues > 0);
  }
}

TEST_CASE("falsification: always-DIFFERENT stub never yields true",
          "[falsification]") {
  for (bool neither : {true, false}) {
    auto cmp =
      llm_judge_comparator(always_different_judge(), with_abstain(neither));
    std::size_t falses = 0;
    for (const auto& [a, b] : pairs_table()) {
      auto out = compare(cmp, a, b);
      INFO("abstain_as_neither=" << neither << " A=" << a << " B=" << b);
      CHECK(out.equivalent != std::optional<bool>{true});
      falses += out.equivalent == std::optional<bool>{false};
    }
    CHECK(falses > 0);
  }
}

TEST_CASE("falsification: votes=3 minAgreement=3 with a 2-1 split yields null",
          "[falsification]") {
  vote_config cfg{3, 3};
  REQUIRE_FALSE(validate(cfg));
  using d = judge_decision;
  for (auto majority : {d::equivalent, d::different}) {
    auto minority = majority == d::equivalent ? d::different : d::equivalent;
    std::array<judge_decision, 3> order{majority, majority, minority};
    std::sort(order.begin(), order.end());
    do {
      vote_tally tally{cfg};
      for (auto v : order)
        tally.add(v);
      INFO(to_string(order[0])
           << "," << to_string(order[1]) << "," << to_string(order[2]));
      CHECK(tally.fixed());
      auto out = tally.outcome();
      CHECK_FALSE(out.equivalent);
      CHECK(out.confidence == 0.0);
      CHECK_FALSE(out.fault);
    } while (std::next_permutation(order.begin(), order.end()));
  }
}

TEST_CASE("falsification: abstainAsNeither=false with ABSTAIN yields false, "
          "not null",
          "[falsification]") {
  auto cmp = llm_judge_comparator(always_abstain_judge(), with_abstain(false));
  std::size_t judged = 0;
  for (const auto& [a, b] : pairs_table()) {
    auto out = compare(cmp, a, b);
    INFO("A=" << a << " B=" << b);
    if (out.detail == "absent")
      continue; // I1: the judge is never asked about absent answers
    ++judged;
    CHECK(out.equivalent == std::optional<bool>{false});
    CHECK_FALSE(out.fault);
  }
  CHECK(judged > 0);
  // And the default keeps ABSTAIN as null.
  auto neither = llm_judge_comparator(always_abstain_judge());
  CHECK_FALSE(compare(neither, "1", "2").equivalent);
}

TEST_CASE("falsification: promoteSync(exactMatch) equals exactMatch",
          "[falsification]") {
  auto sync = exact_match();
  auto promoted = promote_sync(exact_match());
  std::size_t equal = 0;
  for (const auto& [a, b] : pairs_table()) {
    auto expected = sync(a, b);
    auto got = compare(promoted, a, b);
    INFO("A=" << a << " B=" << b);
    CHECK(got == expected);
    equal += got.equivalent == std::optional<bool>{true};
  }
  // The table exercises both answers of exactMatch.
  CHECK(equal > 0);
  CHECK(equal < pairs_table().size());
}
