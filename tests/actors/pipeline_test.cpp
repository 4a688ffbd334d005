// The pipeline: manifest first, verdicts only after their records, the audit
// chain, finish semantics (SPEC §10, §11).
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>

#include <rapidjson/document.h>

#include "actors/pipeline.hpp"
#include "actors/pipeline_settings.hpp"
#include "adapters/stub_judges.hpp"
#include "core/audit_chain.hpp"
#include "core/prompt.hpp"
#include "core/sha256.hpp"
#include "test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

pipeline_settings settings_for(std::vector<judge_adapter_ptr> adapters,
                               const std::string& path,
                               vote_config votes = {1, 1}) {
  pipeline_settings s;
  int n = 0;
  for (auto& a : adapters) {
    judge_binding b;
    b.spec.name = "judge" + std::to_string(n++);
    b.spec.type = "stub";
    b.spec.model = "scripted";
    b.spec.seed = 7;
    b.spec.api_key_env = "IJ_TEST_FAKE_KEY";
    b.adapter = a;
    s.judges.push_back(b);
  }
  s.votes = votes;
  s.audit_path = path;
  s.detached_logger = false;
  s.config_source = "test";
  s.config_json = R"({"votes":1,"judge":"stub"})";
  s.vote_deadline = std::chrono::seconds(10);
  return s;
}

answer_pair pair_of(std::string id, std::string item, std::string a,
                    std::string b) {
  answer_pair p;
  p.id = std::move(id);
  p.item = std::move(item);
  p.a = std::move(a);
  p.b = std::move(b);
  return p;
}

struct record {
  std::string type;
  rapidjson::Document doc;
};

std::vector<record> records_of(const std::string& text) {
  std::vector<record> out;
  for (auto& line : lines_of(text)) {
    record r;
    r.doc.Parse(line.c_str());
    REQUIRE_FALSE(r.doc.HasParseError());
    r.type = r.doc["type"].GetString();
    out.push_back(std::move(r));
  }
  return out;
}

pipeline_actor spawn_ok(test_system& t, pipeline_settings s) {
  auto p = spawn_pipeline(t.sys, std::move(s));
  REQUIRE(p);
  return *p;
}

} // namespace

TEST_CASE("the manifest is line 1 before any judge call and the chain "
          "verifies") {
  ::setenv("IJ_TEST_FAKE_KEY", "sk-test-never-in-the-audit", 1);
  test_system t;
  auto path = temp_audit_path("manifest");
  auto judge_stub = scripted_judge({canonical("EQUIVALENT", "200", "200")},
                                   script_end::cycle);
  auto p = spawn_ok(t, settings_for({judge_stub}, path, {3, 2}));
  // The pair is sent before the manifest is confirmed: it waits for it.
  auto started = ask<std::uint64_t>(t.sys, p, start_atom::value);
  auto v = ask<single_verdict>(t.sys, p, pair_of("p1", "i1", "200", "two hundred"));
  t.run();
  REQUIRE(started->value);
  CHECK(*started->value == 1);
  REQUIRE(v->value);
  CHECK(v->value->rule == verdict_rule::i4);
  CHECK(v->value->counts.equivalent == 2);
  // A complete run closes its items (audit verify holds it to that).
  caf::anon_send(p, item_total_atom::value, std::string{"i1"}, std::uint32_t{1});
  auto done = ask<run_summary>(t.sys, p, finish_atom::value, false);
  t.run();
  REQUIRE(done->value);
  auto recs = records_of(read_file(path));
  REQUIRE(recs.size() == 7);
  CHECK(recs[0].type == "manifest");
  CHECK(recs[1].type == "judge_call");
  CHECK(recs[2].type == "judge_call");
  CHECK(recs[3].type == "vote");
  CHECK(recs[4].type == "verdict");
  CHECK(recs[5].type == "item_verdict");
  CHECK(recs[6].type == "run_end");
  auto& m = recs[0].doc;
  CHECK(std::string{m["prompt_id"].GetString()} == std::string{judge_prompt_id});
  CHECK(std::string{m["prompt_sha256"].GetString()}
        == judge_prompt_template_sha256());
  CHECK(m["votes"].GetUint() == 3);
  CHECK(m["min_agreement"].GetUint() == 2);
  CHECK(m["abstain_as_neither"].GetBool());
  CHECK(m["stats"]["tau"].GetDouble() == 0.8);
  CHECK(std::string{m["flush_policy"].GetString()} == "fsync-verdicts");
  CHECK(m["config"]["votes"].GetInt() == 1);
  CHECK(std::string{m["judges"][0]["api_key_env"].GetString()}
        == "IJ_TEST_FAKE_KEY");
  CHECK(m["judges"][0]["seed"].GetInt64() == 7);
  CHECK(read_file(path).find("sk-test-never-in-the-audit") == std::string::npos);
  auto& call = recs[1].doc;
  CHECK(std::string{call["decision"].GetString()} == "EQUIVALENT");
  CHECK(call["seed"].GetInt64() == 7);
  CHECK(recs[2].doc["seed"].GetInt64() == 8);
  CHECK(recs[3].doc["counts"]["not_cast"].GetUint() == 1);
  CHECK(std::string{recs[4].doc["rule"].GetString()} == "I4");
  CHECK(done->value->audit_lines == 7);
  CHECK(done->value->final_hash == sha256_hex(lines_of(read_file(path)).back()));
  CHECK(done->value->pairs == 1);
  CHECK(done->value->by_rule[3] == 1);
  CHECK(done->value->judge_calls == 2);
  CHECK(done->value->calls_skipped == 1);
  REQUIRE(done->value->usage.size() == 1);
  CHECK(done->value->usage[0].judge == "judge0");
  CHECK(done->value->usage[0].calls == 2);
  CHECK(done->value->usage[0].input_tokens == 20);
  auto check = verify_audit_file(path);
  CHECK(check.status == audit_status::ok);
  CHECK(check.lines == 7);
  ::unsetenv("IJ_TEST_FAKE_KEY");
}

