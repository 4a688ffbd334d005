// Batched votes through `invjudge run` (issue 17), against the batch fakes
// (tests/http/fake_batches) started here on 127.0.0.1: a batched run decides
// as a synchronous one, survives kill -9 without sending a request twice,
// reports a batch rejected whole or expired, cancels its batches on Ctrl-C
// and prices its calls at the batch discount.
#include <csignal>
#include <cstdlib>
#include <map>
#include <set>
#include <thread>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "tests/http/batch_script.hpp"
#include "tests/tools/cli_support.hpp"

using namespace ij::test;

namespace {

constexpr int pair_count = 24;
constexpr const char* key_var = "IJ_BATCH_E2E_KEY";

std::string pairs_text() {
  return scripted_pairs(pair_count);
}

std::string judge_json(const std::string& type, const std::string& url,
                       const std::string& batch) {
  return R"({"name":"fake","type":")" + type
         + R"(","model":"judge-model","base_url":")" + url
         + R"(","api_key_env":")" + key_var
         + R"(","temperature":0,"timeout_ms":60000,"max_in_flight":4,)"
           R"("max_attempts":1,"prices":{"input":2,"output":4})"
         + (batch.empty() ? std::string{} : R"(,"batch":)" + batch) + "}";
}

std::string config(const std::string& judge) {
  return R"({"judges":[)" + judge + R"(],"votes":3})";
}

std::string batch_settings(const std::string& on_failure = "sync") {
  return R"({"enabled":true,"max_requests":16,"max_wait_ms":50,"poll_ms":20,)"
         R"("on_failure":")"
         + on_failure + "\"}";
}

fake_batch_options batch_options(api_kind kind) {
  fake_batch_options o;
  o.kind = kind;
  o.api_key = "sk-batch-e2e";
  return o;
}

struct audit_view {
  std::map<std::string, int> types;
  std::map<std::string, std::string> verdicts; // pair -> verdict
  std::set<std::string> custom_ids;            // of the batch records
  std::uint64_t input_tokens = 0, output_tokens = 0;
  int batched_calls = 0;
  double run_end_cost = -1;
  bool interrupted = false;
};

audit_view read_audit(const std::string& path) {
  audit_view v;
  for (auto& line : lines_of(read_file(path))) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    if (d.HasParseError() || !d.IsObject())
      continue;
    std::string type = d["type"].GetString();
    ++v.types[type];
    if (type == "verdict")
      v.verdicts[d["pair_id"].GetString()] = d["verdict"].GetString();
    if (type == "batch")
      for (auto& e : d["entries"].GetArray())
        v.custom_ids.insert(e["custom_id"].GetString());
    if (type == "judge_call") {
      v.input_tokens += d["input_tokens"].GetUint64();
      v.output_tokens += d["output_tokens"].GetUint64();
      v.batched_calls += d.HasMember("batched") ? 1 : 0;
    }
    if (type == "run_end") {
      v.interrupted = d["interrupted"].GetBool();
      if (d.HasMember("spend") && d["spend"].IsArray() && !d["spend"].Empty())
        v.run_end_cost = d["spend"][0]["cost"].GetDouble();
    }
  }
  return v;
}

struct key_env {
  key_env() { ::setenv(key_var, "sk-batch-e2e", 1); }
  ~key_env() { ::unsetenv(key_var); }
};

/// `n` pairs "<prefix>0", ... (equal answers) in pairs.jsonl and, in c.json,
/// one batched judge of `type` at one vote a pair.
void write_one_vote_run(temp_dir& dir, const std::string& prefix, int n,
                        const std::string& type, const fake_batches& fake,
                        const std::string& on_failure) {
  std::string pairs;
  for (int i = 0; i < n; ++i)
    pairs += R"({"id":")" + prefix + (n == 1 ? "" : std::to_string(i))
             + R"(","a":"1","b":"1"})"
               "\n";
  write_file(dir.file("pairs.jsonl"), pairs);
  write_file(dir.file("c.json"),
             R"({"judges":[)"
               + judge_json(type, fake.base_url(), batch_settings(on_failure))
               + R"(],"votes":1})");
}

