// The run session: manifest first, verdicts only after their records, the
// audit chain, items, backpressure, cancel and the run's end (SPEC §10, §11).
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "actors/judge_directory.hpp"
#include "actors/judge_worker.hpp"
#include "actors/run_session.hpp"
#include "adapters/stub_judges.hpp"
#include "core/audit/audit_chain.hpp"
#include "core/prompts/prompt.hpp"
#include "core/session/run_warnings.hpp"
#include "messages/error.hpp"
#include "test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

judge_binding scripted_binding(judge_adapter_ptr adapter, int n) {
  judge_binding b;
  b.spec.name = "judge" + std::to_string(n);
  b.spec.type = "stub";
  b.spec.model = "scripted";
  b.spec.seed = 7;
  b.spec.api_key_env = "IJ_TEST_FAKE_KEY";
  b.adapter = std::move(adapter);
  return b;
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

input_batch batch_of(std::vector<answer_pair> pairs) {
  input_batch b;
  b.pairs = std::move(pairs);
  return b;
}

/// One scripted judge per adapter, and a run over them.
std::vector<judge_binding>
scripted_bindings(const std::vector<judge_adapter_ptr>& adapters) {
  std::vector<judge_binding> out;
  int n = 0;
  for (auto& a : adapters)
    out.push_back(scripted_binding(a, n++));
  return out;
}

struct rig : run_rig {
  rig(const std::vector<judge_adapter_ptr>& adapters, const std::string& tag,
      vote_config votes = {1, 1})
      : run_rig(scripted_bindings(adapters), tag) {
    setup.config.votes = votes;
  }
};

} // namespace

TEST_CASE("the manifest is line 1 before any judge call and the chain "
          "verifies") {
  ::setenv("IJ_TEST_FAKE_KEY", "sk-test-never-in-the-audit", 1);
  auto judge_stub =
    scripted_judge({canonical("EQUIVALENT", "200", "200")}, script_end::cycle);
  rig r({judge_stub}, "manifest", {3, 2});
  r.start();
  // The pair is sent before the manifest is written: it waits for it.
  r.send({pair_of("p1", "i1", "200", "two hundred")});
  r.end_input();
  r.t.run();
  auto& got = r.got();
  REQUIRE(got.summary);
  CHECK(got.order.front() == 's');
  CHECK(got.order.back() == 'e');
  REQUIRE(got.verdicts.size() == 1);
  CHECK(got.verdicts[0].rule == verdict_rule::i4);
  CHECK(got.verdicts[0].counts.equivalent == 2);
  auto recs = records_of(read_file(r.path));
  REQUIRE(recs.size() == 7);
  CHECK(recs[0].type == "manifest");
  CHECK(recs[1].type == "judge_call");
  CHECK(recs[2].type == "judge_call");
  CHECK(recs[3].type == "vote");
  CHECK(recs[4].type == "verdict");
  CHECK(recs[5].type == "item_verdict");
  CHECK(recs[6].type == "run_end");
  auto& m = recs[0].doc;
  CHECK(std::string{m["run_id"].GetString()} == "run-test");
  CHECK(std::string{m["prompt_id"].GetString()}
        == std::string{judge_prompt_id});
  CHECK(std::string{m["prompt_sha256"].GetString()}
        == judge_prompt_template_sha256());
  // Every declared parameter, once, in the configuration's one spelling.
  auto& c = m["config"];
  CHECK(c["votes"].GetUint() == 3);
  CHECK(c["min_agreement"].GetUint() == 2);
  CHECK(c["abstain_as_neither"].GetBool());
  CHECK(c["statistics"]["tau"].GetDouble() == 0.8);
  CHECK(std::string{c["audit"]["flush"].GetString()} == "fsync-verdicts");
  CHECK(std::string{m["judges"][0]["api_key_env"].GetString()}
        == "IJ_TEST_FAKE_KEY");
  CHECK(m["judges"][0]["seed"].GetInt64() == 7);
  CHECK(read_file(r.path).find("sk-test-never-in-the-audit")
        == std::string::npos);
  auto& call = recs[1].doc;
  CHECK(std::string{call["decision"].GetString()} == "EQUIVALENT");
  CHECK(std::string{call["worker"].GetString()} == "judge0@local");
  CHECK(call["fault_kind"].IsNull());
  CHECK(call["seed"].GetInt64() == 7);
  CHECK(recs[2].doc["seed"].GetInt64() == 8);
  CHECK(recs[3].doc["counts"]["not_cast"].GetUint() == 1);
  CHECK(std::string{recs[4].doc["rule"].GetString()} == "I4");
  auto& s = *got.summary;
  CHECK(s.run_id == "run-test");
  CHECK(s.audit_lines == 7);
  CHECK(s.pairs == 1);
  CHECK(s.by_rule[3] == 1);
  CHECK(s.judge_calls == 2);
  CHECK(s.calls_skipped == 1);
  CHECK(s.final_hash.size() == 64);
  REQUIRE(s.usage.size() == 1);
  CHECK(s.usage[0].judge == "judge0");
  CHECK(s.usage[0].calls == 2);
  CHECK(s.usage[0].input_tokens == 20);
  auto check = verify_audit_file(r.path);
  CHECK(check.status == audit_status::ok);
  CHECK(check.lines == 7);
  ::unsetenv("IJ_TEST_FAKE_KEY");
}