TEST_CASE("a verdict reply arrives only after its records are written") {
  test_system t;
  auto path = temp_audit_path("durable");
  auto p = spawn_ok(t, settings_for({numeric_judge()}, path));
  ask<std::uint64_t>(t.sys, p, start_atom::value);
  t.run();
  auto v = ask_and_snapshot<single_verdict>(
    t.sys, path, p, pair_of("pair-42", "i", "The answer is 5.", "5"));
  t.run();
  REQUIRE(v->value);
  auto recs = records_of(v->snapshot);
  REQUIRE(recs.size() == 4);
  CHECK(recs[1].type == "judge_call");
  CHECK(std::string{recs[1].doc["pair_id"].GetString()} == "pair-42");
  CHECK(recs[2].type == "vote");
  CHECK(recs[3].type == "verdict");
  CHECK(std::string{recs[3].doc["pair_id"].GetString()} == "pair-42");
  CHECK(std::string{recs[3].doc["verdict"].GetString()} == "INVARIANT");
  ask<run_summary>(t.sys, p, finish_atom::value, false);
  t.run();
}

TEST_CASE("a judge that fails every call gives I2 for every pair and no "
          "wrong verdict") {
  test_system t;
  auto path = temp_audit_path("failing");
  auto p = spawn_ok(t, settings_for({failing_judge()}, path, {3, 2}));
  ask<std::uint64_t>(t.sys, p, start_atom::value);
  std::vector<std::shared_ptr<reply<single_verdict>>> vs;
  for (int i = 0; i < 5; ++i)
    vs.push_back(ask<single_verdict>(t.sys, p,
                                     pair_of("p" + std::to_string(i), "i",
                                             "1", "1")));
  t.run();
  for (auto& v : vs) {
    REQUIRE(v->value);
    CHECK(v->value->rule == verdict_rule::i2);
    CHECK(v->value->verdict == verdict_kind::neither);
  }
  caf::anon_send(p, item_total_atom::value, std::string{"i"}, std::uint32_t{5});
  auto done = ask<run_summary>(t.sys, p, finish_atom::value, false);
  t.run();
  REQUIRE(done->value);
  CHECK(done->value->by_rule[1] == 5);
  CHECK(done->value->faults == 10);
  CHECK(done->value->usage[0].faults == 10);
  CHECK(verify_audit_file(path).status == audit_status::ok);
}

