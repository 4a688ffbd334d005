// The audit trail's line format and its verifier (SPEC §11).
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "core/audit/audit_chain.hpp"
#include "core/audit/audit_record.hpp"
#include "core/audit/audit_resume.hpp"
#include "core/sha256.hpp"
#include "tests/core/audit/audit_fixture.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

using ij::test::chain;

std::vector<std::string> complete_run(bool interrupted = false) {
  ij::test::audit_builder b;
  b.pair("p1", "p1", verdict_rule::i4).item("p1");
  b.summary().interrupted = interrupted;
  return b.lines();
}

// `lines` with one more record chained after them.
std::vector<std::string> appended(std::vector<std::string> lines,
                                  const std::string& type) {
  std::string line;
  append_audit_line(line, lines.size() + 1, type, "2026-01-01T00:00:00.000Z",
                    sha256_hex(lines.back()), "{}");
  lines.push_back(line);
  return lines;
}

audit_verification verify(const std::vector<std::string>& lines,
                          bool final_newline = true) {
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    text += lines[i];
    if (i + 1 < lines.size() || final_newline)
      text += '\n';
  }
  std::istringstream in(text);
  return verify_audit(in);
}

} // namespace

TEST_CASE("an audit line puts seq type ts and prev before the body") {
  std::string line;
  append_audit_line(line, 7, "vote", "2026-01-01T00:00:00.000Z",
                    audit_genesis_hash, R"({"pair_id":"p\"1","n":2})");
  rapidjson::Document doc;
  doc.Parse(line.c_str());
  REQUIRE_FALSE(doc.HasParseError());
  CHECK(doc["seq"].GetUint64() == 7);
  CHECK(std::string{doc["type"].GetString()} == "vote");
  CHECK(std::string{doc["prev"].GetString()}
        == std::string{audit_genesis_hash});
  CHECK(std::string{doc["pair_id"].GetString()} == "p\"1");
  CHECK(doc["n"].GetInt() == 2);
  CHECK(line.rfind(R"({"seq":7,"type":"vote",)", 0) == 0);
  std::string empty_body;
  append_audit_line(empty_body, 1, "x", "t", "h", "{}");
  CHECK(empty_body == R"({"seq":1,"type":"x","ts":"t","prev":"h"})");
}

TEST_CASE("timestamps are ISO-8601 UTC with milliseconds") {
  CHECK(iso8601_utc(0) == "1970-01-01T00:00:00.000Z");
  CHECK(iso8601_utc(1764683457123) == "2025-12-02T13:50:57.123Z");
}

TEST_CASE("a complete unedited audit trail verifies ok") {
  auto v = verify(complete_run());
  CHECK(v.status == audit_status::ok);
  CHECK(v.lines == 6);
  CHECK(v.final_hash == sha256_hex(complete_run().back()));
  CHECK(v.bad_line == 0);
  CHECK(intact(v));
}

TEST_CASE("an interrupted run verifies as complete but interrupted") {
  auto v = verify(complete_run(true));
  CHECK(v.status == audit_status::interrupted);
  CHECK(intact(v));
  CHECK(v.reason.find("interrupted") != std::string::npos);
}

TEST_CASE("one edited line is named by number") {
  auto lines = complete_run();
  auto pos = lines[1].find("PARSE_ERROR");
  lines[1].replace(pos, 11, "EQUIVALENT!");
  auto v = verify(lines);
  CHECK(v.status == audit_status::edited);
  CHECK(v.bad_line == 2);
  CHECK(v.reason.find("line 2") != std::string::npos);
  CHECK_FALSE(intact(v));
}

TEST_CASE("an edited last-but-one line and an edited seq are named") {
  auto lines = complete_run();
  lines[3].replace(lines[3].find("I4"), 2, "I5");
  auto v = verify(lines);
  CHECK(v.status == audit_status::edited);
  CHECK(v.bad_line == 4);

  lines = complete_run();
  lines[2].replace(lines[2].find("\"seq\":3"), 7, "\"seq\":9");
  v = verify(lines);
  CHECK(v.status == audit_status::edited);
  CHECK(v.bad_line == 3);
}

TEST_CASE("a removed line in the middle is an edit not a truncation") {
  auto lines = complete_run();
  lines.erase(lines.begin() + 2);
  auto v = verify(lines);
  CHECK(v.status == audit_status::edited);
  CHECK(v.bad_line == 3);
  CHECK(v.reason.find("removed") != std::string::npos);
}

TEST_CASE("a line that is not JSON is an edit") {
  auto lines = complete_run();
  lines[2] = "garbage";
  auto v = verify(lines);
  CHECK(v.status == audit_status::edited);
  CHECK(v.bad_line == 3);
}

TEST_CASE("a truncated file says the run did not finish") {
  auto lines = complete_run();
  lines.back().resize(lines.back().size() / 2);
  auto v = verify(lines, false);
  CHECK(v.status == audit_status::unfinished);
  CHECK(v.bad_line == 6);
  CHECK(v.lines == 5);
  CHECK(v.final_hash == sha256_hex(lines[4]));
  CHECK(v.reason.find("did not finish") != std::string::npos);
}

TEST_CASE("a file without run_end record is unfinished") {
  auto lines = complete_run();
  lines.pop_back();
  auto v = verify(lines);
  CHECK(v.status == audit_status::unfinished);
  CHECK(v.bad_line == 0);
  CHECK(v.reason.find("no run_end") != std::string::npos);
  CHECK(v.reason.find("did not finish") != std::string::npos);
}