/// The verdicts of a synchronous run of the same pairs.
std::map<std::string, std::string> sync_verdicts(temp_dir& dir) {
  scripted_sync_judge judge{api_kind::openai, "sk-batch-e2e"};
  write_file(dir.file("sync.json"),
             config(judge_json("openai", judge.api->base_url(), "")));
  auto r = invjudge(
    dir, "run --pairs pairs.jsonl --config sync.json --audit sync-audit.jsonl "
         "--out sync-out.jsonl --no-progress");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return read_audit(dir.file("sync-audit.jsonl")).verdicts;
}

} // namespace

TEST_CASE("e2e: batched votes decide as synchronous ones, at the batch price") {
  key_env key;
  for (auto kind : {api_kind::openai, api_kind::anthropic}) {
    auto type = kind == api_kind::openai ? "openai" : "anthropic";
    SECTION(type) {
      temp_dir dir;
      write_file(dir.file("pairs.jsonl"), pairs_text());
      auto expected = sync_verdicts(dir);
      REQUIRE(expected.size() == pair_count);
      fake_batches fake{batch_options(kind)};
      decide_by_custom_id(fake);
      write_file(dir.file("c.json"),
                 config(judge_json(type, fake.base_url(), batch_settings())));
      auto r =
        invjudge(dir, "run --pairs pairs.jsonl --config c.json --audit a.jsonl "
                      "--out out.jsonl --no-progress");
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      CHECK(fake.violations().empty());
      auto v = read_audit(dir.file("a.jsonl"));
      CHECK(v.verdicts == expected);
      // Early stopping: a third vote only for the pairs split by the first
      // two (p0, p4, ...: sequence numbers 1, 5, ...).
      for (auto& id : v.custom_ids) {
        CHECK(fake.times_sent(id) == 1);
        bool third = id.size() > 3 && id.compare(id.size() - 3, 3, "-v2") == 0;
        if (third) {
          auto seq = std::stoi(id.substr(id.find("-p") + 2));
          CHECK((seq - 1) % 4 == 0);
        }
      }
      CHECK(v.custom_ids.size() == pair_count * 2 + pair_count / 4);
      CHECK(v.batched_calls == v.types["judge_call"]);
      // Every call batched: half of (2 per M input + 4 per M output).
      auto full = (2.0 * v.input_tokens + 4.0 * v.output_tokens) / 1e6;
      CHECK(v.run_end_cost == Approx(full / 2));
      auto check = invjudge(dir, "audit verify a.jsonl");
      INFO(check.out);
      CHECK(check.exit_code == 0);
    }
  }
}

TEST_CASE("e2e: kill -9 with a batch in flight, then run --resume: no request "
          "sent twice") {
  key_env key;
  for (auto kind : {api_kind::openai, api_kind::anthropic}) {
    auto type = kind == api_kind::openai ? "openai" : "anthropic";
    SECTION(type) {
      temp_dir dir;
      write_file(dir.file("pairs.jsonl"), pairs_text());
      auto expected = sync_verdicts(dir);
      fake_batches fake{batch_options(kind)};
      decide_by_custom_id(fake);
      fake.hold(true); // batches stay in progress until the resume
      write_file(dir.file("c.json"),
                 config(judge_json(type, fake.base_url(), batch_settings())));
      auto audit = dir.file("a.jsonl");
      {
        invjudge_process p({"run", "--pairs", dir.file("pairs.jsonl"),
                            "--config", dir.file("c.json"), "--audit", audit,
                            "--out", dir.file("v1.jsonl"), "--no-progress"},
                           dir.file("out.txt"), dir.file("err.txt"));
        REQUIRE(wait_for_text(audit, R"("step":"submitted")"));
        p.signal(SIGKILL);
        CHECK(p.wait() == 128 + SIGKILL);
      }
      auto created = fake.batches_created();
      REQUIRE(created >= 1);
      fake.hold(false);
      auto r =
        invjudge(dir, "run --resume a.jsonl --pairs pairs.jsonl --out v2.jsonl "
                      "--no-progress");
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      CHECK(r.err.find("adopting") != std::string::npos);
      CHECK(fake.violations().empty());
      auto v = read_audit(audit);
      CHECK(v.verdicts == expected);
      REQUIRE(!v.custom_ids.empty());
      for (auto& id : v.custom_ids) {
        INFO(id);
        CHECK(fake.times_sent(id) == 1);
      }
      auto check = invjudge(dir, "audit verify a.jsonl");
      INFO(check.out);
      CHECK(check.exit_code == 0);
    }
  }
}

