// `invjudge run` end to end: the example, the output schema, the default
// judge from any directory, --out, votes and --judge.
#include <map>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "cli_support.hpp"

using namespace ij::test;

namespace {

std::string example_pairs() {
  return shell_quote(source_dir() + "/examples/pairs.jsonl");
}

std::vector<rapidjson::Document> parse_lines(const std::string& text) {
  std::vector<rapidjson::Document> out;
  for (auto& line : lines_of(text)) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    INFO(line);
    REQUIRE_FALSE(d.HasParseError());
    REQUIRE(d.IsObject());
    out.push_back(std::move(d));
  }
  return out;
}

std::size_t count_kind(const std::vector<rapidjson::Document>& docs,
                       const std::string& kind) {
  std::size_t n = 0;
  for (auto& d : docs)
    n += d["kind"].GetString() == kind;
  return n;
}

/// Audit records of a type.
std::size_t audit_records(const std::string& audit, const std::string& type) {
  std::size_t n = 0;
  for (auto& line : lines_of(audit)) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    if (!d.HasParseError() && d.IsObject() && d.HasMember("type")
        && d["type"].GetString() == type)
      ++n;
  }
  return n;
}

} // namespace

TEST_CASE(
  "the example runs with exit 0, a verdict per pair and item, and a summary") {
  temp_dir dir;
  auto r =
    invjudge(dir, "run --pairs " + example_pairs() + " --audit audit.jsonl");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto docs = parse_lines(r.out);
  auto pairs =
    lines_of(read_file(source_dir() + "/examples/pairs.jsonl")).size();
  CHECK(count_kind(docs, "pair") == pairs);
  CHECK(count_kind(docs, "item") == 7);
  CHECK(r.err.find("invjudge: audit: audit.jsonl") != std::string::npos);
  CHECK(r.err.find("run complete: " + std::to_string(pairs)
                   + " pairs judged, 7 items")
        != std::string::npos);
  CHECK(r.err.find("pair verdicts by rule") != std::string::npos);
  CHECK(r.err.find("judge calls:") != std::string::npos);
  CHECK(r.err.find("comparator outcome x label") != std::string::npos);
  // The item verdicts the example is built to show.
  std::map<std::string, std::string> item_verdicts;
  for (auto& d : docs)
    if (d["kind"].GetString() == std::string{"item"})
      item_verdicts[d["item"].GetString()] = d["verdict"].GetString();
  CHECK(item_verdicts["train-speed"] == "INVARIANT");
  CHECK(item_verdicts["simple-interest"] == "VIOLATED");
  CHECK(item_verdicts["ages"] == "NEITHER");
  auto audit = read_file(dir.file("audit.jsonl"));
  CHECK(audit_records(audit, "manifest") == 1);
  CHECK(audit_records(audit, "verdict") == pairs);
  CHECK(audit_records(audit, "item_verdict") == 7);
  CHECK(audit_records(audit, "run_end") == 1);
}

TEST_CASE("every output line follows the documented schema") {
  temp_dir dir;
  auto r = invjudge(dir, "run --pairs " + example_pairs() + " --audit a.jsonl");
  REQUIRE(r.exit_code == 0);
  auto docs = parse_lines(r.out);
  REQUIRE_FALSE(docs.empty());
  for (auto& d : docs) {
    std::string kind = d["kind"].GetString();
    std::string verdict = d["verdict"].GetString();
    std::string rule = d["rule"].GetString();
    CHECK((verdict == "INVARIANT" || verdict == "VIOLATED"
           || verdict == "NEITHER"));
    CHECK(
      (rule.size() == 2 && rule[0] == 'I' && rule[1] >= '1' && rule[1] <= '5'));
    CHECK(d["item"].IsString());
    if (kind == "pair") {
      CHECK(d["id"].IsString());
      CHECK((d["equivalent"].IsBool() || d["equivalent"].IsNull()));
      CHECK(d["confidence"].IsNumber());
      for (auto f : {"votes", "min_agreement", "equivalent", "different",
                     "abstain", "parse_error", "faults", "not_cast"})
        CHECK(d["votes"][f].IsUint());
      CHECK(d["votes"]["votes"].GetUint() == 1);
      CHECK((!d.HasMember("label") || d["label"].IsBool()));
      // The verdict follows the rule (SPEC §8).
      if (rule == "I4")
        CHECK(verdict == "INVARIANT");
      else if (rule == "I5")
        CHECK(verdict == "VIOLATED");
      else
        CHECK(verdict == "NEITHER");
    } else {
      REQUIRE(kind == "item");
      std::uint64_t sum = 0;
      for (auto f : {"I1", "I2", "I3", "I4", "I5"})
        sum += d["counts"][f].GetUint();
      CHECK(sum == d["n"].GetUint());
      CHECK(d["decided"].GetUint()
            == d["counts"]["I4"].GetUint() + d["counts"]["I5"].GetUint());
      CHECK(d["p"].IsNumber());
      CHECK(d["lo"].GetDouble() <= d["hi"].GetDouble());
    }
  }
  // Label null in the input: no label in the output.
  for (auto& d : docs)
    if (d["kind"].GetString() == std::string{"pair"}
        && d["id"].GetString() == std::string{"frac-04"}) {
      CHECK_FALSE(d.HasMember("label"));
      CHECK(d["rule"].GetString() == std::string{"I1"});
    }
}

