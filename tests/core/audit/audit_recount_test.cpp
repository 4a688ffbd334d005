// The run_end record must agree with the records before it
// (core/audit/audit_recount.hpp, through verify_audit).
#include <sstream>

#include <catch2/catch.hpp>

#include "core/audit/audit_chain.hpp"
#include "tests/core/audit/audit_fixture.hpp"

using namespace ij;
using ij::test::audit_builder;

namespace {

audit_verification verify(const std::vector<std::string>& lines) {
  std::string text;
  for (auto& l : lines)
    text += l + '\n';
  std::istringstream in(text);
  return verify_audit(in);
}

/// A run of two items: q1 closed, one rejected line, a pair with two calls
/// (one failed) and one vote not cast.
audit_builder sample_run() {
  audit_builder b;
  b.pair("p1", "q1", verdict_rule::i4)
    .rejected(2)
    .pair("p2", "q1", verdict_rule::i5, 2, 1, 1)
    .item("q1")
    .pair("p3", "q2", verdict_rule::i1, 0);
  return b;
}

/// The verification of `b` after `edit` changed its run_end totals.
template <class Edit>
audit_verification with_edit(Edit edit) {
  auto b = sample_run();
  b.open_items() = 1; // q2 has no item verdict
  b.summary().interrupted = true;
  edit(b);
  return verify(b.lines());
}

} // namespace

TEST_CASE("run_end totals that agree with the records verify") {
  auto b = sample_run();
  b.open_items() = 1;
  b.summary().interrupted = true;
  b.unfinished() = {"p4"};
  auto v = verify(b.lines());
  INFO(v.reason);
  CHECK(v.status == audit_status::interrupted);

  audit_builder done;
  done.pair("p1", "q1", verdict_rule::i4).item("q1");
  CHECK(verify(done.lines()).status == audit_status::ok);
}

TEST_CASE("each run_end total is checked against the records") {
  struct edit_case {
    const char* name;
    void (*edit)(audit_builder&);
    const char* says;
  };
  const edit_case cases[] = {
    {"pairs", [](audit_builder& b) { ++b.summary().pairs; },
     "run_end says pairs 4, but the records before it hold 3 verdict records"},
    {"by_rule",
     [](audit_builder& b) {
       --b.summary().by_rule[3];
       ++b.summary().by_rule[4];
     },
     "run_end says by_rule I4 0, but the records before it hold 1 verdict "
     "records with rule I4"},
    {"rejected", [](audit_builder& b) { b.summary().rejected = 0; },
     "run_end says rejected 0, but the records before it hold 1 rejected "
     "records"},
    {"items", [](audit_builder& b) { b.summary().items = 2; },
     "run_end says items 2, but the records before it hold 1 item_verdict "
     "records"},
    {"judge_calls", [](audit_builder& b) { b.summary().judge_calls = 2; },
     "run_end says judge_calls 2, but the records before it hold 3 judge_call "
     "records"},
    {"calls_skipped", [](audit_builder& b) { b.summary().calls_skipped = 0; },
     "run_end says calls_skipped 0, but the records before it hold 1 votes not "
     "cast"},
    {"faults", [](audit_builder& b) { b.summary().faults = 0; },
     "run_end says faults 0, but the records before it hold 1 failed judge "
     "calls"},
    {"usage calls per judge",
     [](audit_builder& b) {
       --b.summary().usage[0].calls;
       ++b.summary().usage[1].calls;
     },
     "run_end says usage of judge judge-a: calls 2, but the records before it "
     "hold 3 "
     "judge_call records of that judge"},
    {"usage tokens",
     [](audit_builder& b) { b.summary().usage[0].output_tokens = 0; },
     "run_end says usage of judge judge-a: output_tokens 0, but the records "
     "before it hold 6"},
    {"open items", [](audit_builder& b) { b.open_items() = 0; },
     "run_end says open_items 0, but the records before it hold 1 items with "
     "verdict records "
     "but no item_verdict record"},
    {"an unfinished pair that has records",
     [](audit_builder& b) {
       b.unfinished() = {"p4", "p2"};
     },
     "run_end lists pair \"p2\" as unfinished, but records of it precede "
     "run_end"},
    {"not interrupted with unfinished pairs",
     [](audit_builder& b) {
       b.summary().interrupted = false;
       b.unfinished() = {"p9"};
     },
     "run_end says the run was not interrupted, but lists 1 unfinished "
     "pair(s)"},
    {"not interrupted with open items",
     [](audit_builder& b) { b.summary().interrupted = false; },
     "run_end says the run was not interrupted, but leaves 1 item(s) open"},
  };
  for (auto& c : cases) {
    SECTION(c.name) {
      auto v = with_edit(c.edit);
      INFO(v.reason);
      CHECK(v.status == audit_status::edited);
      CHECK(v.bad_line == 13); // the manifest, 11 records, run_end
      CHECK(v.reason.rfind("line 13 (run_end): ", 0) == 0);
      CHECK(v.reason.find(c.says) != std::string::npos);
    }
  }
}

