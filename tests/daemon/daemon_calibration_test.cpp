// A calibration map in a run submitted to the daemon (issue 16): read on the
// daemon's host with the driver's checks, each error a 400 bad_config before
// anything is created; and the calibrated probability of each pair the same
// through the driver, a judge host and the daemon.
#include <csignal>
#include <map>
#include <memory>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "core/calibration/calibration.hpp"
#include "core/sha256.hpp"
#include "tests/daemon/daemon_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

constexpr const char* judge = "stub:noisy:0.1";

rapidjson::Document parse(const std::string& line) {
  rapidjson::Document d;
  d.Parse(line.data(), line.size());
  REQUIRE_FALSE(d.HasParseError());
  return d;
}

/// Each pair line's probability by id (pairs without one are left out).
std::map<std::string, double> probabilities(const std::string& lines) {
  std::map<std::string, double> out;
  for (auto& line : lines_of(lines)) {
    auto d = parse(line);
    if (std::string{d["kind"].GetString()} == "pair"
        && d.HasMember("probability"))
      out[d["id"].GetString()] = d["probability"].GetDouble();
  }
  return out;
}

std::string run_config_json(const std::string& map) {
  return std::string{"{\"judge\":\""} + judge
         + "\",\"votes\":5,\"min_agreement\":3,\"calibration\":\"" + map
         + "\"}";
}

/// A map that parses and is monotone, for `judge_id`.
std::string valid_map(const std::string& judge_id) {
  calibration_fit f;
  f.map = {judge_id, "decision_probs", {0.5, 0.9}, {0.6, 0.9}};
  f.votes = 100;
  return calibration_file_json({f}, fit_options{});
}

} // namespace

TEST_CASE(
  "daemon calibration: every map error is a 400 bad_config naming it, and "
  "no run is created") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state"), {}, "serve", dir.path()};
  api_client api{d.url(), ""};
  auto submit = [&](const std::string& map) {
    return api.request("POST", "/v1/runs",
                       "{\"config\":" + run_config_json(map) + "}",
                       "application/json");
  };
  auto expect_refused = [&](const std::string& map, const std::string& what) {
    auto r = submit(map);
    INFO(r.body);
    CHECK(r.status == 400);
    CHECK(r.body.find("\"code\":\"bad_config\"") != std::string::npos);
    CHECK(r.body.find(what) != std::string::npos);
  };
  SECTION("a missing map file") {
    expect_refused("none.json",
                   "/calibration: cannot read " + dir.file("none.json"));
  }
  SECTION("an edited map") {
    auto text = valid_map("stub:noisy:0.1 t=0");
    text.insert(text.find("\"calibrated\":[") + 14, "0.5,");
    write_file(dir.file("edited.json"), text);
    expect_refused("edited.json",
                   dir.file("edited.json") + ": /checksum: does not match");
  }
  SECTION("a map that is not monotone") {
    calibration_fit f;
    f.map = {"stub:noisy:0.1 t=0", "decision_probs", {0.5, 0.9}, {0.9, 0.6}};
    write_file(dir.file("bad.json"), calibration_file_json({f}, fit_options{}));
    expect_refused("bad.json",
                   dir.file("bad.json") + ": /judges/0: is not monotone");
  }
  SECTION("a map for another judge id") {
    write_file(dir.file("other.json"), valid_map("stub:noisy:0.05 t=0"));
    expect_refused("other.json",
                   dir.file("other.json")
                     + ": no map for judge \\\"stub:noisy:0.1\\\"");
  }
  // Nothing was created: no run listed, no run directory.
  auto list = api.request("GET", "/v1/runs");
  CHECK(list.body.find("\"id\"") == std::string::npos);
}

TEST_CASE(
  "the calibrated probability is the same through the driver, a judge host "
  "and the daemon") {
  temp_dir dir;
  auto pairs = invjudge(dir, "gen-pairs 300");
  REQUIRE(pairs.exit_code == 0);
  write_file(dir.file("pairs.jsonl"), pairs.out);
  write_file(dir.file("cal.json"),
             std::string{"{\"judge\":\""} + judge
               + "\",\"votes\":1,"
                 "\"audit\":{\"path\":\"cal.audit.jsonl\"}}");
  REQUIRE(invjudge(dir,
                   "run --no-progress --pairs pairs.jsonl --config cal.json "
                   "--out /dev/null")
            .exit_code
          == 0);
  auto cal =
    invjudge(dir, "calibrate cal.audit.jsonl --out map.json --bootstrap 20");
  INFO(cal.err);
  REQUIRE(cal.exit_code == 0);
  write_file(dir.file("run.json"), run_config_json("map.json"));

  // (a) the driver with its own workers.
  auto driver =
    invjudge(dir, "run --no-progress --pairs pairs.jsonl --config run.json");
  INFO(driver.err);
  REQUIRE(driver.exit_code == 0);
  auto by_driver = probabilities(driver.out);
  CHECK(by_driver.size() > 250);

  // (b) the driver voting through a judge host serving the same judge.
  std::map<std::string, double> by_host;
  {
    auto err = dir.file("host.err");
    invjudge_process host{{"host", "--listen", "127.0.0.1:0", "--judge", judge},
                          dir.file("host.out"),
                          err,
                          -1,
                          dir.path()};
    REQUIRE(wait_for_text(err, "listening on "));
    auto text = read_file(err);
    auto at = text.find("listening on ") + 13;
    auto address = text.substr(at, text.find('\n', at) - at);
    auto hosted =
      invjudge(dir, "run --no-progress --pairs pairs.jsonl --config run.json "
                    "--host "
                      + address);
    INFO(hosted.err);
    REQUIRE(hosted.exit_code == 0);
    by_host = probabilities(hosted.out);
    host.signal(SIGTERM);
    host.wait();
  }

  // (c) the daemon, the map's path relative to its working directory.
  std::map<std::string, double> by_daemon;
  std::string audit;
  {
    started_daemon d{dir, dir.file("state"), {}, "serve", dir.path()};
    api_client api{d.url(), ""};
    auto created = api.request(
      "POST", "/v1/runs", "{\"config\":" + run_config_json("map.json") + "}",
      "application/json");
    INFO(created.body);
    REQUIRE(created.status == 201);
    auto id = field(created.body, "id");
    auto up = api.request("POST", "/v1/runs/" + id + "/pairs", pairs.out,
                          "application/x-ndjson");
    REQUIRE(up.status == 200);
    REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
    CHECK(field(wait_until_ended(api, id), "state") == "done");
    by_daemon =
      probabilities(api.request("GET", "/v1/runs/" + id + "/verdicts").body);
    audit = api.request("GET", "/v1/runs/" + id + "/audit").body;
    d.process().signal(SIGTERM);
    d.process().wait();
  }
  // The manifest names the map by its absolute path and its SHA-256.
  auto sha = sha256_hex(read_file(dir.file("map.json")));
  CHECK(audit.find("\"calibration\":\"" + dir.file("map.json")
                   + "\",\"calibration_sha256\":\"" + sha + "\"")
        != std::string::npos);

  REQUIRE(by_host.size() == by_driver.size());
  REQUIRE(by_daemon.size() == by_driver.size());
  for (auto& [id, p] : by_driver) {
    INFO(id);
    REQUIRE(by_host.count(id) == 1);
    REQUIRE(by_daemon.count(id) == 1);
    // The same votes in any order: their log-odds added may differ in the
    // last bits only.
    CHECK(by_host[id] == Approx(p).margin(1e-12));
    CHECK(by_daemon[id] == Approx(p).margin(1e-12));
  }
}
