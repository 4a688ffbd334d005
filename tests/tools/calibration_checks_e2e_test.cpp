// Issue 27 items 2 and 3 through the binary: calibrate counts each pair
// once (by run id and pair id) however often its audit is given; a map knows
// the confidence it was fitted on and is refused (exit 3, naming both) by a
// judge that gives another; an empty or non-JSON map says what it is and
// how to make one; a map of 0/1 values never stops a pair on a decision no
// vote made; a relative map path in a configuration is the configuration's
// directory's.
#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "core/calibration/calibration.hpp"
#include "core/config/run_config.hpp"
#include "tests/tools/cli_support.hpp"

using namespace ij::test;

namespace {

// `n` synthetic labelled pairs judged once each by the noisy judge: the
// audit `audit`.
void noisy_run(const temp_dir& dir, int n, const std::string& audit) {
  auto pairs = invjudge(dir, "gen-pairs " + std::to_string(n));
  REQUIRE(pairs.exit_code == 0);
  write_file(dir.file(audit + ".pairs"), pairs.out);
  write_file(dir.file(audit + ".json"),
             "{\"judge\":\"stub:noisy:0.1\",\"votes\":1,\"audit\":{\"path\":\""
               + audit + "\"}}");
  auto r =
    invjudge(dir, "run --no-progress --pairs " + audit + ".pairs --config "
                    + audit + ".json --out /dev/null");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
}

std::uint64_t map_pairs(const std::string& text) {
  auto set = ij::parse_calibration_file(text, "map");
  REQUIRE(set);
  REQUIRE(set->judges.size() == 1);
  return set->judges.begin()->second.pairs;
}

// An OpenAI-compatible judge (nothing listens at its URL: every check here
// comes before any call) with `extra` settings, and its judge id.
std::string openai_config(const std::string& extra, const std::string& map) {
  return R"({"judges":[{"name":"held","type":"openai","model":"m","base_url":"http://127.0.0.1:1/v1",)"
         R"("temperature":0,"timeout_ms":2000,"max_in_flight":2,"max_attempts":1)"
         + extra + R"(}],"calibration":")" + map + "\"}";
}

std::string judge_id_in(const std::string& config) {
  auto cfg = ij::parse_config(config, "test");
  REQUIRE(cfg);
  return ij::judge_id_of(cfg->judges.front());
}

std::string map_for(const std::string& judge_id, const std::string& source,
                    std::vector<double> raw = {0.5, 0.9},
                    std::vector<double> calibrated = {0.6, 0.9}) {
  ij::calibration_fit f;
  f.map = {judge_id, source, std::move(raw), std::move(calibrated)};
  f.pairs = 100;
  f.votes = 100;
  return ij::calibration_file_json({f}, ij::fit_options{});
}

} // namespace

TEST_CASE(
  "calibrate: an audit given twice counts its pairs once, and says so") {
  temp_dir dir;
  noisy_run(dir, 30, "a.jsonl");
  // 30 pairs, some absent: fewer than 50 with a vote, however often given.
  auto twice =
    invjudge(dir, "calibrate a.jsonl a.jsonl --out m.json --bootstrap 10");
  INFO(twice.err);
  CHECK(twice.exit_code == 2);
  CHECK(twice.err.find("a.jsonl repeats run run-") != std::string::npos);
  CHECK(twice.err.find("already read from a.jsonl") != std::string::npos);
  CHECK(twice.err.find("a calibration map needs at least 50")
        != std::string::npos);
}

TEST_CASE("calibrate: a copy of an audit adds nothing: the same map as the "
          "audit alone") {
  temp_dir dir;
  noisy_run(dir, 80, "b.jsonl");
  write_file(dir.file("copy.jsonl"), read_file(dir.file("b.jsonl")));
  auto once = invjudge(dir, "calibrate b.jsonl --out once.json --bootstrap 10");
  REQUIRE(once.exit_code == 0);
  auto both = invjudge(
    dir, "calibrate b.jsonl copy.jsonl --out both.json --bootstrap 10");
  INFO(both.err);
  REQUIRE(both.exit_code == 0);
  CHECK(both.err.find("copy.jsonl repeats run run-") != std::string::npos);
  CHECK(map_pairs(read_file(dir.file("both.json")))
        == map_pairs(read_file(dir.file("once.json"))));
  CHECK(read_file(dir.file("both.json")) == read_file(dir.file("once.json")));
}