TEST_CASE(
  "without a configuration the embedded default judges from any directory") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), R"({"id":"x","a":"\\boxed{12}","b":"twelve"})"
                                  "\n"
                                  R"({"id":"y","a":"12","b":"13"})"
                                  "\n");
  auto r = invjudge(dir, "run --pairs p.jsonl --no-progress");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto docs = parse_lines(r.out);
  REQUIRE(docs.size() == 4); // two pairs, two one-pair items
  CHECK(docs[0]["kind"].GetString() == std::string{"pair"});
  // The default audit file lands in the working directory and is named.
  auto audits = files_starting_with(dir, "invjudge-audit-");
  REQUIRE(audits.size() == 1);
  CHECK(r.err.find("invjudge: audit: " + audits[0]) != std::string::npos);
  auto audit = read_file(dir.file(audits[0]));
  CHECK(audit.find("rules:math") != std::string::npos);
  CHECK(audit.find("(embedded default)") != std::string::npos);
  // A second run gets a fresh audit file, never the first one's.
  REQUIRE(invjudge(dir, "run --pairs p.jsonl").exit_code == 0);
  CHECK(files_starting_with(dir, "invjudge-audit-").size() == 2);
}

TEST_CASE(
  "the option --out writes the verdicts to a file and nothing to stdout") {
  temp_dir dir;
  auto r = invjudge(dir, "run --pairs " + example_pairs()
                           + " --out v.jsonl --audit a.jsonl");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(count_kind(parse_lines(read_file(dir.file("v.jsonl"))), "pair") > 0);
}

TEST_CASE("an existing audit file is never appended to") {
  temp_dir dir;
  write_file(dir.file("a.jsonl"), "{\"seq\":1}\n");
  auto r = invjudge(dir, "run --pairs " + example_pairs() + " --audit a.jsonl");
  CHECK(r.exit_code == 3);
  CHECK(r.out.empty());
  CHECK(read_file(dir.file("a.jsonl")) == "{\"seq\":1}\n");
}

TEST_CASE("five votes with min_agreement 3 stop early and say so") {
  temp_dir dir;
  write_file(dir.file("c.json"), R"({"votes":5,"min_agreement":3})");
  write_file(dir.file("p.jsonl"), R"({"id":"x","a":"7","b":"7"})"
                                  "\n"
                                  R"({"id":"y","a":"","b":"7"})"
                                  "\n");
  auto r = invjudge(dir, "run --pairs p.jsonl --config c.json --audit a.jsonl");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto docs = parse_lines(r.out);
  bool seen_x = false, seen_y = false;
  for (auto& d : docs) {
    if (d["kind"].GetString() != std::string{"pair"})
      continue;
    CHECK(d["votes"]["votes"].GetUint() == 5);
    CHECK(d["votes"]["min_agreement"].GetUint() == 3);
    if (d["id"].GetString() == std::string{"x"}) {
      seen_x = true;
      CHECK(d["rule"].GetString() == std::string{"I4"});
      CHECK(d["votes"]["equivalent"].GetUint() == 3);
      CHECK(d["votes"]["not_cast"].GetUint() == 2);
    } else {
      seen_y = true;
      CHECK(d["rule"].GetString() == std::string{"I1"});
      CHECK(d["votes"]["equivalent"].GetUint() == 0);
    }
  }
  CHECK(seen_x);
  CHECK(seen_y);
  CHECK(
    r.err.find(
      "judge calls: 3 recorded: 3 sent, 0 refused by the breaker, 0 refused "
      "by a budget; 2 skipped by early stop; 0 faults")
    != std::string::npos);
}

TEST_CASE("the option --judge replaces the judge for the run") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), R"({"id":"x","a":"7","b":"7"})"
                                  "\n");
  auto r =
    invjudge(dir, "run --pairs p.jsonl --judge stub:different --audit a.jsonl");
  REQUIRE(r.exit_code == 0);
  auto docs = parse_lines(r.out);
  REQUIRE(docs.size() == 2);
  CHECK(docs[0]["verdict"].GetString() == std::string{"VIOLATED"});
  CHECK(read_file(dir.file("a.jsonl")).find("stub:different")
        != std::string::npos);
}

TEST_CASE("a failing judge gives I2 faults and the run still completes") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), R"({"id":"x","a":"7","b":"7"})"
                                  "\n");
  // Any fault rate allowed: the run is complete (fault_rate_e2e_test.cpp
  // shows the default maximum at work).
  write_file(dir.file("c.json"), R"({"max_fault_rate":1})");
  auto r = invjudge(
    dir,
    "run --pairs p.jsonl --config c.json --judge stub:failing --audit a.jsonl");
  REQUIRE(r.exit_code == 0);
  auto docs = parse_lines(r.out);
  REQUIRE_FALSE(docs.empty());
  CHECK(docs[0]["rule"].GetString() == std::string{"I2"});
  CHECK(docs[0]["votes"]["faults"].GetUint() == 1);
}

TEST_CASE("pairs can come from standard input") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), R"({"id":"x","a":"7","b":"7"})"
                                  "\n");
  auto r = invjudge(dir, "run --pairs - --audit a.jsonl", "p.jsonl");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(count_kind(parse_lines(r.out), "pair") == 1);
}

TEST_CASE("the command line is checked, with help and exit codes documented") {
  temp_dir dir;
  auto help = invjudge(dir, "run --help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("Exit codes:") != std::string::npos);
  CHECK(help.out.find("--strict") != std::string::npos);
  CHECK(invjudge(dir, "run").exit_code == 2);        // --pairs is required
  CHECK(invjudge(dir, "frobnicate").exit_code == 2); // no such subcommand
  CHECK(invjudge(dir, "").exit_code == 2);           // a subcommand is required
}