TEST_CASE(
  "an empty file is unfinished, one that cannot be read is unreadable") {
  auto v = verify({});
  CHECK(v.status == audit_status::unfinished);
  CHECK(v.final_hash == std::string{audit_genesis_hash});
  auto missing = verify_audit_file("/nonexistent/ij-audit.jsonl");
  CHECK(missing.status == audit_status::unreadable);
  CHECK(missing.reason.find("cannot open") != std::string::npos);
  CHECK(missing.final_hash.empty());
  // open(2) succeeds, read(2) fails with EIO: address 0 is not mapped.
  auto mem = verify_audit_file("/proc/self/mem");
  CHECK(mem.status == audit_status::unreadable);
  CHECK(mem.reason.find("reading failed after line 0") != std::string::npos);
}

TEST_CASE("bytes after run_end are an edit, with or without a newline") {
  auto lines = complete_run();
  auto v = verify(appended(lines, "vote"), false);
  CHECK(v.status == audit_status::edited);
  CHECK(v.bad_line == 7);
  CHECK(v.reason == "line 7 (no newline) follows the run_end record");
  v = verify(appended(lines, "vote"));
  CHECK(v.status == audit_status::edited);
  CHECK(v.reason == "line 7 follows the run_end record");
  lines.push_back("x");
  v = verify(lines, false);
  CHECK(v.status == audit_status::edited);
  CHECK(v.bad_line == 7);
  CHECK(v.final_hash.empty());
}

TEST_CASE("the first record must be the manifest with prev 64 zeros") {
  auto lines = chain({{"vote", "{}"}, {"run_end", "{}"}});
  auto v = verify(lines);
  CHECK(v.status == audit_status::edited);
  CHECK(v.bad_line == 1);
  CHECK(v.reason.find("manifest") != std::string::npos);

  lines = complete_run();
  lines[0].replace(lines[0].find(std::string{audit_genesis_hash}), 1, "1");
  v = verify(lines);
  CHECK(v.status == audit_status::edited);
  CHECK(v.bad_line == 1);
}

TEST_CASE("records after run_end and a second manifest are edits") {
  auto lines = appended(complete_run(), "vote");
  auto v = verify(lines);
  CHECK(v.status == audit_status::edited);
  CHECK(v.bad_line == 7);

  lines = chain({{"manifest", "{}"}, {"manifest", "{}"}, {"run_end", "{}"}});
  v = verify(lines);
  CHECK(v.status == audit_status::edited);
  CHECK(v.bad_line == 2);
}

TEST_CASE("status names read as words") {
  CHECK(to_string(audit_status::ok) == "ok");
  CHECK(to_string(audit_status::interrupted) == "interrupted");
  CHECK(to_string(audit_status::edited) == "edited");
  CHECK(to_string(audit_status::unfinished) == "unfinished");
  CHECK(to_string(audit_status::unreadable) == "unreadable");
}

TEST_CASE("after an interrupted run_end only a resume record may follow") {
  // A resumed run continues its chain (run --resume, the daemon's restart).
  auto resumed = appended(complete_run(true), "resumed");
  auto v = verify(resumed);
  CHECK(v.status == audit_status::unfinished); // no run_end after the resume
  CHECK(v.reason.find("no run_end") != std::string::npos);
  // Anything else after an interrupted run_end is an edit, as after a
  // complete one; so is a resume record after a complete run.
  v = verify(appended(complete_run(true), "vote"));
  CHECK(v.status == audit_status::edited);
  CHECK(v.reason == "line 7 follows the run_end record");
  v = verify(appended(complete_run(false), "resumed"));
  CHECK(v.status == audit_status::edited);
}

TEST_CASE(
  "read_resume_point: what a killed run committed, and the tail it cuts") {
  // Killed before its run_end: a manifest and two decided pairs.
  auto all = chain({
    {"manifest",
     R"({"run_id":"r1","config":{"source":"x","votes":1,"seed":null},"judges":[]})"},
    {"vote", R"({"pair_id":"p1","counts":{"votes":1,"not_cast":0}})"},
    {"verdict",
     R"({"pair_id":"p1","item":"q","rule":"I4","verdict":"INVARIANT"})"},
    {"vote", R"({"pair_id":"p2","counts":{"votes":1,"not_cast":0}})"},
    {"verdict",
     R"({"pair_id":"p2","item":"q","rule":"I5","verdict":"VIOLATED"})"},
    {"run_end", R"({"interrupted":false})"},
  });
  auto lines = all;
  lines.pop_back();
  std::string text;
  for (auto& l : lines)
    text += l + "\n";
  auto kept = text.size();
  // An undecided pair's judge call, then half a line.
  std::string call;
  append_audit_line(
    call, lines.size() + 1, "judge_call", "2026-01-01T00:00:00.000Z",
    sha256_hex(lines.back()),
    R"({"pair_id":"p3","adapter_id":"x","transport_failed":false,)"
    R"("input_tokens":1,"output_tokens":1})");
  text += call + "\n" + R"({"seq":99,"ty)";
  std::istringstream in(text);
  std::string error;
  auto p = read_resume_point(in);
  error = ::test::why(p);
  REQUIRE(p);
  CHECK(p->pairs.size() == 2);
  CHECK(p->pairs.at("p2").rule == verdict_rule::i5);
  CHECK(p->keep_bytes == kept);
  CHECK(p->seq == lines.size());
  CHECK(p->last_hash == sha256_hex(lines.back()));
  CHECK(p->cut_lines == 1);
  CHECK(p->torn);
  CHECK(p->cut_bytes == text.size() - kept);
  CHECK(p->totals.pairs == 2);
  CHECK(p->run_id == "r1");
  // The manifest's configuration without what is unset or not a setting.
  CHECK(p->config_json == R"({"votes":1})");

  std::istringstream finished(text.substr(0, kept) + all.back() + "\n");
  error = ::test::why(read_resume_point(finished));
  CHECK_FALSE(error.empty());
}
