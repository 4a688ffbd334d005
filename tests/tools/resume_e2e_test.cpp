// `invjudge run --resume AUDIT`: a run killed with SIGKILL (and one stopped
// by SIGINT) continues from its audit: no judge call whose record was
// committed is made again, the verdicts equal an uninterrupted run's, and
// the audit stays one valid chain with a record saying where it resumed.
#include <algorithm>
#include <csignal>
#include <map>
#include <thread>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "tests/http/fake_apis.hpp"
#include "tests/tools/cli_support.hpp"

using namespace ij::test;

namespace {

constexpr int pair_count = 60;

std::string pairs_text() {
  std::string out;
  for (int i = 0; i < pair_count; ++i)
    out += R"({"id":"p)" + std::to_string(i) + R"(","item":"q)"
           + std::to_string(i % 6) + R"(","a":")" + std::to_string(i)
           + R"(","b":")" + std::to_string(i % 7 == 0 ? i + 1 : i) + "\"}\n";
  return out;
}

std::string config_for(const fake_api& fake) {
  return R"({"judges":[{"name":"fake","type":"openai","model":"judge-model",)"
         R"("base_url":")"
         + fake.base_url()
         + R"(","temperature":0,"timeout_ms":60000,"max_in_flight":4,)"
           R"("max_attempts":1}],"votes":1})";
}

/// type -> count, and pair id -> rule of the verdict records.
struct audit_view {
  std::map<std::string, int> types;
  std::map<std::string, std::string> rules;
  std::string last_type;
};

audit_view read_audit(const std::string& path) {
  audit_view v;
  for (auto& line : lines_of(read_file(path))) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    if (d.HasParseError() || !d.IsObject())
      continue; // a torn last line
    std::string type = d["type"].GetString();
    ++v.types[type];
    v.last_type = type;
    if (type == "verdict")
      v.rules[d["pair_id"].GetString()] = d["rule"].GetString();
  }
  return v;
}

/// Polls until the fake has seen `n` requests; false if it never does (the
/// bound only keeps a broken build from hanging the suite).
bool wait_for_requests(fake_api& fake, std::uint64_t n) {
  for (int i = 0; i < 12000; ++i) {
    if (fake.server().requests() >= n)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

fake_api_options slow_judge() {
  fake_api_options o;
  o.kind = api_kind::openai;
  o.reply_text = "DECISION: EQUIVALENT\nREASON: same value\nNUMERIC_A: 1\n"
                 "NUMERIC_B: 1";
  // Slow enough that the kill lands mid-run, with calls in flight.
  o.latency = std::chrono::milliseconds(15);
  o.threads = 4;
  o.record_requests = false;
  return o;
}

} // namespace

TEST_CASE("e2e: run --resume after kill -9 repeats no committed call and ends "
          "as an uninterrupted run") {
  fake_api fake(slow_judge());
  temp_dir dir;
  write_file(dir.file("pairs.jsonl"), pairs_text());
  write_file(dir.file("c.json"), config_for(fake));
  auto audit = dir.file("a.jsonl");
  {
    invjudge_process p({"run", "--pairs", dir.file("pairs.jsonl"), "--config",
                        dir.file("c.json"), "--audit", audit, "--out",
                        dir.file("v1.jsonl"), "--no-progress"},
                       dir.file("out.txt"), dir.file("err.txt"));
    REQUIRE(wait_for_requests(fake, pair_count / 3));
    p.signal(SIGKILL);
    CHECK(p.wait() == 128 + SIGKILL);
  }
  // What a power cut could leave: half a line.
  auto before = read_file(audit);
  write_file(audit, before + R"({"seq":999,"type":"judge_ca)");
  auto at_kill = fake.server().requests();
  auto killed = read_audit(audit);
  auto committed = killed.types["verdict"];
  REQUIRE(committed > 0);
  REQUIRE(committed < pair_count);
  CHECK(killed.types["run_end"] == 0);

  auto r =
    invjudge(dir, "run --resume a.jsonl --pairs pairs.jsonl --out v2.jsonl "
                  "--no-progress");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("pair(s) already decided are not judged again")
        != std::string::npos);
  // Exactly the pairs not committed were judged after the resume (votes = 1:
  // one call each); none committed was. Calls made before the kill whose
  // records were not committed are among them: paid twice, by design.
  auto judged_again = static_cast<int>(fake.server().requests() - at_kill);
  CHECK(judged_again == pair_count - committed);

  auto v = invjudge(dir, "audit verify a.jsonl");
  INFO(v.out);
  CHECK(v.exit_code == 0);
  auto resumed = read_audit(audit);
  CHECK(resumed.types["resumed"] == 1);
  CHECK(resumed.types["manifest"] == 1);
  CHECK(resumed.types["verdict"] == pair_count);
  CHECK(resumed.types["item_verdict"] == 6);
  CHECK(resumed.last_type == "run_end");
  auto text = read_file(audit);
  CHECK(text.find("\"torn_line\":true") != std::string::npos);
  // The resumed run's output is whole: the verdicts decided before the kill
  // are handed out again (from the audit), the others as they come.
  auto u =
    invjudge(dir, "run --pairs pairs.jsonl --config c.json --audit b.jsonl "
                  "--out u.jsonl --no-progress");
  REQUIRE(u.exit_code == 0);
  auto resumed_out = lines_of(read_file(dir.file("v2.jsonl")));
  auto uninterrupted = lines_of(read_file(dir.file("u.jsonl")));
  std::sort(resumed_out.begin(), resumed_out.end());
  std::sort(uninterrupted.begin(), uninterrupted.end());
  CHECK(resumed_out.size() == pair_count + 6);
  CHECK(resumed_out == uninterrupted);
  CHECK(read_audit(dir.file("b.jsonl")).rules == resumed.rules);
}