TEST_CASE(
  "a map fitted on log-probabilities is refused for a judge giving vote "
  "shares, and the other way round (exit 3, naming both)") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), "{\"id\":\"x\",\"a\":\"1\",\"b\":\"1\"}\n");
  auto plain = openai_config("", "map.json");
  write_file(dir.file("map.json"),
             map_for(judge_id_in(plain), "decision_probs"));
  write_file(dir.file("c.json"), plain);
  auto r = invjudge(
    dir, "run --no-progress --pairs p.jsonl --config c.json --audit a.jsonl");
  INFO(r.err);
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("map.json: the map for judge \"held\"")
        != std::string::npos);
  CHECK(
    r.err.find("was fitted on decision log-probabilities (\"source\": "
               "\"decision_probs\"), but this run's judge gives vote shares")
    != std::string::npos);
  CHECK(r.err.find("\"logprobs\": true") != std::string::npos);

  auto with_probs = openai_config(",\"logprobs\":true", "share.json");
  write_file(dir.file("share.json"),
             map_for(judge_id_in(with_probs), "vote_share"));
  write_file(dir.file("d.json"), with_probs);
  auto s = invjudge(
    dir, "run --no-progress --pairs p.jsonl --config d.json --audit b.jsonl");
  INFO(s.err);
  CHECK(s.exit_code == 3);
  CHECK(s.err.find(
          "was fitted on vote shares (\"source\": \"vote_share\"), but this "
          "run's judge gives decision log-probabilities")
        != std::string::npos);
}

TEST_CASE("an empty or non-JSON map file says so and how to make one") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), "{\"id\":\"x\",\"a\":\"1\",\"b\":\"1\"}\n");
  write_file(dir.file("c.json"),
             "{\"judge\":\"stub:noisy:0.1\",\"calibration\":\"m.json\"}");
  write_file(dir.file("m.json"), "");
  auto empty = invjudge(
    dir, "run --no-progress --pairs p.jsonl --config c.json --audit a.jsonl");
  CHECK(empty.exit_code == 3);
  CHECK(empty.err.find(
          "m.json: the file is empty, not a calibration map; write one with "
          "`invjudge calibrate")
        != std::string::npos);
  CHECK(empty.err.find("No such device") == std::string::npos);
  write_file(dir.file("m.json"), "hello\n");
  auto text = invjudge(
    dir, "run --no-progress --pairs p.jsonl --config c.json --audit b.jsonl");
  CHECK(text.exit_code == 3);
  CHECK(text.err.find(
          "m.json: not a calibration map (not a JSON object: Invalid value. at "
          "byte 0); write one with `invjudge calibrate")
        != std::string::npos);
}

TEST_CASE("a map of 0/1 values never stops a pair on a decision no vote made") {
  temp_dir dir;
  auto pairs = invjudge(dir, "gen-pairs 60");
  REQUIRE(pairs.exit_code == 0);
  write_file(dir.file("p.jsonl"), pairs.out);
  auto config = std::string{
    "{\"judge\":\"stub:noisy:0.1\",\"votes\":5,\"min_agreement\":3,"
    "\"calibration\":\"zero.json\",\"stop\":{\"probability\":0.99}}"};
  // Every vote wrong with certainty: each vote is evidence for the other side.
  write_file(
    dir.file("zero.json"),
    map_for(judge_id_in(config), "decision_probs", {0.0, 1.0}, {0.0, 0.0}));
  write_file(dir.file("c.json"), config);
  auto r = invjudge(
    dir, "run --no-progress --pairs p.jsonl --config c.json --audit a.jsonl");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::size_t judged = 0;
  for (auto& line : lines_of(r.out)) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    if (std::string{d["kind"].GetString()} != "pair"
        || !d["equivalent"].IsBool())
      continue;
    ++judged;
    std::string detail = d["detail"].GetString();
    INFO(line);
    CHECK(detail.find("stopped at P=1.0000") == std::string::npos);
    auto side = d["equivalent"].GetBool() ? d["votes"]["equivalent"].GetUint()
                                          : d["votes"]["different"].GetUint();
    CHECK(side > 0);
  }
  CHECK(judged > 40);
}

TEST_CASE(
  "a relative map path in a configuration is the configuration's directory's") {
  temp_dir dir;
  noisy_run(dir, 80, "cal.jsonl");
  REQUIRE(::system(("mkdir " + shell_quote(dir.file("cfg"))).c_str()) == 0);
  auto cal =
    invjudge(dir, "calibrate cal.jsonl --out cfg/map.json --bootstrap 10");
  REQUIRE(cal.exit_code == 0);
  write_file(dir.file("cfg/run.json"),
             "{\"judge\":\"stub:noisy:0.1\",\"calibration\":\"map.json\","
             "\"audit\":{\"path\":\"runs.audit.jsonl\"}}");
  auto r = invjudge(
    dir, "run --no-progress --pairs cal.jsonl.pairs --config cfg/run.json "
         "--out /dev/null");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  // Both the map and the audit are where the configuration is.
  auto audit = read_file(dir.file("cfg/runs.audit.jsonl"));
  CHECK(audit.find("\"calibration\":\"cfg/map.json\"") != std::string::npos);
}