TEST_CASE("a deadline expiry in the pipeline is a fault: I2") {
  test_system t;
  auto path = temp_audit_path("deadline");
  auto silent = std::make_shared<manual_adapter>();
  auto s = settings_for({silent}, path);
  s.vote_deadline = std::chrono::seconds(3);
  auto p = spawn_ok(t, s);
  ask<std::uint64_t>(t.sys, p, start_atom::value);
  auto v = ask<single_verdict>(t.sys, p, pair_of("p", "i", "1", "2"));
  t.run();
  CHECK(silent->calls() == 1);
  CHECK_FALSE(v->done);
  t.advance(std::chrono::seconds(4));
  REQUIRE(v->value);
  CHECK(v->value->rule == verdict_rule::i2);
  auto recs = records_of(read_file(path));
  REQUIRE(recs.size() == 4);
  CHECK(std::string{recs[1].doc["transport_error"].GetString()}
        == "deadline exceeded");
  CHECK(recs[1].doc["transport_failed"].GetBool());
  auto done = ask<run_summary>(t.sys, p, finish_atom::value, false);
  t.run();
  REQUIRE(done->value);
  CHECK(done->value->faults == 1);
  CHECK(done->value->by_rule[1] == 1);
  while (silent->complete_next(canonical("EQUIVALENT")))
    t.run();
}

TEST_CASE("statistical verdicts are audited then sent to the listener for "
          "interleaved items") {
  test_system t;
  auto path = temp_audit_path("items");
  verdict_sink sink{t.sys};
  auto s = settings_for({numeric_judge()}, path);
  s.stats.min_decided = 1;
  s.listener = sink.actor;
  auto p = spawn_ok(t, s);
  ask<std::uint64_t>(t.sys, p, start_atom::value);
  ask<single_verdict>(t.sys, p, pair_of("a1", "A", "5", "5"));
  ask<single_verdict>(t.sys, p, pair_of("b1", "B", "5", "6"));
  ask<single_verdict>(t.sys, p, pair_of("a2", "A", "7", "7"));
  t.run();
  caf::anon_send(p, item_total_atom::value, std::string{"A"}, std::uint32_t{2});
  caf::anon_send(p, item_total_atom::value, std::string{"B"}, std::uint32_t{2});
  t.run();
  REQUIRE(sink.got->size() == 1);
  CHECK(sink.got->at(0).item == "A");
  CHECK(sink.got->at(0).c4 == 2);
  ask<single_verdict>(t.sys, p, pair_of("b2", "B", "", "6"));
  t.run();
  REQUIRE(sink.got->size() == 2);
  auto& b = sink.got->at(1);
  CHECK(b.item == "B");
  CHECK(b.c1 == 1);
  CHECK(b.c5 == 1);
  CHECK(b.rule == verdict_rule::i1); // 1 absent of 2 > 0.2
  auto done = ask<run_summary>(t.sys, p, finish_atom::value, false);
  t.run();
  REQUIRE(done->value);
  CHECK(done->value->items == 2);
  CHECK(done->value->pairs == 4);
  CHECK(done->value->by_rule[0] == 1);
  auto recs = records_of(read_file(path));
  // Each item verdict follows the verdict records of all its pairs.
  std::vector<std::string> order;
  for (auto& r : recs)
    if (r.type == "verdict")
      order.push_back(r.doc["pair_id"].GetString());
    else if (r.type == "item_verdict")
      order.push_back(std::string{"item:"} + r.doc["item"].GetString());
  CHECK(order == std::vector<std::string>{"a1", "b1", "a2", "item:A", "b2",
                                          "item:B"});
  CHECK(verify_audit_file(path).status == audit_status::ok);
}

