// The report's reading of an audit (tools/audit_digest) and its page
// (tools/html_report), on a fixed audit written here: every figure checked
// against what the records hold, kappa against a value computed by hand.
#include <sstream>

#include <catch2/catch.hpp>

#include "core/agreement/panel_rule.hpp"
#include "core/agreement/panel_tally.hpp"
#include "tools/audit_digest.hpp"
#include "tools/html_report.hpp"

using namespace ij;

namespace {

std::string call(const std::string& pair, const std::string& worker,
                 const std::string& decision, double latency,
                 bool failed = false) {
  return R"({"seq":0,"type":"judge_call","pair_id":")" + pair
         + R"(","worker":")" + worker
         + R"(","adapter_id":"stub:x","decision":")" + decision
         + R"(","transport_failed":)" + (failed ? "true" : "false")
         + R"(,"latency_ms":)" + std::to_string(latency)
         + R"(,"input_tokens":10,"output_tokens":2})" + "\n";
}

// Two judges both answer four pairs: A says EQ, EQ, DIFF, DIFF; B says EQ,
// DIFF, DIFF, DIFF. Agreement 3 of 4; chance agreement (2/4)(1/4) +
// (2/4)(3/4) = 0.5; kappa (0.75 - 0.5) / (1 - 0.5) = 0.5.
std::string fixed_audit() {
  std::string a =
    R"({"seq":1,"type":"manifest","run_id":"run-x","started_at":"2026-12-03T00:00:00.000Z","version":"0.1.0","prompt_id":"p","prompt_sha256":"abc","judges":[{"name":"A","worker_id":"wa","adapter_id":"stub:a"},{"name":"B","worker_id":"wb","adapter_id":"stub:b"}],"config":{"judges":[{"name":"A","prices":{"input":3,"output":15}}],"votes":2,"min_agreement":2,"order_balancing":true,"canaries":{"rate":0.5,"seed":9,"on_alarm":"warn"}}})"
    "\n";
  const char* da[] = {"EQUIVALENT", "EQUIVALENT", "DIFFERENT", "DIFFERENT"};
  const char* db[] = {"EQUIVALENT", "DIFFERENT", "DIFFERENT", "DIFFERENT"};
  const char* labels[] = {"true", "false", "false", "null"};
  const char* eq[] = {"true", "null", "false", "false"};
  for (int i = 0; i < 4; ++i) {
    auto p = "p" + std::to_string(i);
    a += call(p, "wa", da[i], 0.5);
    a += call(p, "wb", db[i], 150);
    a += R"({"seq":0,"type":"vote","pair_id":")" + p + "\"}\n";
    a += R"({"seq":0,"type":"verdict","pair_id":")" + p + R"(","rule":")"
         + (std::string{eq[i]} == "null"   ? "I3"
            : std::string{eq[i]} == "true" ? "I4"
                                           : "I5")
         + R"(","outcome":{"equivalent":)" + eq[i] + R"(},"label":)" + labels[i]
         + "}\n";
  }
  a += call("canary-1@run-x", "wa", "EQUIVALENT", 3);
  a += call("canary-1@run-x", "wb", "PARSE_ERROR", 3, true);
  a +=
    R"({"seq":0,"type":"canary","canary_id":"canary-1@run-x","kind":"mismatch","passed":false,"judges":[{"judge":"A","failed":true},{"judge":"B","failed":null}]})"
    "\n";
  a +=
    R"({"seq":0,"type":"canary","canary_id":"canary-2@run-x","kind":"identity","passed":true,"judges":[{"judge":"A","failed":false}]})"
    "\n";
  a +=
    R"({"seq":0,"type":"bias_alarm","judge":"A","mode":"false_equivalent","action":"warn","at_canary":2,"failures":2,"observations":2,"llr":4.6,"threshold":4.59})"
    "\n";
  a += R"({"seq":0,"type":"panel_pair","pair_id":"p0"})"
       "\n";
  a += R"({"seq":0,"type":"item_verdict","item":"i","verdict":"VIOLATED"})"
       "\n";
  a += "not json\n";
  a +=
    R"({"seq":0,"type":"run_end","interrupted":false,"position_bias":[{"judge":"A","comparisons":4,"changed":1,"rate":0.25,"lo":0.05,"hi":0.7}]})"
    "\n";
  return a;
}

} // namespace

