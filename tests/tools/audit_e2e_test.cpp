// `invjudge audit verify`: a finished audit verifies; an edited line is
// named (exit 1), and so is a run_end whose totals disagree with the records
// before it; a truncated audit "did not finish" (exit 4); the chain's final
// hash is printed by `run` and `verify` and checked with --expect-hash.
#include <csignal>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "cli_support.hpp"
#include "core/sha256.hpp"

using namespace ij::test;

namespace {

/// Runs the example into a.jsonl and returns its lines.
std::vector<std::string> finished_audit(const temp_dir& dir) {
  auto r = invjudge(dir, "run --pairs "
                           + shell_quote(source_dir() + "/examples/pairs.jsonl")
                           + " --audit a.jsonl");
  REQUIRE(r.exit_code == 0);
  auto lines = lines_of(read_file(dir.file("a.jsonl")));
  REQUIRE(lines.size() > 10);
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (auto& l : lines)
    out += l + "\n";
  return out;
}

/// Replaces the first `from` in `s` by `to`; the test fails if there is none.
void replace_once(std::string& s, const std::string& from,
                  const std::string& to) {
  auto pos = s.find(from);
  INFO(from);
  REQUIRE(pos != std::string::npos);
  s.replace(pos, from.size(), to);
}

/// Recomputes every prev after an edit, as a forger would: the chain then
/// holds again, so only the final hash kept elsewhere (or a total that no
/// longer adds up) can show the edit.
std::vector<std::string> rechained(std::vector<std::string> lines) {
  for (std::size_t i = 1; i < lines.size(); ++i) {
    auto pos = lines[i].find("\"prev\":\"");
    REQUIRE(pos != std::string::npos);
    lines[i].replace(pos + 8, 64, ij::sha256_hex(lines[i - 1]));
  }
  return lines;
}

std::uint64_t run_end_value(const std::string& line, const char* field) {
  rapidjson::Document d;
  d.Parse(line.c_str());
  REQUIRE(d.HasMember(field));
  return d[field].GetUint64();
}

/// The value printed after "final hash: " in `text`.
std::string printed_hash(const std::string& text) {
  auto pos = text.find("final hash: ");
  REQUIRE(pos != std::string::npos);
  return text.substr(pos + 12, 64);
}

} // namespace

TEST_CASE("a finished audit verifies") {
  temp_dir dir;
  auto lines = finished_audit(dir);
  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 0);
  auto hash = ij::sha256_hex(lines.back());
  auto n = std::to_string(lines.size());
  // The chain cannot vouch for its own last line: verify says what would.
  CHECK(v.out
        == "ok: " + n + " records, run complete\nfinal hash: " + hash
             + "\nchain intact through line " + n
             + "; the last line is only as safe as the final hash you "
               "kept: "
             + hash + " (--expect-hash checks it)\n");
}

TEST_CASE("an edited line is named") {
  temp_dir dir;
  auto lines = finished_audit(dir);
  // Change one character inside line 5 (still valid JSON).
  auto& l = lines[4];
  auto pos = l.find("\"seq\":5");
  REQUIRE(pos != std::string::npos);
  auto ts = l.find("\"ts\":\"");
  REQUIRE(ts != std::string::npos);
  char& digit = l[ts + 6]; // first digit of the year
  digit = digit == '1' ? '2' : '1';
  write_file(dir.file("a.jsonl"), joined(lines));
  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 1);
  CHECK(v.out.find("EDITED: a.jsonl: line 5: ") != std::string::npos);
}

TEST_CASE("a removed line is found where the chain breaks") {
  temp_dir dir;
  auto lines = finished_audit(dir);
  lines.erase(lines.begin() + 6);
  write_file(dir.file("a.jsonl"), joined(lines));
  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 1);
  CHECK(v.out.find("EDITED: a.jsonl: line 7: ") != std::string::npos);
}