TEST_CASE(
  "e2e: a batch rejected whole is one clear error and its votes are faults") {
  key_env key;
  fake_batches fake{batch_options(api_kind::anthropic)};
  fake.reject_next_batch(400, "requests: too many tokens in batch");
  temp_dir dir;
  write_one_vote_run(dir, "x", 1, "anthropic", fake, "fault");
  auto r =
    invjudge(dir, "run --pairs pairs.jsonl --config c.json --audit a.jsonl "
                  "--no-progress");
  INFO(r.err);
  CHECK(r.err.find("too many tokens in batch") != std::string::npos);
  auto v = read_audit(dir.file("a.jsonl"));
  CHECK(v.types["judge_call"] == 1);
  CHECK(v.verdicts["x"] == "NEITHER");
  CHECK(fake.batches_created() == 0);
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
}

TEST_CASE("e2e: an expired batch answers what it did, the rest are faults of "
          "their kind") {
  key_env key;
  fake_batches fake{batch_options(api_kind::openai)};
  fake.hold(true);
  temp_dir dir;
  write_one_vote_run(dir, "e", 4, "openai", fake, "fault");
  invjudge_process p({"run", "--pairs", dir.file("pairs.jsonl"), "--config",
                      dir.file("c.json"), "--audit", dir.file("a.jsonl"),
                      "--no-progress"},
                     dir.file("out.txt"), dir.file("err.txt"));
  REQUIRE(eventually([&] { return fake.batches_created() == 1; }));
  fake.expire(fake.batch_ids().front(), 2);
  fake.hold(false);
  CHECK(p.wait() != 128 + SIGKILL);
  auto v = read_audit(dir.file("a.jsonl"));
  CHECK(v.types["judge_call"] == 4);
  int decided = 0;
  for (auto& [id, verdict] : v.verdicts)
    decided += verdict == "INVARIANT" ? 1 : 0;
  CHECK(decided == 2);
  auto text = read_file(dir.file("a.jsonl"));
  CHECK(text.find("expired") != std::string::npos);
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
}

TEST_CASE("e2e: Ctrl-C cancels the run's batch at the provider") {
  key_env key;
  fake_batches fake{batch_options(api_kind::openai)};
  fake.hold(true);
  temp_dir dir;
  write_one_vote_run(dir, "c", 4, "openai", fake,
                     "sync"); // four votes: one batch
  auto audit = dir.file("a.jsonl");
  {
    invjudge_process p({"run", "--pairs", dir.file("pairs.jsonl"), "--config",
                        dir.file("c.json"), "--audit", audit, "--no-progress"},
                       dir.file("out.txt"), dir.file("err.txt"));
    REQUIRE(wait_for_text(audit, R"("step":"submitted")"));
    REQUIRE(fake.batches_created() == 1);
    p.signal(SIGINT); // the cancel moves the held batch to its end

    CHECK(p.wait() == 4);
  }
  CHECK(fake.cancels() == 1);
  auto v = read_audit(audit);
  CHECK(v.interrupted);
  auto verify = invjudge(dir, "audit verify a.jsonl");
  INFO(verify.out << verify.err);
  // 4: the chain is intact and the run says it was interrupted.
  CHECK(verify.exit_code == 4);
  CHECK(verify.out.rfind("interrupted: ", 0) == 0);
}
