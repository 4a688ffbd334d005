// `invjudge calibrate`, runs with "calibration" and "stop.probability", and
// the report's calibration section, through the built binary (issue 16).
#include <map>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "cli_support.hpp"
#include "core/calibration/calibration.hpp"
#include "core/sha256.hpp"
#include "tests/error_text.hpp"

using namespace ij::test;

namespace {

constexpr const char* judge = "stub:noisy:0.1";

// 600 labelled synthetic pairs, judged once each by the noisy judge, and a
// map fitted on them.
struct calibrated_dir {
  temp_dir dir;
  cli_result calibrated;

  calibrated_dir() {
    auto pairs = invjudge(dir, "gen-pairs 600");
    REQUIRE(pairs.exit_code == 0);
    write_file(dir.file("pairs.jsonl"), pairs.out);
    write_file(dir.file("cal.json"),
               std::string{"{\"judge\":\""} + judge
                 + "\",\"votes\":1,\"audit\":{\"path\":\"cal.audit.jsonl\"}}");
    REQUIRE(invjudge(dir, "run --no-progress --pairs pairs.jsonl --config "
                          "cal.json --out /dev/null")
              .exit_code
            == 0);
    calibrated = invjudge(dir, "calibrate cal.audit.jsonl --out map.json "
                               "--bootstrap 100");
  }

  std::string config(const std::string& extra, const std::string& audit) {
    return std::string{"{\"judge\":\""} + judge
           + "\",\"votes\":5,\"min_agreement\":3," + extra
           + "\"audit\":{\"path\":\"" + audit + "\"}}";
  }
};

rapidjson::Document parse(const std::string& line) {
  rapidjson::Document d;
  d.Parse(line.data(), line.size());
  REQUIRE_FALSE(d.HasParseError());
  return d;
}

} // namespace

TEST_CASE("calibrate writes a map per judge with its figures") {
  calibrated_dir c;
  INFO(c.calibrated.err);
  REQUIRE(c.calibrated.exit_code == 0);
  auto text = read_file(c.dir.file("map.json"));
  std::string error;
  auto set = ij::parse_calibration_file(text, "map.json");
  error = ::test::why(set);
  REQUIRE(set);
  REQUIRE(set->judges.size() == 1);
  auto& fit = set->judges.begin()->second;
  CHECK(fit.map.judge_id.rfind("stub:noisy:0.1 t=0 prompt=", 0) == 0);
  CHECK(fit.map.source == "decision_probs");
  CHECK(fit.pairs > 500); // absent pairs carry no vote
  CHECK(fit.calibrated.ece.value < fit.raw.ece.value);
  CHECK(c.calibrated.err.find("labelled pairs") != std::string::npos);
  CHECK(c.calibrated.err.find("ECE") != std::string::npos);
}

TEST_CASE(
  "calibrate refuses too few labelled pairs, saying why with the count") {
  calibrated_dir c;
  auto r = invjudge(c.dir, "calibrate cal.audit.jsonl --out small.json "
                           "--min-pairs 100000");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("labelled pair(s)") != std::string::npos);
  CHECK(r.err.find("at least 100000") != std::string::npos);
  CHECK(read_file(c.dir.file("small.json")).empty());
  // An audit without labels at all.
  write_file(c.dir.file("nolabel.jsonl"),
             "{\"id\":\"x\",\"a\":\"1\",\"b\":\"1\"}\n");
  write_file(c.dir.file("nl.json"),
             std::string{"{\"judge\":\""} + judge
               + "\",\"audit\":{\"path\":\"nl.audit.jsonl\"}}");
  REQUIRE(
    invjudge(c.dir, "run --no-progress --pairs nolabel.jsonl --config nl.json")
      .exit_code
    == 0);
  r = invjudge(c.dir, "calibrate nl.audit.jsonl --out nl.map.json");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no labelled votes") != std::string::npos);
}