TEST_CASE("finish(false) answers only once outstanding pairs are written") {
  test_system t;
  auto path = temp_audit_path("finish-wait");
  auto manual = std::make_shared<manual_adapter>();
  auto p = spawn_ok(t, settings_for({manual}, path));
  ask<std::uint64_t>(t.sys, p, start_atom::value);
  auto v = ask<single_verdict>(t.sys, p, pair_of("p", "i", "1", "1"));
  t.run();
  caf::anon_send(p, item_total_atom::value, std::string{"i"}, std::uint32_t{1});
  auto done = ask<run_summary>(t.sys, p, finish_atom::value, false);
  t.run();
  CHECK_FALSE(done->done);
  // No pair is taken once finish was asked for.
  auto late = ask<single_verdict>(t.sys, p, pair_of("late", "i", "1", "1"));
  t.run();
  REQUIRE(late->done);
  CHECK_FALSE(late->value);
  manual->complete_next(canonical("EQUIVALENT"));
  t.run();
  REQUIRE(v->value);
  REQUIRE(done->value);
  CHECK_FALSE(done->value->interrupted);
  CHECK(done->value->pairs == 1);
  CHECK(verify_audit_file(path).status == audit_status::ok);
}

TEST_CASE("finish(true) does not wait for judge calls and records the "
          "unfinished pairs") {
  test_system t;
  auto path = temp_audit_path("interrupted");
  auto manual = std::make_shared<manual_adapter>();
  auto p = spawn_ok(t, settings_for({manual}, path));
  ask<std::uint64_t>(t.sys, p, start_atom::value);
  auto v1 = ask<single_verdict>(t.sys, p, pair_of("p1", "i", "1", "1"));
  auto v2 = ask<single_verdict>(t.sys, p, pair_of("p2", "i", "1", "1"));
  t.run();
  auto done = ask<run_summary>(t.sys, p, finish_atom::value, true);
  t.run();
  REQUIRE(done->value);
  CHECK(done->value->interrupted);
  CHECK(done->value->pairs == 0);
  auto recs = records_of(read_file(path));
  REQUIRE(recs.back().type == "run_end");
  auto& end = recs.back().doc;
  CHECK(end["interrupted"].GetBool());
  REQUIRE(end["unfinished_pairs"].Size() == 2);
  CHECK(std::string{end["unfinished_pairs"][0].GetString()} == "p1");
  // The requesters of the unfinished pairs get an error, never a verdict.
  CHECK(v1->done);
  CHECK(v2->done);
  CHECK_FALSE(v1->value);
  CHECK_FALSE(v2->value);
  INFO(t.sys.render(v1->error));
  auto check = verify_audit_file(path);
  CHECK(check.status == audit_status::interrupted);
  // A judge reply arriving afterwards writes nothing.
  manual->complete_next(canonical("EQUIVALENT"));
  t.run();
  CHECK(verify_audit_file(path).status == audit_status::interrupted);
  while (manual->complete_next(canonical("EQUIVALENT")))
    t.run();
}

TEST_CASE("a rejected input line is recorded") {
  test_system t;
  auto path = temp_audit_path("rejected");
  auto p = spawn_ok(t, settings_for({numeric_judge()}, path));
  ask<std::uint64_t>(t.sys, p, start_atom::value);
  auto seq = ask<std::uint64_t>(t.sys, p, rejected_atom::value,
                                std::string{"in.jsonl"}, std::uint64_t{3},
                                std::string{"not JSON"});
  t.run();
  REQUIRE(seq->value);
  CHECK(*seq->value == 2);
  auto done = ask<run_summary>(t.sys, p, finish_atom::value, false);
  t.run();
  REQUIRE(done->value);
  CHECK(done->value->rejected == 1);
  auto recs = records_of(read_file(path));
  REQUIRE(recs.size() == 3);
  CHECK(recs[1].type == "rejected");
  CHECK(recs[1].doc["line"].GetUint64() == 3);
  CHECK(std::string{recs[1].doc["reason"].GetString()} == "not JSON");
}

TEST_CASE("pairs and finish before start are refused") {
  test_system t;
  auto path = temp_audit_path("nostart");
  auto p = spawn_ok(t, settings_for({numeric_judge()}, path));
  auto v = ask<single_verdict>(t.sys, p, pair_of("p", "i", "1", "1"));
  auto f = ask<run_summary>(t.sys, p, finish_atom::value, false);
  t.run();
  REQUIRE(v->done);
  CHECK_FALSE(v->value);
  CHECK(t.sys.render(v->error).find("not started") != std::string::npos);
  REQUIRE(f->done);
  CHECK_FALSE(f->value);
  // A second start is refused too.
  auto s1 = ask<std::uint64_t>(t.sys, p, start_atom::value);
  auto s2 = ask<std::uint64_t>(t.sys, p, start_atom::value);
  t.run();
  CHECK(s1->value);
  CHECK_FALSE(s2->value);
  auto done = ask<run_summary>(t.sys, p, finish_atom::value, false);
  t.run();
  CHECK(done->value);
}