TEST_CASE(
  "e2e: run --resume continues a run stopped by SIGINT after its run_end") {
  fake_api fake(slow_judge());
  temp_dir dir;
  write_file(dir.file("pairs.jsonl"), pairs_text());
  write_file(dir.file("c.json"), config_for(fake));
  auto audit = dir.file("a.jsonl");
  {
    invjudge_process p({"run", "--pairs", dir.file("pairs.jsonl"), "--config",
                        dir.file("c.json"), "--audit", audit, "--no-progress"},
                       dir.file("out.txt"), dir.file("err.txt"));
    REQUIRE(wait_for_requests(fake, pair_count / 3));
    p.signal(SIGINT);
    CHECK(p.wait() == 4);
  }
  REQUIRE(read_audit(audit).last_type == "run_end");
  auto r =
    invjudge(dir, "run --resume a.jsonl --pairs pairs.jsonl --no-progress");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto v = invjudge(dir, "audit verify a.jsonl");
  INFO(v.out);
  CHECK(v.exit_code == 0);
  auto view = read_audit(audit);
  CHECK(view.types["run_end"] == 2);
  CHECK(view.types["verdict"] == pair_count);
  CHECK(view.types["item_verdict"] == 6);

  // A finished run has nothing to resume; nor has an edited audit.
  auto again =
    invjudge(dir, "run --resume a.jsonl --pairs pairs.jsonl --no-progress");
  CHECK(again.exit_code == 3);
  CHECK(again.err.find("the run finished") != std::string::npos);
  write_file(dir.file("e.jsonl"), read_file(audit).substr(10));
  auto edited =
    invjudge(dir, "run --resume e.jsonl --pairs pairs.jsonl --no-progress");
  CHECK(edited.exit_code == 3);
  CHECK(edited.err.find("edited") != std::string::npos);
  auto missing = invjudge(dir, "run --resume none.jsonl --pairs pairs.jsonl");
  CHECK(missing.exit_code == 3);
  auto both =
    invjudge(dir, "run --resume a.jsonl --config c.json --pairs pairs.jsonl");
  CHECK(both.exit_code == 2);
}

TEST_CASE("e2e: run --resume with live canaries sends none of the canaries its "
          "audit holds again") {
  fake_api fake(slow_judge());
  temp_dir dir;
  write_file(dir.file("pairs.jsonl"), pairs_text());
  auto config = config_for(fake);
  config.insert(config.size() - 1, R"(,"canaries":{"rate":0.2,"seed":3})");
  write_file(dir.file("c.json"), config);
  auto audit = dir.file("a.jsonl");
  {
    invjudge_process p({"run", "--pairs", dir.file("pairs.jsonl"), "--config",
                        dir.file("c.json"), "--audit", audit, "--no-progress"},
                       dir.file("out.txt"), dir.file("err.txt"));
    REQUIRE(wait_for_requests(fake, pair_count / 3));
    p.signal(SIGINT);
    CHECK(p.wait() == 4);
  }
  auto before = read_audit(audit);
  REQUIRE(before.last_type == "run_end");
  auto r =
    invjudge(dir, "run --resume a.jsonl --pairs pairs.jsonl --no-progress");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto v = invjudge(dir, "audit verify a.jsonl");
  INFO(v.out);
  CHECK(v.exit_code == 0);
  auto resumed = read_audit(audit);
  CHECK(resumed.types["verdict"] == pair_count);
  // The same canaries as an uninterrupted run with that seed: none twice.
  auto u =
    invjudge(dir, "run --pairs pairs.jsonl --config c.json --audit b.jsonl "
                  "--no-progress");
  REQUIRE(u.exit_code == 0);
  auto whole = read_audit(dir.file("b.jsonl"));
  REQUIRE(whole.types["canary"] > 0);
  CHECK(resumed.types["canary"] == whole.types["canary"]);
  std::map<std::string, int> ids;
  for (auto& line : lines_of(read_file(audit)))
    if (line.find("\"type\":\"canary\"") != std::string::npos)
      ++ids[line.substr(line.find("\"canary_id\""), 60)];
  for (auto& [id, n] : ids)
    CHECK(n == 1);
}