TEST_CASE("a truncated audit did not finish") {
  temp_dir dir;
  auto lines = finished_audit(dir);
  SECTION("whole lines cut off") {
    lines.resize(lines.size() - 3);
    write_file(dir.file("a.jsonl"), joined(lines));
    auto v = invjudge(dir, "audit verify a.jsonl");
    CHECK(v.exit_code == 4);
    CHECK(v.out.rfind(
            "did not finish: " + std::to_string(lines.size()) + " records", 0)
          == 0);
    CHECK(v.out.find("EDITED") == std::string::npos);
  }
  SECTION("cut in the middle of a line") {
    auto text = joined(lines);
    text.resize(text.size() - 20);
    write_file(dir.file("a.jsonl"), text);
    auto v = invjudge(dir, "audit verify a.jsonl");
    CHECK(v.exit_code == 4);
    CHECK(v.out.rfind("did not finish: ", 0) == 0);
  }
}

TEST_CASE("verifying a missing audit is bad input") {
  temp_dir dir;
  auto v = invjudge(dir, "audit verify none.jsonl");
  CHECK(v.exit_code == 2);
  CHECK(v.err.find("none.jsonl: cannot open") != std::string::npos);
}

TEST_CASE("verifying a directory or an unreadable file is bad input (exit 2)") {
  temp_dir dir;
  auto d = invjudge(dir, "audit verify .");
  CHECK(d.exit_code == 2);
  CHECK(d.err.find(".: is a directory") != std::string::npos);
  // The verifier's own memory at address 0: open succeeds, read(2) fails
  // with EIO (a reliable read error on Linux).
  auto m = invjudge(dir, "audit verify /proc/self/mem");
  CHECK(m.exit_code == 2);
  CHECK(m.err.find("/proc/self/mem: cannot read: reading failed after line 0")
        != std::string::npos);
  CHECK(m.out.empty());
}

TEST_CASE(
  "run_end totals that disagree with the records before it are an edit") {
  temp_dir dir;
  auto lines = finished_audit(dir);
  auto n = std::to_string(lines.size());
  auto& end = lines.back();
  SECTION("pairs") {
    auto pairs = run_end_value(end, "pairs");
    replace_once(end, "\"pairs\":" + std::to_string(pairs),
                 "\"pairs\":" + std::to_string(pairs + 1));
    write_file(dir.file("a.jsonl"), joined(lines));
    auto v = invjudge(dir, "audit verify a.jsonl");
    CHECK(v.exit_code == 1);
    CHECK(v.out
          == "EDITED: a.jsonl: line " + n + ": line " + n
               + " (run_end): run_end says pairs " + std::to_string(pairs + 1)
               + ", but the records before it hold " + std::to_string(pairs)
               + " verdict records\n");
  }
  SECTION("judge_calls") {
    auto calls = run_end_value(end, "judge_calls");
    replace_once(end, "\"judge_calls\":" + std::to_string(calls),
                 "\"judge_calls\":" + std::to_string(calls - 1));
    write_file(dir.file("a.jsonl"), joined(lines));
    auto v = invjudge(dir, "audit verify a.jsonl");
    CHECK(v.exit_code == 1);
    CHECK(v.out.find("run_end says judge_calls") != std::string::npos);
  }
  SECTION("items, rejected, faults, open items") {
    for (auto [from, to] :
         {std::pair{"\"items\":7", "\"items\":6"},
          std::pair{"\"rejected\":0", "\"rejected\":1"},
          std::pair{"\"faults\":0", "\"faults\":2"},
          std::pair{"\"open_items\":0", "\"open_items\":1"}}) {
      auto edited = lines;
      replace_once(edited.back(), from, to);
      write_file(dir.file("a.jsonl"), joined(edited));
      auto v = invjudge(dir, "audit verify a.jsonl");
      INFO(from);
      CHECK(v.exit_code == 1);
      CHECK(v.out.rfind("EDITED: a.jsonl: line " + n + ": ", 0) == 0);
    }
  }
  SECTION("a verdict rewritten and the chain recomputed") {
    // A VIOLATED pair made INVARIANT, every prev recomputed: the chain
    // holds, but run_end's by_rule no longer adds up.
    for (auto& l : lines)
      if (l.find("\"type\":\"verdict\"") != std::string::npos
          && l.find("\"rule\":\"I5\"") != std::string::npos) {
        replace_once(l, "\"verdict\":\"VIOLATED\",\"rule\":\"I5\"",
                     "\"verdict\":\"INVARIANT\",\"rule\":\"I4\"");
        break;
      }
    write_file(dir.file("a.jsonl"), joined(rechained(lines)));
    auto v = invjudge(dir, "audit verify a.jsonl");
    CHECK(v.exit_code == 1);
    CHECK(v.out.find("(run_end): run_end says by_rule I4 ")
          != std::string::npos);
  }
}