TEST_CASE("the manifest describes every worker from its judge_info: adapter, "
          "model, temperature, seed support and prompt SHA") {
  test_system t;
  auto path = temp_audit_path("judge-info");
  auto directory = spawn_judge_directory(t.sys);
  judge_binding a;
  a.spec.name = "rules";
  a.spec.type = "stub";
  a.spec.model = "numeric";
  a.spec.temperature = 0.0;
  a.adapter = numeric_judge();
  auto no_seed = std::make_shared<manual_adapter>(false);
  judge_binding b;
  b.spec.name = "llm";
  b.spec.type = "openai";
  b.spec.model = "qwen2.5-7b";
  b.spec.temperature = 0.3;
  b.spec.base_url = "http://gpu-1:8000/v1";
  b.adapter = no_seed;
  auto wa = spawn_judge_worker(t.sys, a, "rules#1@local");
  auto wb = spawn_judge_worker(t.sys, b, "llm#1@local");
  caf::anon_send(directory, join_atom::value, wa);
  caf::anon_send(directory, join_atom::value, wb);
  t.run();
  event_collector events{t.sys};
  run_setup setup;
  setup.config.judges = {a.spec, b.spec};
  setup.audit_path = path;
  setup.directory = directory;
  setup.listener = events.actor;
  setup.detached_logger = false;
  auto run = spawn_run(t.sys, setup);
  REQUIRE(run);
  caf::anon_send(*run, end_of_input_atom::value);
  t.run();
  REQUIRE(events.got->summary);
  auto recs = records_of(read_file(path));
  auto& judges = recs[0].doc["judges"];
  REQUIRE(judges.Size() == 2);
  REQUIRE(events.got->started.size() == 1);
  auto& infos = events.got->started[0].judges;
  REQUIRE(infos.size() == 2);
  for (rapidjson::SizeType i = 0; i < 2; ++i) {
    auto& j = judges[i];
    auto& info = infos[i];
    CHECK(std::string{j["judge_id"].GetString()} == info.judge_id);
    CHECK(std::string{j["type"].GetString()} == info.adapter_type);
    CHECK(std::string{j["model"].GetString()} == info.model);
    CHECK(j["temperature"].GetDouble() == info.temperature);
    CHECK(j["supports_seed"].GetBool() == info.supports_seed);
    CHECK(std::string{j["prompt_id"].GetString()}
          == std::string{judge_prompt_id});
    CHECK(std::string{j["prompt_sha256"].GetString()}
          == judge_prompt_template_sha256());
    CHECK(std::string{j["version"].GetString()} == info.version);
  }
  // Listed in worker id order: llm#1 then rules#1.
  CHECK(std::string{judges[0]["type"].GetString()} == "openai");
  CHECK(std::string{judges[0]["model"].GetString()} == "qwen2.5-7b");
  CHECK(judges[0]["temperature"].GetDouble() == 0.3);
  CHECK_FALSE(judges[0]["supports_seed"].GetBool());
  CHECK(std::string{judges[0]["base_url"].GetString()}
        == "http://gpu-1:8000/v1");
  CHECK(std::string{judges[1]["type"].GetString()} == "stub");
  CHECK(std::string{judges[1]["model"].GetString()} == "numeric");
  CHECK(judges[1]["supports_seed"].GetBool());
  for (auto& w : {wa, wb})
    caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(directory, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(events.actor, caf::exit_reason::user_shutdown);
}

TEST_CASE("a verdict is released only after its records are written") {
  rig r({numeric_judge()}, "durable");
  r.events.got->snapshot_path = r.path;
  r.start();
  r.send({pair_of("pair-42", "i", "The answer is 5.", "5")});
  r.t.run();
  auto& got = r.got();
  REQUIRE(got.verdicts.size() == 1);
  REQUIRE(got.snapshots.size() == 1);
  auto recs = records_of(got.snapshots[0]);
  REQUIRE(recs.size() == 4);
  CHECK(recs[1].type == "judge_call");
  CHECK(std::string{recs[1].doc["pair_id"].GetString()} == "pair-42");
  CHECK(recs[2].type == "vote");
  CHECK(recs[3].type == "verdict");
  CHECK(std::string{recs[3].doc["pair_id"].GetString()} == "pair-42");
  CHECK(std::string{recs[3].doc["verdict"].GetString()} == "INVARIANT");
  r.end_input();
  r.t.run();
  CHECK(got.summary);
}

TEST_CASE("a judge that fails every call gives I2 for every pair and no "
          "wrong verdict") {
  rig r({failing_judge()}, "failing", {3, 2});
  r.start();
  std::vector<answer_pair> pairs;
  for (int i = 0; i < 5; ++i)
    pairs.push_back(pair_of("p" + std::to_string(i), "i", "1", "1"));
  r.send(pairs);
  r.end_input();
  r.t.run();
  auto& got = r.got();
  REQUIRE(got.verdicts.size() == 5);
  for (auto& v : got.verdicts) {
    CHECK(v.rule == verdict_rule::i2);
    CHECK(v.verdict == verdict_kind::neither);
  }
  REQUIRE(got.summary);
  CHECK(got.summary->by_rule[1] == 5);
  CHECK(got.summary->faults == 10);
  CHECK(got.summary->usage[0].faults == 10);
  CHECK(got.summary
          ->faults_by_kind[static_cast<std::size_t>(fault_kind::connection)]
        == 10);
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
}

TEST_CASE("a deadline expiry in a run is a fault: I2") {
  auto silent = std::make_shared<manual_adapter>();
  rig r({silent}, "deadline");
  r.setup.config.vote_deadline = std::chrono::seconds(3);
  r.start();
  r.send({pair_of("p", "i", "1", "2")});
  r.t.run();
  CHECK(silent->calls() == 1);
  CHECK(r.got().verdicts.empty());
  r.t.advance(std::chrono::seconds(4));
  REQUIRE(r.got().verdicts.size() == 1);
  CHECK(r.got().verdicts[0].rule == verdict_rule::i2);
  auto recs = records_of(read_file(r.path));
  REQUIRE(recs.size() == 4);
  CHECK(std::string{recs[1].doc["transport_error"].GetString()}
        == "deadline exceeded");
  CHECK(std::string{recs[1].doc["fault_kind"].GetString()} == "deadline");
  CHECK(recs[1].doc["transport_failed"].GetBool());
  r.end_input();
  r.t.run();
  REQUIRE(r.got().summary);
  CHECK(r.got().summary->faults == 1);
  CHECK(r.got().summary->by_rule[1] == 1);
  while (silent->complete_next(canonical("EQUIVALENT")))
    r.t.run();
}

TEST_CASE("an item's verdict is written and released once its last pair is "
          "decided after the input ended, behind that pair's records") {
  auto manual = std::make_shared<manual_adapter>();
  rig r({manual}, "items");
  r.setup.config.stats.min_decided = 1;
  r.start();
  r.send({pair_of("a1", "A", "5", "5"), pair_of("b1", "B", "5", "6"),
          pair_of("a2", "A", "7", "7"), pair_of("b2", "B", "6", "six")});
  r.t.run();
  REQUIRE(manual->calls() == 4);
  manual->complete_next(canonical("EQUIVALENT"));
  manual->complete_next(canonical("DIFFERENT"));
  manual->complete_next(canonical("EQUIVALENT"));
  r.t.run();
  CHECK(r.got().verdicts.size() == 3);
  CHECK(r.got().items.empty()); // the input has not ended: totals unknown
  r.end_input();
  r.t.run();
  REQUIRE(r.got().items.size() == 1);
  CHECK(r.got().items[0].item == "A");
  CHECK(r.got().items[0].c4 == 2);
  manual->complete_next(canonical("ABSTAIN"));
  r.t.run();
  REQUIRE(r.got().items.size() == 2);
  auto& b = r.got().items[1];
  CHECK(b.item == "B");
  CHECK(b.c3 == 1);
  CHECK(b.c5 == 1);
  CHECK(b.rule == verdict_rule::i3); // 1 undecided of 2 > 0.2
  REQUIRE(r.got().summary);
  CHECK(r.got().summary->items == 2);
  CHECK(r.got().summary->pairs == 4);
  CHECK(r.got().summary->open_items == 0);
  auto recs = records_of(read_file(r.path));
  std::vector<std::string> order;
  for (auto& rec : recs)
    if (rec.type == "verdict")
      order.push_back(rec.doc["pair_id"].GetString());
    else if (rec.type == "item_verdict")
      order.push_back(std::string{"item:"} + rec.doc["item"].GetString());
  CHECK(
    order
    == std::vector<std::string>{"a1", "b1", "a2", "item:A", "b2", "item:B"});
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
}

TEST_CASE("labels travel with the verdicts, a pair without item is its own "
          "item") {
  rig r({numeric_judge()}, "labels");
  r.start();
  auto p = pair_of("p1", "", "5", "5");
  p.label = false;
  auto q = pair_of("p2", "i", "5", "5");
  r.send({p, q});
  r.end_input();
  r.t.run();
  REQUIRE(r.got().verdicts.size() == 2);
  for (auto& v : r.got().verdicts) {
    if (v.pair_id == "p1") {
      CHECK(v.label == std::optional<bool>{false});
      CHECK(v.item == "p1");
    } else {
      CHECK_FALSE(v.label.has_value());
    }
  }
}

TEST_CASE("the end of input ends the run only once outstanding pairs are "
          "written, later input is refused in plain words") {
  auto manual = std::make_shared<manual_adapter>();
  rig r({manual}, "end-wait");
  r.start();
  r.send({pair_of("p", "i", "1", "1")});
  r.end_input();
  r.t.run();
  CHECK_FALSE(r.got().summary);
  auto late = ask<std::uint64_t>(r.t.sys, r.run,
                                 batch_of({pair_of("late", "i", "1", "1")}));
  r.t.run();
  REQUIRE(late->done);
  CHECK_FALSE(late->value);
  CHECK(render_error(late->error).find("input was already closed")
        != std::string::npos);
  manual->complete_next(canonical("EQUIVALENT"));
  r.t.run();
  REQUIRE(r.got().summary);
  CHECK_FALSE(r.got().summary->interrupted);
  CHECK(r.got().summary->pairs == 1);
  CHECK(verify_audit_file(r.path).status == audit_status::ok);
}

TEST_CASE("a cancel does not wait for judge calls and lists the unfinished "
          "pairs, the run-end totals agree with the records") {
  auto manual = std::make_shared<manual_adapter>();
  rig r({manual}, "cancel");
  r.start();
  r.send({pair_of("p1", "i", "1", "1"), pair_of("p2", "i", "1", "1"),
          pair_of("p3", "j", "2", "2")});
  r.t.run();
  manual->complete_next(canonical("EQUIVALENT")); // p1 is decided
  r.t.run();
  caf::anon_send(r.run, cancel_atom::value, std::string{"interrupted by test"});
  r.t.run();
  auto& got = r.got();
  REQUIRE(got.summary);
  CHECK(got.summary->interrupted);
  CHECK(got.summary->stop_reason == "interrupted by test");
  CHECK(got.summary->pairs == 1);
  CHECK(got.summary->unfinished == 2);
  REQUIRE(got.verdicts.size() == 1);
  CHECK(got.verdicts[0].pair_id == "p1");
  auto recs = records_of(read_file(r.path));
  REQUIRE(recs.back().type == "run_end");
  auto& end = recs.back().doc;
  CHECK(end["interrupted"].GetBool());
  CHECK(end["pairs"].GetUint64() == 1);
  REQUIRE(end["unfinished_pairs"].Size() == 2);
  CHECK(std::string{end["unfinished_pairs"][0].GetString()} == "p2");
  CHECK(std::string{end["unfinished_pairs"][1].GetString()} == "p3");
  std::size_t verdict_records = 0;
  for (auto& rec : recs)
    verdict_records += rec.type == "verdict";
  CHECK(verdict_records == 1);
  CHECK(verify_audit_file(r.path).status == audit_status::interrupted);
  // A judge reply arriving afterwards writes nothing.
  while (manual->complete_next(canonical("EQUIVALENT")))
    r.t.run();
  CHECK(verify_audit_file(r.path).status == audit_status::interrupted);
}

TEST_CASE("the end of input after a cancel writes nothing more: the summary "
          "agrees with the run-end record") {
  auto manual = std::make_shared<manual_adapter>();
  rig r({manual}, "cancel-then-end");
  r.setup.config.stats.min_decided = 1;
  r.start();
  r.send({pair_of("a1", "A", "1", "1"), pair_of("b1", "B", "2", "2")});
  r.t.run();
  manual->complete_next(canonical("EQUIVALENT")); // item A is complete
  r.t.run();
  // Both arrive before the run-end record is written.
  caf::anon_send(r.run, cancel_atom::value, std::string{"interrupted by test"});
  r.end_input();
  r.t.run();
  auto& got = r.got();
  REQUIRE(got.summary);
  CHECK(got.summary->interrupted);
  CHECK(got.items.empty());
  auto recs = records_of(read_file(r.path));
  REQUIRE(recs.back().type == "run_end");
  CHECK(recs.back().doc["items"].GetUint64() == got.summary->items);
  CHECK(got.summary->items == 0);
  CHECK(verify_audit_file(r.path).status == audit_status::interrupted);
  // The call still open holds its reply callback, and through it the
  // worker: answered, the actor system can end without a leak.
  while (manual->complete_next(canonical("EQUIVALENT")))
    r.t.run();
}

TEST_CASE("rejected input lines are recorded") {
  rig r({numeric_judge()}, "rejected");
  r.start();
  input_batch b;
  b.rejected.push_back({"in.jsonl", 3, "not JSON"});
  caf::anon_send(r.run, b);
  r.end_input();
  r.t.run();
  REQUIRE(r.got().summary);
  CHECK(r.got().summary->rejected == 1);
  auto recs = records_of(read_file(r.path));
  REQUIRE(recs.size() == 3);
  CHECK(recs[1].type == "rejected");
  CHECK(recs[1].doc["line"].GetUint64() == 3);
  CHECK(std::string{recs[1].doc["reason"].GetString()} == "not JSON");
}

TEST_CASE("input is answered once the window has room: memory stays "
          "bounded") {
  auto manual = std::make_shared<manual_adapter>();
  rig r({manual}, "window");
  r.setup.window = 2;
  r.start();
  auto first = ask<std::uint64_t>(r.t.sys, r.run,
                                  batch_of({pair_of("p1", "i", "1", "1")}));
  r.t.run();
  REQUIRE(first->value);
  CHECK(*first->value == 1);
  auto second = ask<std::uint64_t>(
    r.t.sys, r.run,
    batch_of({pair_of("p2", "i", "1", "1"), pair_of("p3", "i", "1", "1")}));
  r.t.run();
  CHECK_FALSE(second->done); // 3 in flight, window 2
  manual->complete_next(canonical("EQUIVALENT"));
  r.t.run();
  CHECK_FALSE(second->done); // still 2
  manual->complete_next(canonical("EQUIVALENT"));
  r.t.run();
  REQUIRE(second->value);
  CHECK(*second->value == 3);
  while (manual->complete_next(canonical("EQUIVALENT")))
    r.t.run();
  r.end_input();
  r.t.run();
  CHECK(r.got().summary);
}

TEST_CASE("progress goes to the listener at the interval") {
  auto manual = std::make_shared<manual_adapter>();
  rig r({manual}, "progress");
  r.setup.progress_interval = std::chrono::milliseconds(500);
  r.start();
  r.send({pair_of("p1", "i", "1", "1")});
  r.t.run();
  CHECK(r.got().progress.empty());
  r.t.advance(std::chrono::milliseconds(600));
  REQUIRE(r.got().progress.size() == 1);
  auto& p = r.got().progress[0];
  CHECK(p.run_id == "run-test");
  CHECK(p.state == "running");
  CHECK(p.admitted == 1);
  CHECK(p.released == 0);
  REQUIRE(p.workers.size() == 1);
  CHECK(p.workers[0].in_flight == 1);
  CHECK(p.workers[0].configured == 4);
  manual->complete_next(canonical("EQUIVALENT"));
  r.end_input();
  r.t.run();
  CHECK(r.got().summary);
}

TEST_CASE("a judge that no worker serves fails the run before anything is "
          "written") {
  rig r({numeric_judge()}, "no-worker");
  judge_spec other;
  other.name = "ghost";
  other.type = "stub";
  other.model = "different";
  r.setup.config.judges.push_back(other);
  r.start();
  r.t.run();
  REQUIRE(r.got().summary);
  CHECK(r.got().summary->error.find("no worker serves judge ghost")
        != std::string::npos);
  CHECK(r.got().started.empty());
  CHECK(read_file(r.path).empty());
}

TEST_CASE("spawn_run refuses bad settings and used audit files") {
  rig r({numeric_judge()}, "refuse");
  auto none = r.setup;
  none.config.judges.clear();
  auto r1 = spawn_run(r.t.sys, none);
  REQUIRE_FALSE(r1);
  CHECK(render_error(r1.error()).find("no judge") != std::string::npos);

  auto bad_votes = r.setup;
  bad_votes.config.votes = {4, 2};
  CHECK_FALSE(spawn_run(r.t.sys, bad_votes));

  auto no_dir = r.setup;
  no_dir.audit_path = "/nonexistent-dir/x.jsonl";
  auto r2 = spawn_run(r.t.sys, no_dir);
  REQUIRE_FALSE(r2);
  CHECK(render_error(r2.error()).find("cannot create the audit file")
        != std::string::npos);

  {
    std::ofstream out(r.path);
    out << "previous run\n";
  }
  auto r3 = spawn_run(r.t.sys, r.setup);
  REQUIRE_FALSE(r3);
  CHECK(render_error(r3.error()).find("already holds records")
        != std::string::npos);
  CHECK(read_file(r.path) == "previous run\n");
}

TEST_CASE("votes > 1 at temperature 0 without seed support is warned about "
          "in the manifest too") {
  auto no_seed = std::make_shared<manual_adapter>(false);
  rig r({no_seed}, "warn", {3, 2});
  judge_info info;
  info.name = "j";
  info.temperature = 0.0;
  info.supports_seed = false;
  auto w = run_warnings(r.setup.config, {info});
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("temperature 0") != std::string::npos);
  info.temperature = 0.7;
  CHECK(run_warnings(r.setup.config, {info}).empty());
  info.temperature = 0.0;
  auto one = r.setup.config;
  one.votes = {1, 1};
  CHECK(run_warnings(one, {info}).empty());
  info.supports_seed = true;
  CHECK(run_warnings(r.setup.config, {info}).empty());

  r.start();
  r.t.run();
  auto recs = records_of(read_file(r.path));
  REQUIRE(recs.size() == 1);
  REQUIRE(recs[0].doc["warnings"].Size() == 1);
  REQUIRE(r.got().warnings.size() == 1);
  r.end_input();
  r.t.run();
}

TEST_CASE("every flush policy writes a chain that verifies") {
  for (auto policy : {flush_policy::fsync_verdicts, flush_policy::fsync_each,
                      flush_policy::flush_each}) {
    rig r({numeric_judge(), always_equivalent_judge()},
          "policy" + std::to_string(static_cast<int>(policy)), {3, 2});
    r.setup.config.flush = policy;
    r.start();
    std::vector<answer_pair> pairs;
    for (int i = 0; i < 10; ++i)
      pairs.push_back(pair_of("p" + std::to_string(i), "i", "4", "4"));
    r.send(pairs);
    r.end_input();
    r.t.run();
    REQUIRE(r.got().summary);
    auto& s = *r.got().summary;
    CHECK(s.pairs == 10);
    CHECK(s.usage.size() == 2);
    CHECK(s.usage[0].calls + s.usage[1].calls == 20);
    auto check = verify_audit_file(r.path);
    CHECK(check.status == audit_status::ok);
    CHECK(check.lines == s.audit_lines);
  }
}