TEST_CASE("spawn_pipeline refuses bad settings and used audit files") {
  test_system t;
  auto path = temp_audit_path("refuse");
  auto none = settings_for({}, path);
  auto r = spawn_pipeline(t.sys, none);
  REQUIRE_FALSE(r);
  CHECK(t.sys.render(r.error()).find("no judge") != std::string::npos);

  auto bad_votes = settings_for({numeric_judge()}, path, {4, 2});
  CHECK_FALSE(spawn_pipeline(t.sys, bad_votes));

  auto no_dir = settings_for({numeric_judge()}, "/nonexistent-dir/x.jsonl");
  auto r2 = spawn_pipeline(t.sys, no_dir);
  REQUIRE_FALSE(r2);
  CHECK(t.sys.render(r2.error()).find("cannot create the audit file") != std::string::npos);

  {
    std::ofstream out(path);
    out << "previous run\n";
  }
  auto used = settings_for({numeric_judge()}, path);
  auto r3 = spawn_pipeline(t.sys, used);
  REQUIRE_FALSE(r3);
  CHECK(t.sys.render(r3.error()).find("already holds records")
        != std::string::npos);
  CHECK(read_file(path) == "previous run\n");
}

TEST_CASE("votes > 1 at temperature 0 without seed support is warned about "
          "in the manifest too") {
  auto path = temp_audit_path("warn");
  auto no_seed = std::make_shared<manual_adapter>(false);
  auto s = settings_for({no_seed}, path, {3, 2});
  s.judges[0].spec.temperature = 0.0;
  auto w = pipeline_warnings(s);
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("temperature 0") != std::string::npos);
  s.judges[0].spec.temperature = 0.7;
  CHECK(pipeline_warnings(s).empty());
  s.judges[0].spec.temperature = 0.0;
  s.votes = {1, 1};
  CHECK(pipeline_warnings(s).empty());
  s.votes = {3, 2};
  s.judges[0].adapter = numeric_judge(); // supports seeds
  CHECK(pipeline_warnings(s).empty());

  test_system t;
  s.judges[0].adapter = no_seed;
  auto p = spawn_ok(t, s);
  ask<std::uint64_t>(t.sys, p, start_atom::value);
  t.run();
  auto recs = records_of(read_file(path));
  REQUIRE(recs.size() == 1);
  REQUIRE(recs[0].doc["warnings"].Size() == 1);
  ask<run_summary>(t.sys, p, finish_atom::value, false);
  t.run();
}

TEST_CASE("every flush policy writes a chain that verifies") {
  for (auto policy : {flush_policy::fsync_verdicts, flush_policy::fsync_each,
                      flush_policy::flush_each}) {
    test_system t;
    auto path = temp_audit_path("policy" + std::to_string(static_cast<int>(policy)));
    auto s = settings_for({numeric_judge(), always_equivalent_judge()}, path,
                          {3, 2});
    s.flush = policy;
    auto p = spawn_ok(t, s);
    ask<std::uint64_t>(t.sys, p, start_atom::value);
    for (int i = 0; i < 10; ++i)
      ask<single_verdict>(t.sys, p,
                          pair_of("p" + std::to_string(i), "i", "4", "4"));
    t.run();
    caf::anon_send(p, item_total_atom::value, std::string{"i"}, std::uint32_t{10});
    auto done = ask<run_summary>(t.sys, p, finish_atom::value, false);
    t.run();
    REQUIRE(done->value);
    CHECK(done->value->pairs == 10);
    CHECK(done->value->usage.size() == 2);
    CHECK(done->value->usage[0].calls + done->value->usage[1].calls == 20);
    auto check = verify_audit_file(path);
    CHECK(check.status == audit_status::ok);
    CHECK(check.lines == done->value->audit_lines);
  }
}