TEST_CASE("an interrupted run cannot be passed off as complete") {
  temp_dir dir;
  silent_server server;
  write_file(dir.file("c.json"), server.config());
  // One item: the absent pair's verdict is written, the item stays open.
  write_file(dir.file("p.jsonl"), R"({"id":"slow","item":"x","a":"1","b":"1"})"
                                  "\n"
                                  R"({"id":"absent","item":"x","a":"","b":"1"})"
                                  "\n");
  {
    invjudge_process p({"run", "--pairs", "p.jsonl", "--config", "c.json",
                        "--audit", "a.jsonl", "--out", "v.jsonl"},
                       dir.file("out.txt"), dir.file("err.txt"), -1,
                       dir.path());
    // The absent pair is judged without the judge; "slow" never will be.
    REQUIRE(wait_for_lines(dir.file("v.jsonl"), 1));
    p.signal(SIGINT);
    REQUIRE(p.wait() == 4);
  }
  auto lines = lines_of(read_file(dir.file("a.jsonl")));
  REQUIRE_FALSE(lines.empty());
  auto honest = invjudge(dir, "audit verify a.jsonl");
  CHECK(honest.exit_code == 4);
  CHECK(honest.out.rfind("interrupted: ", 0) == 0);

  auto& end = lines.back();
  replace_once(end, "\"interrupted\":true", "\"interrupted\":false");
  SECTION("unfinished pairs emptied") {
    replace_once(end, "\"unfinished_pairs\":[\"slow\"]",
                 "\"unfinished_pairs\":[]");
    write_file(dir.file("a.jsonl"), joined(lines));
    auto v = invjudge(dir, "audit verify a.jsonl");
    CHECK(v.exit_code == 1);
    // The absent pair's item never got its item verdict.
    CHECK(v.out.find("not interrupted, but leaves 1 item(s) open")
          != std::string::npos);
  }
  SECTION("unfinished pairs and open items emptied") {
    replace_once(end, "\"unfinished_pairs\":[\"slow\"]",
                 "\"unfinished_pairs\":[]");
    replace_once(end, "\"open_items\":1", "\"open_items\":0");
    write_file(dir.file("a.jsonl"), joined(lines));
    auto v = invjudge(dir, "audit verify a.jsonl");
    CHECK(v.exit_code == 1);
    CHECK(v.out.find("run_end says open_items 0, but the records before it "
                     "hold 1 items with "
                     "verdict records but no item_verdict record")
          != std::string::npos);
  }
  SECTION("unfinished pairs kept") {
    write_file(dir.file("a.jsonl"), joined(lines));
    auto v = invjudge(dir, "audit verify a.jsonl");
    CHECK(v.exit_code == 1);
    CHECK(v.out.find("not interrupted, but lists 1 unfinished pair(s)")
          != std::string::npos);
  }
}

TEST_CASE("bytes appended after run_end without a newline are an edit") {
  temp_dir dir;
  auto lines = finished_audit(dir);
  write_file(dir.file("a.jsonl"), joined(lines) + R"({"seq":999,"junk":true})");
  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 1);
  CHECK(v.out
        == "EDITED: a.jsonl: line " + std::to_string(lines.size() + 1)
             + ": line " + std::to_string(lines.size() + 1)
             + " (no newline) follows the run_end record\n");
}

