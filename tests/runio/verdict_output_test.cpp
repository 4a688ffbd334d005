// The output lines: one JSON object each, with the documented fields.
#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "runio/verdict_output.hpp"

using namespace ij;

TEST_CASE(
  "a pair verdict line carries verdict, rule, outcome, votes and label") {
  single_verdict v;
  v.pair_id = "p\"1";
  v.item = "q";
  v.verdict = verdict_kind::violated;
  v.rule = verdict_rule::i5;
  v.outcome.equivalent = false;
  v.outcome.confidence = 0.6;
  v.outcome.detail = "DIFFERENT";
  v.counts = vote_counts{5, 3, 1, 3, 0, 0, 0, 1};
  v.label = true;
  auto line = pair_verdict_line(v);
  rapidjson::Document d;
  d.Parse(line.c_str());
  REQUIRE_FALSE(d.HasParseError());
  CHECK(d["kind"].GetString() == std::string{"pair"});
  CHECK(d["id"].GetString() == std::string{"p\"1"});
  CHECK(d["item"].GetString() == std::string{"q"});
  CHECK(d["verdict"].GetString() == std::string{"VIOLATED"});
  CHECK(d["rule"].GetString() == std::string{"I5"});
  CHECK(d["equivalent"].IsFalse());
  CHECK(d["confidence"].GetDouble() == 0.6);
  CHECK(d["votes"]["votes"].GetUint() == 5);
  CHECK(d["votes"]["min_agreement"].GetUint() == 3);
  CHECK(d["votes"]["equivalent"].GetUint() == 1);
  CHECK(d["votes"]["different"].GetUint() == 3);
  CHECK(d["votes"]["abstain"].GetUint() == 0);
  CHECK(d["votes"]["parse_error"].GetUint() == 0);
  CHECK(d["votes"]["faults"].GetUint() == 0);
  CHECK(d["votes"]["not_cast"].GetUint() == 1);
  CHECK(d["label"].IsTrue());
  CHECK(line.find('\n') == std::string::npos);

  v.outcome.equivalent.reset();
  v.label.reset();
  auto unlabelled = pair_verdict_line(v);
  d.Parse(unlabelled.c_str());
  CHECK(d["equivalent"].IsNull());
  CHECK_FALSE(d.HasMember("label"));
}

TEST_CASE("an item verdict line carries counts, p and the interval") {
  statistical_verdict v;
  v.item = "q";
  v.verdict = verdict_kind::invariant;
  v.rule = verdict_rule::i4;
  v.c1 = 1;
  v.c3 = 2;
  v.c4 = 20;
  v.n = 23;
  v.decided = 20;
  v.p = 1.0;
  v.lo = 0.83;
  v.hi = 1.0;
  rapidjson::Document d;
  d.Parse(item_verdict_line(v).c_str());
  REQUIRE_FALSE(d.HasParseError());
  CHECK(d["kind"].GetString() == std::string{"item"});
  CHECK(d["item"].GetString() == std::string{"q"});
  CHECK(d["verdict"].GetString() == std::string{"INVARIANT"});
  CHECK(d["rule"].GetString() == std::string{"I4"});
  CHECK(d["counts"]["I1"].GetUint() == 1);
  CHECK(d["counts"]["I2"].GetUint() == 0);
  CHECK(d["counts"]["I3"].GetUint() == 2);
  CHECK(d["counts"]["I4"].GetUint() == 20);
  CHECK(d["counts"]["I5"].GetUint() == 0);
  CHECK(d["n"].GetUint() == 23);
  CHECK(d["decided"].GetUint() == 20);
  CHECK(d["p"].GetDouble() == 1.0);
  CHECK(d["lo"].GetDouble() == 0.83);
  CHECK(d["hi"].GetDouble() == 1.0);
}