TEST_CASE(
  "a run with a map carries the calibrated probability and its SHA-256") {
  calibrated_dir c;
  REQUIRE(c.calibrated.exit_code == 0);
  write_file(c.dir.file("run.json"),
             c.config("\"calibration\":\"map.json\",", "run.audit.jsonl"));
  auto r =
    invjudge(c.dir, "run --no-progress --pairs pairs.jsonl --config run.json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::size_t with = 0;
  for (auto& line : lines_of(r.out)) {
    auto d = parse(line);
    if (std::string{d["kind"].GetString()} == "pair"
        && d["votes"]["equivalent"].GetUint()
               + d["votes"]["different"].GetUint()
             > 0) {
      REQUIRE(d.HasMember("probability"));
      double p = d["probability"].GetDouble();
      CHECK(p >= 0.0);
      CHECK(p <= 1.0);
      ++with;
    }
    if (std::string{d["kind"].GetString()} == "item")
      CHECK(d.HasMember("probability"));
  }
  CHECK(with > 500);
  auto audit = read_file(c.dir.file("run.audit.jsonl"));
  auto sha = ij::sha256_hex(read_file(c.dir.file("map.json")));
  CHECK(
    audit.find("\"calibration\":\"map.json\",\"calibration_sha256\":\"" + sha)
    != std::string::npos);
  CHECK(audit.find("\"stop\":\"outcome_fixed\"") != std::string::npos);
  CHECK(r.err.find("calibrated probability: ECE") != std::string::npos);
  // The I1-I5 table does not change: the same verdicts as without the map.
  write_file(c.dir.file("plain.json"), c.config("", "plain.audit.jsonl"));
  auto plain = invjudge(
    c.dir, "run --no-progress --pairs pairs.jsonl --config plain.json");
  REQUIRE(plain.exit_code == 0);
  auto verdicts = [](const std::string& out) {
    std::map<std::string, std::string> by_id;
    for (auto& line : lines_of(out)) {
      auto d = parse(line);
      if (std::string{d["kind"].GetString()} == "pair")
        by_id[d["id"].GetString()] = d["verdict"].GetString();
    }
    return by_id;
  };
  CHECK(verdicts(r.out) == verdicts(plain.out));
  CHECK(verdicts(r.out).size() == 600);
  // The report shows the reliability diagram.
  auto rep = invjudge(c.dir, "report run.audit.jsonl --html r.html");
  REQUIRE(rep.exit_code == 0);
  auto html = read_file(c.dir.file("r.html"));
  CHECK(html.find("<section id=\"calibration\">") != std::string::npos);
  CHECK(html.find("Reliability of stub:noisy:0.1") != std::string::npos);
  CHECK(html.find("calibrated votes") != std::string::npos);
}

TEST_CASE("stop.probability stops pairs early and records why") {
  calibrated_dir c;
  REQUIRE(c.calibrated.exit_code == 0);
  write_file(
    c.dir.file("seq.json"),
    c.config("\"calibration\":\"map.json\",\"stop\":{\"probability\":0.99},",
             "seq.audit.jsonl"));
  auto r =
    invjudge(c.dir, "run --no-progress --pairs pairs.jsonl --config seq.json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::size_t by_probability = 0, votes = 0;
  for (auto& line : lines_of(read_file(c.dir.file("seq.audit.jsonl")))) {
    auto d = parse(line);
    if (std::string{d["type"].GetString()} != "vote" || d["absent"].GetBool())
      continue;
    ++votes;
    std::string why = d["stop"].GetString();
    CHECK((why == "probability" || why == "outcome_fixed"
           || why == "votes_exhausted"));
    by_probability += why == "probability";
    CHECK(d["judge_calls"].GetUint() <= 5);
  }
  CHECK(votes > 500);
  CHECK(by_probability > votes / 2);
}

TEST_CASE("calibration errors are configuration errors naming what and where") {
  calibrated_dir c;
  REQUIRE(c.calibrated.exit_code == 0);
  SECTION("a map for another judge id") {
    write_file(c.dir.file("x.json"),
               "{\"judge\":\"stub:noisy:0.05\",\"calibration\":\"map.json\"}");
    auto r =
      invjudge(c.dir, "run --no-progress --pairs pairs.jsonl --config x.json");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("map.json: no map for judge \"stub:noisy:0.05\"")
          != std::string::npos);
    CHECK(r.err.find("the map is for stub:noisy:0.1 t=0") != std::string::npos);
  }
  SECTION("an edited map") {
    auto text = read_file(c.dir.file("map.json"));
    auto at = text.find("\"calibrated\":[") + 14;
    text.insert(at, "0.5,");
    write_file(c.dir.file("edited.json"), text);
    write_file(c.dir.file("x.json"),
               c.config("\"calibration\":\"edited.json\",", "x.jsonl"));
    auto r =
      invjudge(c.dir, "run --no-progress --pairs pairs.jsonl --config x.json");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("edited.json: /checksum: does not match")
          != std::string::npos);
  }
  SECTION("a map that is not monotone") {
    ij::calibration_fit f;
    f.map = {"stub:noisy:0.1 t=0", "decision_probs", {0.5, 0.9}, {0.9, 0.6}};
    auto text = ij::calibration_file_json({f}, ij::fit_options{});
    write_file(c.dir.file("bad.json"), text);
    write_file(c.dir.file("x.json"),
               c.config("\"calibration\":\"bad.json\",", "x.jsonl"));
    auto r =
      invjudge(c.dir, "run --no-progress --pairs pairs.jsonl --config x.json");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("bad.json: /judges/0: is not monotone")
          != std::string::npos);
  }
  SECTION("a missing map file") {
    write_file(c.dir.file("x.json"),
               c.config("\"calibration\":\"none.json\",", "x.jsonl"));
    auto r =
      invjudge(c.dir, "run --no-progress --pairs pairs.jsonl --config x.json");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("/calibration: cannot read none.json")
          != std::string::npos);
  }
  SECTION("stop.probability without a map") {
    write_file(c.dir.file("x.json"),
               c.config("\"stop\":{\"probability\":0.99},", "x.jsonl"));
    auto r =
      invjudge(c.dir, "run --no-progress --pairs pairs.jsonl --config x.json");
    CHECK(r.exit_code == 3);
    CHECK(
      r.err.find("x.json: /stop/probability: stopping on probability needs a "
                 "calibration map")
      != std::string::npos);
  }
  SECTION("a map whose SHA-256 differs from the manifest's on resume") {
    write_file(c.dir.file("x.json"),
               c.config("\"calibration\":\"map.json\",", "x.audit.jsonl"));
    REQUIRE(
      invjudge(
        c.dir,
        "run --no-progress --pairs pairs.jsonl --config x.json --out /dev/null")
        .exit_code
      == 0);
    // The run as if killed after 200 records, then the map refitted.
    auto lines = lines_of(read_file(c.dir.file("x.audit.jsonl")));
    std::string cut;
    for (std::size_t i = 0; i < 200; ++i)
      cut += lines[i] + "\n";
    write_file(c.dir.file("x.audit.jsonl"), cut);
    REQUIRE(
      invjudge(c.dir,
               "calibrate cal.audit.jsonl --out map.json --force --seed 9 "
               "--bootstrap 10")
        .exit_code
      == 0);
    auto r = invjudge(
      c.dir, "run --no-progress --pairs pairs.jsonl --resume x.audit.jsonl");
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("map.json: SHA-256 ") != std::string::npos);
    CHECK(r.err.find("the map changed since the run started")
          != std::string::npos);
  }
}