TEST_CASE("audit digest: every figure of a fixed audit") {
  std::istringstream in{fixed_audit()};
  auto d = digest_audit(in);
  CHECK(d.run_id == "run-x");
  CHECK(d.votes == 2);
  CHECK(d.order_balancing);
  CHECK(d.canary_rate == 0.5);
  CHECK(d.canary_seed == 9);
  CHECK(d.on_alarm == "warn");
  CHECK(d.pairs == 4);
  CHECK(d.by_rule == std::array<std::uint64_t, 5>{0, 0, 1, 1, 2});
  CHECK(d.labelled == 3);
  CHECK(d.confusion[0][0] == 1); // outcome true, label true
  CHECK(d.confusion[2][1] == 1); // neither, label false
  CHECK(d.confusion[1][1] == 1); // false, label false
  CHECK(d.items[1] == 1);
  REQUIRE(d.judges.size() == 2);
  CHECK(d.judges[0].name == "A");
  CHECK(d.judges[0].calls == 5);
  CHECK(d.judges[0].decisions[0] == 3);
  CHECK(d.judges[0].input_tokens == 50);
  CHECK(d.judges[0].price_input == 3.0);
  CHECK(d.judges[0].price_output == 15.0);
  CHECK_FALSE(d.judges[1].price_input);
  CHECK(d.judges[1].calls == 5);
  CHECK(d.judges[1].faults == 1);
  // Latency bins: A's 0.5 ms calls in "<1", its 3 ms one in 2-5; B's 150 ms
  // in 100-200 (the fault has no latency bin).
  CHECK(d.judges[0].latency[0] == 4);
  CHECK(d.judges[0].latency[2] == 1);
  CHECK(d.judges[1].latency[7] == 4);
  REQUIRE(d.agreements.size() == 1);
  CHECK(d.agreements[0].a == "A");
  CHECK(d.agreements[0].b == "B");
  CHECK(d.agreements[0].pairs == 4);
  CHECK(d.agreements[0].agree == 3);
  REQUIRE(d.agreements[0].kappa.defined);
  CHECK(d.agreements[0].kappa.value == Approx(0.5));
  CHECK(d.agreements[0].raw.value == Approx(0.75));
  CHECK_FALSE(d.panel);
  CHECK_FALSE(d.cascade);
  REQUIRE(d.canaries.size() == 2);
  CHECK(d.canaries[0].passed == false);
  CHECK(d.canaries[0].failed_judges == std::vector<std::string>{"A"});
  CHECK(d.canaries[1].passed == true);
  REQUIRE(d.alarms.size() == 1);
  CHECK(d.alarms[0].at_canary == 2);
  REQUIRE(d.position_bias.size() == 1);
  CHECK(d.position_bias[0].changed == 1);
  CHECK(d.has_run_end);
  REQUIRE(d.other_records.size() == 1);
  CHECK(d.other_records[0].first == "panel_pair");
}

TEST_CASE("audit digest: kappa is undefined with one class only, perfect "
          "agreement is kappa 1") {
  std::string one =
    R"({"type":"manifest","judges":[{"name":"A","worker_id":"wa"},{"name":"B","worker_id":"wb"}]})"
    "\n";
  auto two = one;
  for (int i = 0; i < 3; ++i) {
    auto p = "p" + std::to_string(i);
    auto vote = R"({"type":"vote","pair_id":")" + p + "\"}\n";
    one +=
      call(p, "wa", "EQUIVALENT", 1) + call(p, "wb", "EQUIVALENT", 1) + vote;
    auto d = i % 2 ? "EQUIVALENT" : "DIFFERENT";
    two += call(p, "wa", d, 1) + call(p, "wb", d, 1) + vote;
  }
  std::istringstream a{one}, b{two};
  auto da = digest_audit(a);
  REQUIRE(da.agreements.size() == 1);
  CHECK(da.agreements[0].agree == 3);
  CHECK_FALSE(da.agreements[0].kappa.defined);
  auto db = digest_audit(b);
  REQUIRE(db.agreements.size() == 1);
  REQUIRE(db.agreements[0].kappa.defined);
  CHECK(db.agreements[0].kappa.value == Approx(1.0));
}