TEST_CASE(
  "e2e: run --resume goes on from the budget its audit says was spent") {
  fake_api fake(slow_judge());
  temp_dir dir;
  write_file(dir.file("pairs.jsonl"), pairs_text());
  // 30 calls for 60 pairs: half of the votes are refused at the budget.
  auto config = config_for(fake);
  config.replace(config.find("\"max_attempts\":1}"), 17,
                 "\"max_attempts\":1,\"budget\":{\"max_calls\":30}}");
  config.replace(config.rfind('}'), 1, ",\"max_fault_rate\":1}");
  write_file(dir.file("c.json"), config);
  auto audit = dir.file("a.jsonl");
  {
    invjudge_process p({"run", "--pairs", dir.file("pairs.jsonl"), "--config",
                        dir.file("c.json"), "--audit", audit, "--no-progress"},
                       dir.file("out.txt"), dir.file("err.txt"));
    REQUIRE(wait_for_requests(fake, 12));
    p.signal(SIGINT);
    p.wait();
  }
  auto first = fake.server().requests();
  REQUIRE(first < 30); // interrupted before its budget
  auto r =
    invjudge(dir, "run --resume a.jsonl --pairs pairs.jsonl --no-progress");
  INFO(r.err);
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
  // Both parts together made the budget's 30 calls, not 30 more: beyond
  // them only the first part's calls whose records were not committed (in
  // flight, or answered but not yet written, at the interrupt). One vote a
  // pair: the decided pairs are the committed calls.
  auto at = r.err.find(" pair(s) already decided");
  REQUIRE(at != std::string::npos);
  auto from = r.err.rfind(": ", at) + 2;
  auto decided = std::stoul(r.err.substr(from, at - from));
  REQUIRE(decided > 0);
  CHECK(fake.server().requests() <= 30 + (first - decided));
  auto text = read_file(audit);
  std::size_t refused = 0;
  for (auto at = text.find("\"fault_kind\":\"budget\"");
       at != std::string::npos;
       at = text.find("\"fault_kind\":\"budget\"", at + 1))
    ++refused;
  CHECK(refused == pair_count - 30);
}

TEST_CASE("e2e: run --resume refuses a pair the audit decided when its answers "
          "changed") {
  fake_api fake(slow_judge());
  temp_dir dir;
  write_file(dir.file("pairs.jsonl"), pairs_text());
  write_file(dir.file("c.json"), config_for(fake));
  auto audit = dir.file("a.jsonl");
  {
    invjudge_process p({"run", "--pairs", dir.file("pairs.jsonl"), "--config",
                        dir.file("c.json"), "--audit", audit, "--no-progress"},
                       dir.file("out.txt"), dir.file("err.txt"));
    REQUIRE(wait_for_requests(fake, pair_count / 3));
    p.signal(SIGINT);
    p.wait();
  }
  // p0 was decided before the interrupt; here it comes with another B.
  auto pairs = pairs_text();
  auto at = pairs.find(R"("b":"1")");
  REQUIRE(at != std::string::npos);
  pairs.replace(at, 7, R"("b":"9")");
  write_file(dir.file("changed.jsonl"), pairs);
  auto before = read_file(audit);
  auto r =
    invjudge(dir, "run --resume a.jsonl --pairs changed.jsonl --no-progress");
  CHECK(r.exit_code != 0);
  CHECK(
    r.err.find(
      "pair p0 has other answers (A or B) than the pair of that id the resumed "
      "audit decided")
    != std::string::npos);
  // Nothing recorded is lost: the audit still verifies, and a resume with
  // the run's own pairs finishes it.
  CHECK(read_file(audit).compare(0, before.size(), before) == 0);
  auto ok =
    invjudge(dir, "run --resume a.jsonl --pairs pairs.jsonl --no-progress");
  INFO(ok.err);
  CHECK(ok.exit_code == 0);
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
}