TEST_CASE(
  "calls sent, refused by the breaker and refused at a budget are recounted") {
  auto b = sample_run();
  b.refused_pair("p5", "q2");
  b.open_items() = 1;
  b.summary().interrupted = true;
  CHECK(b.summary().calls_sent == 3);
  {
    auto v = verify(b.lines());
    INFO(v.reason);
    CHECK(v.status == audit_status::interrupted);
  }
  struct edit_case {
    const char* name;
    void (*edit)(run_summary&);
    const char* says;
  };
  const edit_case cases[] = {
    {"calls_sent", [](run_summary& s) { s.calls_sent = 6; },
     "run_end says calls_sent 6, but the records before it hold 3 judge_call "
     "records of "
     "calls sent to a backend"},
    {"calls_refused_breaker",
     [](run_summary& s) { s.calls_refused_breaker = 0; },
     "run_end says calls_refused_breaker 0, but the records before it hold 2 "
     "judge_call "
     "records refused by a circuit breaker"},
    {"calls_refused_budget", [](run_summary& s) { s.calls_refused_budget = 3; },
     "run_end says calls_refused_budget 3, but the records before it hold 1 "
     "judge_call "
     "records refused at a budget"},
  };
  for (auto& c : cases) {
    SECTION(c.name) {
      auto edited = b;
      c.edit(edited.summary());
      auto v = verify(edited.lines());
      INFO(v.reason);
      CHECK(v.status == audit_status::edited);
      CHECK(v.reason.find(c.says) != std::string::npos);
    }
  }
}

TEST_CASE(
  "a run_end written before the calls were split by route still verifies") {
  audit_builder b;
  b.pair("p1", "q1", verdict_rule::i4).item("q1");
  auto lines = b.lines();
  auto& end = lines.back();
  for (auto field : {"\"calls_sent\":1,", "\"calls_refused_breaker\":0,",
                     "\"calls_refused_budget\":0,", "\"calls_answered\":1,",
                     "\"calls_aborted\":0,", "\"calls_unrecorded\":0,"}) {
    auto at = end.find(field);
    REQUIRE(at != std::string::npos);
    end.erase(at, std::string{field}.size());
  }
  CHECK(verify(lines).status == audit_status::ok);
}

TEST_CASE(
  "a cancel's calls without records verify when they add up, and are named "
  "when they do not") {
  audit_builder b;
  b.pair("p1", "q1", verdict_rule::i4).item("q1");
  b.pair("p2", "q1", verdict_rule::i4);
  b.unfinished() = {"p3"};
  b.open_items() = 1;
  auto& s = b.summary();
  s.interrupted = true;
  // p3's two calls were answered and dropped; four more aborted, three of
  // them after their request had gone.
  s.calls_sent += 2 + 3;
  s.calls_answered += 2;
  s.calls_aborted = 4;
  s.calls_unrecorded = 2 + 3;
  {
    auto v = verify(b.lines());
    INFO(v.reason);
    CHECK(v.status == audit_status::interrupted);
  }
  struct edit_case {
    const char* name;
    void (*edit)(run_summary&);
    const char* says;
  };
  const edit_case cases[] = {
    {"calls_unrecorded", [](run_summary& s) { s.calls_unrecorded = 1; },
     "run_end says calls_sent 7, but the records before it hold 3 judge_call "
     "records of "
     "calls sent to a backend, plus calls_unrecorded"},
    {"calls_answered below the records",
     [](run_summary& s) { s.calls_answered = 1; },
     "run_end says calls_answered 1, but 2 judge_call records of calls sent "
     "precede it"},
    {"calls_aborted too few", [](run_summary& s) { s.calls_aborted = 2; },
     "run_end says 3 call(s) sent were not answered, but calls_aborted is 2"},
  };
  for (auto& c : cases) {
    SECTION(c.name) {
      auto edited = b;
      c.edit(edited.summary());
      auto v = verify(edited.lines());
      INFO(v.reason);
      CHECK(v.status == audit_status::edited);
      CHECK(v.reason.find(c.says) != std::string::npos);
    }
  }
}