TEST_CASE("html report: every section, escaped text, the verification banner") {
  std::istringstream in{fixed_audit()};
  auto d = digest_audit(in);
  d.judges[0].name = "<b>A&</b>";
  report_status ok;
  ok.chain = "ok";
  ok.final_hash = std::string(64, 'f');
  ok.lines = 21;
  ok.audit_path = "a.jsonl";
  auto page = render_html_report(d, ok);
  for (auto id :
       {"plot-verdicts", "plot-confusion", "plot-agreement", "plot-canaries",
        "plot-position-bias", "plot-latency", "plot-tokens"})
    CHECK(page.find(std::string{"id=\""} + id + "\"") != std::string::npos);
  CHECK(page.find("<b>A&</b>") == std::string::npos);
  CHECK(page.find("&lt;b&gt;A&amp;&lt;/b&gt;") != std::string::npos);
  CHECK(page.find("Audit chain intact through line 21; the last line is only "
                  "as safe as the final hash you kept: <code>"
                  + ok.final_hash)
        != std::string::npos);
  ok.hash_checked = true;
  CHECK(render_html_report(d, ok).find(
          "Audit chain intact through line 21 and it ends at the final hash "
          "you kept (<code>"
          + ok.final_hash + "</code>)")
        != std::string::npos);
  CHECK(page.find("alarm: A (false_equivalent)") != std::string::npos);
  CHECK(page.find("panel_pair 1") != std::string::npos);
  // 50 input tokens at 3 and 10 output at 15 per million.
  CHECK(page.find(": 0.0003 at the declared prices (3 input, 15 output per "
                  "million tokens)")
        != std::string::npos);
  report_status bad;
  bad.chain = "edited";
  bad.reason = "line 7: the chain breaks";
  bad.unverified = true;
  bad.audit_path = "a.jsonl";
  auto marked = render_html_report(d, bad);
  CHECK(marked.find("UNVERIFIED AUDIT") != std::string::npos);
  CHECK(marked.find("line 7: the chain breaks") != std::string::npos);
}

TEST_CASE("audit digest: a canary's judge calls are never a pair of the "
          "couples' agreement") {
  std::string a =
    R"({"type":"manifest","judges":[{"name":"A","worker_id":"wa"},{"name":"B","worker_id":"wb"}]})"
    "\n";
  a += call("p0", "wa", "EQUIVALENT", 1) + call("p0", "wb", "EQUIVALENT", 1)
       + R"({"type":"vote","pair_id":"p0"})"
         "\n";
  // Both judges answered the canary, and disagreed: not a pair.
  a +=
    call("canary-1@r", "wa", "EQUIVALENT", 1)
    + call("canary-1@r", "wb", "DIFFERENT", 1)
    + R"({"type":"canary","canary_id":"canary-1@r","kind":"mismatch","passed":false,"judges":[]})"
      "\n";
  a += call("p1", "wa", "DIFFERENT", 1) + call("p1", "wb", "DIFFERENT", 1)
       + R"({"type":"vote","pair_id":"p1"})"
         "\n";
  std::istringstream in{a};
  auto d = digest_audit(in);
  REQUIRE(d.agreements.size() == 1);
  CHECK(d.agreements[0].pairs == 2);
  CHECK(d.agreements[0].agree == 2);
  CHECK(d.judges[0].calls == 3); // the canary's call is a call
}