TEST_CASE(
  "the final hash: printed by run and verify, checked by --expect-hash") {
  temp_dir dir;
  auto r = invjudge(dir, "run --pairs "
                           + shell_quote(source_dir() + "/examples/pairs.jsonl")
                           + " --audit a.jsonl");
  REQUIRE(r.exit_code == 0);
  auto lines = lines_of(read_file(dir.file("a.jsonl")));
  auto hash = ij::sha256_hex(lines.back());
  CHECK(printed_hash(r.err) == hash);

  auto v = invjudge(dir, "audit verify a.jsonl --expect-hash " + hash);
  CHECK(v.exit_code == 0);
  CHECK(printed_hash(v.out) == hash);
  CHECK(v.out.find("and it ends at the final hash you kept (" + hash
                   + "): no line was changed, the last one included")
        != std::string::npos);
  CHECK(v.out.find("only as safe as") == std::string::npos);

  SECTION("another hash") {
    auto other = std::string(64, 'a');
    auto w = invjudge(dir, "audit verify a.jsonl --expect-hash " + other);
    CHECK(w.exit_code == 1);
    CHECK(
      w.out.find("EDITED: a.jsonl: the final hash is not the expected " + other)
      != std::string::npos);
  }
  SECTION("a rewrite whose totals still add up") {
    // A judge's reason reworded and the chain recomputed: nothing but the
    // hash kept elsewhere shows it.
    for (auto& l : lines)
      if (l.find("\"type\":\"judge_call\"") != std::string::npos) {
        replace_once(l, "\"reason\":\"", "\"reason\":\"reworded: ");
        break;
      }
    write_file(dir.file("a.jsonl"), joined(rechained(lines)));
    auto plain = invjudge(dir, "audit verify a.jsonl");
    CHECK(plain.exit_code == 0);
    CHECK(printed_hash(plain.out) != hash);
    auto w = invjudge(dir, "audit verify a.jsonl --expect-hash " + hash);
    CHECK(w.exit_code == 1);
    CHECK(w.out.find("the file was rewritten or cut") != std::string::npos);
  }
  SECTION("cut after the manifest") {
    write_file(dir.file("a.jsonl"), lines.front() + "\n");
    auto w = invjudge(dir, "audit verify a.jsonl --expect-hash " + hash);
    CHECK(w.exit_code == 1);
  }
  SECTION("not a hash") {
    auto w = invjudge(dir, "audit verify a.jsonl --expect-hash 1234");
    CHECK(w.exit_code == 2);
    CHECK(w.err.find("--expect-hash 1234: not a SHA-256") != std::string::npos);
  }
}

TEST_CASE(
  "an audit whose judges share an adapter id verifies with usage per judge") {
  // One model at two temperatures: two judges, one adapter id. Each judge's
  // calls are its workers', not the first judge's with that adapter.
  temp_dir dir;
  write_file(dir.file("two.json"), R"({"judges": [
      {"name": "cold", "type": "stub", "model": "numeric", "temperature": 0,
       "timeout_ms": 1000, "max_in_flight": 8},
      {"name": "warm", "type": "stub", "model": "numeric", "temperature": 0.5,
       "timeout_ms": 1000, "max_in_flight": 8}],
    "panels": {"rule": "unanimous"}})");
  auto r = invjudge(
    dir, "run --pairs " + shell_quote(source_dir() + "/examples/pairs.jsonl")
           + " --config two.json --audit a.jsonl --out v.jsonl");
  REQUIRE(r.exit_code == 0);
  auto v = invjudge(dir, "audit verify a.jsonl");
  INFO(v.out + v.err);
  CHECK(v.exit_code == 0);
  // Both judges were called: the usage list has two entries with calls.
  auto end = lines_of(read_file(dir.file("a.jsonl"))).back();
  rapidjson::Document doc;
  doc.Parse(end.c_str());
  REQUIRE(doc.IsObject());
  const auto& usage = doc["usage"];
  REQUIRE(usage.Size() == 2);
  CHECK(usage[0]["calls"].GetUint64() > 0);
  CHECK(usage[1]["calls"].GetUint64() > 0);
}