TEST_CASE("a completed run lists no unfinished pair and leaves no item open") {
  audit_builder b;
  b.pair("p1", "q1", verdict_rule::i4).item("q1");
  b.unfinished() = {"p2"};
  auto v = verify(b.lines());
  CHECK(v.status == audit_status::edited);
  CHECK(v.reason.find("not interrupted, but lists 1 unfinished pair(s)")
        != std::string::npos);
}

TEST_CASE(
  "without adapter ids in the manifest only the usage sums are checked") {
  // judge-a's calls booked on judge-b: the sums still agree.
  audit_builder b;
  b.pair("p1", "q1", verdict_rule::i4).item("q1");
  std::swap(b.summary().usage[0].judge, b.summary().usage[1].judge);
  auto with_ids = verify(b.lines());
  CHECK(with_ids.status == audit_status::edited);
  CHECK(with_ids.reason.find(
          "usage of judge judge-b: calls 1, but the records before it "
          "hold 0")
        != std::string::npos);

  // An older manifest without the judges' adapter ids: the split per judge
  // cannot be derived, the sums are still checked.
  auto lines = b.lines();
  auto pos = lines[0].find(R"("judges":)");
  REQUIRE(pos != std::string::npos);
  lines[0].replace(pos, 9, R"("jadges":)");
  for (std::size_t i = 1; i < lines.size(); ++i)
    lines[i].replace(lines[i].find("\"prev\":\"") + 8, 64,
                     sha256_hex(lines[i - 1]));
  auto v = verify(lines);
  INFO(v.reason);
  CHECK(v.status == audit_status::ok);
}

TEST_CASE("a record lacking a field the totals need is named") {
  auto lines = ij::test::chain({{"manifest", "{}"},
                                {"verdict", R"({"pair_id":"p1","item":"q1"})"},
                                {"run_end", "{}"}});
  auto v = verify(lines);
  CHECK(v.status == audit_status::edited);
  CHECK(v.bad_line == 2);
  CHECK(v.reason == "line 2 (verdict) lacks a \"rule\" from I1 to I5");

  lines = ij::test::chain(
    {{"manifest", "{}"}, {"run_end", R"({"interrupted":false})"}});
  v = verify(lines);
  CHECK(v.status == audit_status::edited);
  CHECK(v.reason.find("the run_end record lacks one of") != std::string::npos);
}

TEST_CASE("canary records: their calls count in judge_calls and usage, not in "
          "pairs, run_end's canaries must match the canary records") {
  audit_builder b;
  b.pair("p1", "q1", verdict_rule::i4).canary("canary-1@r", 2, 1).item("q1");
  auto ok = verify(b.lines());
  INFO(ok.reason);
  CHECK(ok.status == audit_status::ok);
  b.summary().canaries = 2;
  auto bad = verify(b.lines());
  CHECK(bad.status == audit_status::edited);
  CHECK(bad.reason.find("run_end says canaries 2, but the records before it "
                        "hold 1 canary records")
        != std::string::npos);
  // A canary listed as an unfinished pair while it has records is an edit.
  b.summary().canaries = 1;
  b.unfinished() = {"canary-1@r"};
  b.summary().interrupted = true;
  CHECK(verify(b.lines()).status == audit_status::edited);
}