TEST_CASE(
  "audit digest: a panel's figures are core/agreement/panel_tally's over the "
  "vote records and labels, without canaries") {
  std::string a =
    R"({"type":"manifest","judges":[],"config":{"statistics":{"alpha":0.1},"panels":{"judges":["A","B","C"],"rule":"majority"}}})"
    "\n";
  // Outcomes per pair for A, B, C ("t" EQUIVALENT, "f" DIFFERENT, "n"
  // NEITHER, "x" fault), the tier, and the label.
  struct row {
    const char* o;
    const char* tier;
    const char* label;
  };
  std::vector<row> rows{
    {"ttt", "all", "true"},    {"ttf", "majority", "true"},
    {"fff", "all", "false"},   {"tnf", "split", "null"},
    {"tfx", "split", "false"}, {"ftf", "majority", "false"}};
  panel_config pc{{"A", "B", "C"}, panel_rule::majority};
  panel_tally direct{pc, 0.1};
  auto outcome = [](char c) {
    equivalence_outcome o;
    if (c == 't' || c == 'f')
      o.equivalent = c == 't';
    o.fault = c == 'x';
    return o;
  };
  auto json = [](const equivalence_outcome& o) {
    return std::string{R"("outcome":{"equivalent":)"}
           + (o.equivalent ? (*o.equivalent ? "true" : "false") : "null")
           + R"(,"fault":)" + (o.fault ? "true" : "false") + "}";
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto p = "p" + std::to_string(i);
    vote_result vr;
    vr.route = rows[i].tier;
    std::string parts;
    for (int j = 0; j < 3; ++j) {
      auto name = std::string(1, static_cast<char>('A' + j));
      vr.parts.push_back({name, "panel", outcome(rows[i].o[j]), {}});
      parts += (j ? "," : "") + std::string{R"({"judge":")"} + name
               + R"(","role":"panel",)" + json(vr.parts.back().outcome) + "}";
    }
    std::optional<bool> label;
    if (std::string{rows[i].label} != "null")
      label = std::string{rows[i].label} == "true";
    direct.add(vr, label);
    a += R"({"type":"vote","pair_id":")" + p + R"(","absent":false,"route":")"
         + rows[i].tier + R"(","parts":[)" + parts + "]}\n";
    a += R"({"type":"verdict","pair_id":")" + p + R"(","rule":"I3","label":)"
         + rows[i].label + "}\n";
    if (i == 2) // a canary between the pairs: its calls and record only
      a +=
        call("canary-1@r", "wa", "EQUIVALENT", 1)
        + R"({"type":"canary","canary_id":"canary-1@r","kind":"identity","passed":true,"judges":[]})"
          "\n";
  }
  std::istringstream in{a};
  auto d = digest_audit(in);
  REQUIRE(d.panel);
  CHECK(*d.panel == direct.summary());
  CHECK(d.panel->pairs == 6);
  CHECK(d.panel->rated == 5);
  CHECK(d.panel->kappa_kind == "fleiss");
  CHECK(d.panel->confidence == Approx(0.9));
  // The couples: over the five pairs every judge rated.
  REQUIRE(d.agreements.size() == 3);
  for (auto& c : d.agreements)
    CHECK(c.pairs == 5);
}

TEST_CASE(
  "html report: batched calls are priced at the declared batch discount") {
  std::string audit =
    R"({"type":"manifest","judges":[{"name":"A","worker_id":"wa"}],)"
    R"("config":{"votes":1,"judges":[{"name":"A","prices":{"input":3,"output":15,"batch_discount":0.25}}]}})"
    "\n";
  // Two calls of 10 input and 2 output tokens: 60 + 30 = 90 per million at
  // full price each; the batched one costs a quarter of it.
  audit += call("p0", "wa", "EQUIVALENT", 1);
  auto batched = call("p1", "wa", "EQUIVALENT", 1);
  batched.insert(batched.rfind('}'), R"(,"batched":true)");
  audit += batched;
  std::istringstream in{audit};
  auto d = digest_audit(in);
  REQUIRE(d.judges.size() == 1);
  CHECK(d.judges[0].batched_calls == 1);
  CHECK(d.judges[0].batched_input_tokens == 10);
  CHECK(d.judges[0].batch_discount == Approx(0.25));
  report_status ok;
  ok.chain = "ok";
  ok.final_hash = std::string(64, 'f');
  ok.audit_path = "a.jsonl";
  auto page = render_html_report(d, ok);
  // (90 + 90 * 0.25) / 1e6 = 0.0001125
  CHECK(page.find(": 0.0001 at the declared prices (3 input, 15 output per "
                  "million tokens; 1 batched calls at 0.25 of the price)")
        != std::string::npos);
}
