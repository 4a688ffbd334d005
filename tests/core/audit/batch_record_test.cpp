// The audit's batch records (issue 17): the body round trip, which batches
// a resume adopts, reading them back from an audit, and the batch discount.
#include <sstream>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "core/audit/audit_resume.hpp"
#include "core/audit/batch_record.hpp"
#include "core/budgets/judge_budget.hpp"
#include "tests/core/audit/audit_fixture.hpp"

using namespace ij;

namespace {

batch_record mark(batch_step step, std::string key, std::string id = {},
                  std::string state = {}) {
  batch_record r;
  r.step = step;
  r.judge = "openai:judge-model t=0";
  r.key = std::move(key);
  r.batch_id = std::move(id);
  r.state = std::move(state);
  r.at_ms = 1764921600000;
  r.entries = {{"0a1b2c3d4e5f-p1-v0", "p0", 0},
               {"0a1b2c3d4e5f-p1-v1", "p0", 1}};
  return r;
}

batch_record read_back(const std::string& body) {
  rapidjson::Document d;
  d.Parse(body.c_str());
  auto out = read_batch_body(d);
  REQUIRE(out);
  return *out;
}

} // namespace

TEST_CASE("batch record: the body reads back as written") {
  for (auto& r : {mark(batch_step::pending, "k1"),
                  mark(batch_step::submitted, "k1", "batch_7"),
                  mark(batch_step::ended, "k1", "batch_7", "expired")})
    CHECK(read_back(batch_body(r)) == r);
  rapidjson::Document d;
  d.Parse(R"({"step":"paused","judge":"j","key":"k"})");
  CHECK_FALSE(read_batch_body(d));
  d.Parse(R"({"step":"pending","judge":"j"})");
  CHECK_FALSE(read_batch_body(d));
}

TEST_CASE("batch record: read back from a killed run's audit") {
  auto lines = test::chain({
    {"manifest",
     R"({"run_id":"r1","config":{"judges":[{"name":"j","type":"stub","model":"numeric"}]}})"},
    {"batch", batch_body(mark(batch_step::pending, "k1"))},
    {"batch", batch_body(mark(batch_step::submitted, "k1", "b1"))},
  });
  std::string text;
  for (auto& l : lines)
    text += l + "\n";
  std::istringstream in{text};
  auto p = read_resume_point(in);
  REQUIRE(p);
  REQUIRE(p->batches.size() == 2);
  CHECK(p->batches[1] == mark(batch_step::submitted, "k1", "b1"));
  CHECK(p->cut_lines == 0);
}

TEST_CASE("batch discount: batched tokens cost the discounted share") {
  token_prices prices{2.0, 4.0};
  CHECK(prices.batch_discount == 0.5);
  // 1M input + 1M output: 6 in full; half of it batched saves 1.5.
  CHECK(cost_of(1000000, 1000000, prices) == Approx(6.0));
  CHECK(cost_of(1000000, 1000000, 500000, 500000, prices) == Approx(4.5));
  CHECK(cost_of(1000000, 1000000, 1000000, 1000000, prices) == Approx(3.0));
  prices.batch_discount = 1.0;
  CHECK(cost_of(1000000, 1000000, 1000000, 1000000, prices) == Approx(6.0));
  budget_meter meter{judge_budget{}, token_prices{2.0, 4.0}};
  meter.count_tokens(1000000, 1000000, true);
  CHECK(meter.cost() == Approx(3.0));
}
