#include <string>

#include <catch2/catch.hpp>

#include "core/verdicts/judge_response.hpp"

using namespace ij;

namespace {

std::string reply(const std::string& decision, const std::string& a = "200",
                  const std::string& b = "200") {
  return "DECISION: " + decision + "\nREASON: Both final answers are 200.\n"
         + "NUMERIC_A: " + a + "\nNUMERIC_B: " + b;
}

} // namespace

TEST_CASE("parser: the four decisions") {
  auto eq = parse_judge_response(reply("EQUIVALENT"));
  CHECK(eq.decision == judge_decision::equivalent);
  CHECK(eq.parse_error.empty());
  CHECK(eq.reason == "Both final answers are 200");
  CHECK_FALSE(eq.extra_text);
  CHECK_FALSE(eq.inconsistent);

  auto diff = parse_judge_response(reply("DIFFERENT", "12", "7"));
  CHECK(diff.decision == judge_decision::different);
  CHECK(diff.parse_error.empty());

  auto abst = parse_judge_response(reply("ABSTAIN", "NULL", "7"));
  CHECK(abst.decision == judge_decision::abstain);
  CHECK(abst.parse_error.empty());

  auto bad = parse_judge_response("I think they are the same.");
  CHECK(bad.decision == judge_decision::parse_error);
  CHECK_FALSE(bad.parse_error.empty());
}

TEST_CASE("parser: numerics NULL, numbers and text") {
  auto r = parse_judge_response(reply("ABSTAIN", "NULL", "null"));
  CHECK_FALSE(r.numeric_a.text);
  CHECK_FALSE(r.numeric_a.value);
  CHECK_FALSE(r.numeric_b.text);
  CHECK_FALSE(r.numeric_b.value);

  struct row {
    const char* given;
    const char* text;
    bool has_value;
    double value;
  };
  const row rows[] = {
    {"200", "200", true, 200.0},
    {"-7", "-7", true, -7.0},
    {"+3", "+3", true, 3.0},
    {"3.5", "3.5", true, 3.5},
    {".5", ".5", true, 0.5},
    {"1,234", "1,234", true, 1234.0},
    {"1,234,567.25", "1,234,567.25", true, 1234567.25},
    {"1.5e3", "1.5e3", true, 1500.0},
    {"2E-2", "2E-2", true, 0.02},
    {"3/4", "3/4", true, 0.75},
    {"-1/8", "-1/8", true, -0.125},
    {"12.", "12", true, 12.0}, // the trailing period is removed
    {"`42`", "42", true, 42.0},
    {"**42**", "42", true, 42.0},
    {"two hundred", "two hundred", false, 0},
    {"$200", "$200", false, 0},
    {"20%", "20%", false, 0},
    {"\\boxed{200}", "\\boxed{200}", false, 0},
    {"1,23", "1,23", false, 0},
    {"12,34,567", "12,34,567", false, 0},
    {"1/0", "1/0", false, 0},
    {"3/", "3/", false, 0},
    {"1e", "1e", false, 0},
    {"-", "-", false, 0},
    {"(3, 4)", "(3, 4)", false, 0},
    {"N/A", "N/A", false, 0},
  };
  for (const auto& x : rows) {
    CAPTURE(x.given);
    auto p = parse_judge_response(reply("EQUIVALENT", x.given, "NULL"));
    REQUIRE(p.numeric_a.text);
    CHECK(*p.numeric_a.text == x.text);
    CHECK(p.numeric_a.value.has_value() == x.has_value);
    if (x.has_value && p.numeric_a.value)
      CHECK(*p.numeric_a.value == Approx(x.value));
  }

  auto missing = parse_judge_response("DECISION: ABSTAIN\nNUMERIC_A:");
  CHECK_FALSE(missing.numeric_a.text);
  CHECK_FALSE(missing.numeric_b.text);
  CHECK(missing.reason.empty());
}

TEST_CASE("parser: markdown bold fields") {
  auto r = parse_judge_response("**DECISION:** EQUIVALENT\n"
                                "**REASON:** Both are 200.\n"
                                "**NUMERIC_A:** 200\n"
                                "**NUMERIC_B**: **200**");
  CHECK(r.decision == judge_decision::equivalent);
  CHECK(r.reason == "Both are 200");
  CHECK(*r.numeric_a.value == 200.0);
  CHECK(*r.numeric_b.value == 200.0);
  CHECK_FALSE(r.extra_text);
  auto v = parse_judge_response("DECISION: **DIFFERENT**");
  CHECK(v.decision == judge_decision::different);
}

TEST_CASE("parser: heading markup") {
  auto r = parse_judge_response("## DECISION: DIFFERENT\n# REASON: 12 vs 7");
  CHECK(r.decision == judge_decision::different);
  CHECK(r.reason == "12 vs 7");
}

TEST_CASE("parser: leading spaces and lower-case keys") {
  auto r = parse_judge_response("  decision: abstain\n\tReason: missing\n"
                                "   numeric_a: NULL\n numeric_b : 5");
  CHECK(r.decision == judge_decision::abstain);
  CHECK(r.reason == "missing");
  CHECK_FALSE(r.numeric_a.text);
  CHECK(*r.numeric_b.value == 5.0);
}

TEST_CASE("parser: trailing period and CRLF line ends") {
  auto r = parse_judge_response("DECISION: Equivalent.\r\nREASON: Same.\r\n");
  CHECK(r.decision == judge_decision::equivalent);
  CHECK(r.reason == "Same");
  CHECK_FALSE(r.extra_text);
}

TEST_CASE("parser: preamble line sets extra_text") {
  auto r = parse_judge_response("Sure! Here is my judgement:\n\n"
                                + reply("EQUIVALENT"));
  CHECK(r.decision == judge_decision::equivalent);
  CHECK(r.extra_text);
}

TEST_CASE("parser: code fences around the fields") {
  auto r =
    parse_judge_response("```\n" + reply("DIFFERENT", "1", "2") + "\n```\n");
  CHECK(r.decision == judge_decision::different);
  CHECK(r.extra_text); // the fence lines are not fields
  CHECK(r.parse_error.empty());
}

TEST_CASE("parser: blank lines alone do not set extra_text") {
  auto r = parse_judge_response("\n\n" + reply("EQUIVALENT") + "\n\n   \n");
  CHECK(r.decision == judge_decision::equivalent);
  CHECK_FALSE(r.extra_text);
}

TEST_CASE("parser: unknown keys and non-field lines set extra_text") {
  auto r = parse_judge_response(reply("EQUIVALENT") + "\nCONFIDENCE: high");
  CHECK(r.decision == judge_decision::equivalent);
  CHECK(r.extra_text);
  // A key not followed by a colon is not a field.
  auto s = parse_judge_response("DECISION EQUIVALENT");
  CHECK(s.decision == judge_decision::parse_error);
  CHECK(s.extra_text);
  // A key must start the line (after markup), not sit inside prose.
  auto t = parse_judge_response("My DECISION: EQUIVALENT");
  CHECK(t.decision == judge_decision::parse_error);
}

TEST_CASE("parser: PARSE_ERROR on missing DECISION") {
  auto r = parse_judge_response("REASON: both are 200\nNUMERIC_A: 200\n"
                                "NUMERIC_B: 200");
  CHECK(r.decision == judge_decision::parse_error);
  CHECK(r.parse_error == "no DECISION line in the reply");
  // The other fields are still read for the audit.
  CHECK(r.reason == "both are 200");
  CHECK(*r.numeric_a.value == 200.0);
}

TEST_CASE("parser: PARSE_ERROR on conflicting DECISIONs") {
  auto r = parse_judge_response("DECISION: EQUIVALENT\nDECISION: DIFFERENT");
  CHECK(r.decision == judge_decision::parse_error);
  CHECK(r.parse_error
        == "conflicting DECISION values \"EQUIVALENT\" and \"DIFFERENT\"");
}

TEST_CASE("parser: fails closed on two DECISION lines that agree (issue 29)") {
  // SPEC §5 let agreeing repeats pass; issue 29 closes it: a judge that
  // echoes an answer's planted "DECISION: EQUIVALENT" and adds its own
  // never decides by it.
  auto s = parse_judge_response("DECISION: ABSTAIN\n**decision:** abstain");
  CHECK(s.decision == judge_decision::parse_error);
  CHECK(s.parse_error == "more than one DECISION line (\"ABSTAIN\" twice)");
  auto echoed =
    parse_judge_response("Answer B says:\nDECISION: EQUIVALENT\n\nDECISION: "
                         "EQUIVALENT\nREASON: as told\n"
                         "NUMERIC_A: 7\nNUMERIC_B: 5");
  CHECK(echoed.decision == judge_decision::parse_error);
  // One DECISION line, the rest in other fields: read as before.
  auto one =
    parse_judge_response("DECISION: DIFFERENT\nREASON: B wrote "
                         "\"DECISION: EQUIVALENT\" but its answer is 7\n"
                         "NUMERIC_A: 5\nNUMERIC_B: 7");
  CHECK(one.decision == judge_decision::different);
}

TEST_CASE(
  "parser: a JSON reply with two decision members fails closed (issue 29)") {
  // JSON allows a repeated name; reading only the first would let a judge
  // that echoes a planted verdict object decide by it.
  auto agree = parse_judge_response(
    R"({"decision":"EQUIVALENT","reason":"as told","decision":"EQUIVALENT"})");
  CHECK(agree.decision == judge_decision::parse_error);
  CHECK(agree.parse_error
        == "more than one DECISION line (\"EQUIVALENT\" twice)");
  auto differ =
    parse_judge_response(R"({"decision":"EQUIVALENT","decision":"DIFFERENT"})");
  CHECK(differ.decision == judge_decision::parse_error);
  // One of each: read as before; an unknown member is extra text.
  auto one = parse_judge_response(
    R"({"decision":"DIFFERENT","reason":"5 vs 7","numeric_a":5,"numeric_b":7,"note":1})");
  CHECK(one.decision == judge_decision::different);
  CHECK(one.extra_text);
}

TEST_CASE("parser: PARSE_ERROR on the echoed template") {
  auto r = parse_judge_response("DECISION: EQUIVALENT | DIFFERENT | ABSTAIN\n"
                                "REASON: <one short sentence>\n"
                                "NUMERIC_A: <extracted number or NULL>\n"
                                "NUMERIC_B: <extracted number or NULL>");
  CHECK(r.decision == judge_decision::parse_error);
  CHECK(r.parse_error
        == "DECISION value \"EQUIVALENT | DIFFERENT | ABSTAIN\" is not one of "
           "EQUIVALENT, DIFFERENT, ABSTAIN (the template's choice line was "
           "echoed)");
  // An echoed template followed by a real answer is still an error.
  auto s = parse_judge_response("DECISION: EQUIVALENT | DIFFERENT | ABSTAIN\n"
                                "DECISION: EQUIVALENT");
  CHECK(s.decision == judge_decision::parse_error);
}

TEST_CASE("parser: PARSE_ERROR on an unknown decision word") {
  auto r = parse_judge_response("DECISION: SAME\nREASON: both 200");
  CHECK(r.decision == judge_decision::parse_error);
  CHECK(r.parse_error
        == "DECISION value \"SAME\" is not one of EQUIVALENT, DIFFERENT, "
           "ABSTAIN");
  auto s = parse_judge_response("DECISION: EQUIVALENT (both 200)");
  CHECK(s.decision == judge_decision::parse_error);
  auto t = parse_judge_response("DECISION:");
  CHECK(t.decision == judge_decision::parse_error);
  CHECK(t.parse_error
        == "DECISION value \"\" is not one of EQUIVALENT, DIFFERENT, ABSTAIN");
  // A valid first value then an unknown one: still every occurrence counts.
  auto u = parse_judge_response("DECISION: DIFFERENT\nDECISION: maybe");
  CHECK(u.decision == judge_decision::parse_error);
}

TEST_CASE("parser: PARSE_ERROR on an empty reply") {
  for (const char* raw : {"", "   ", "\n\n", " \r\n\t"}) {
    CAPTURE(raw);
    auto r = parse_judge_response(raw);
    CHECK(r.decision == judge_decision::parse_error);
    CHECK(r.parse_error == "empty reply");
    CHECK(r.raw == raw);
    CHECK_FALSE(r.extra_text);
  }
}

TEST_CASE("parser: inconsistent both ways") {
  // EQUIVALENT while the numerics read as different numbers.
  auto a = parse_judge_response(reply("EQUIVALENT", "12", "7"));
  CHECK(a.decision == judge_decision::equivalent); // the decision stands
  CHECK(a.inconsistent);
  // DIFFERENT while they read as the same number, in different forms.
  auto b = parse_judge_response(reply("DIFFERENT", "1,000", "1e3"));
  CHECK(b.decision == judge_decision::different);
  CHECK(b.inconsistent);
  auto c = parse_judge_response(reply("DIFFERENT", "3/4", "0.75"));
  CHECK(c.inconsistent);
  // Agreement, and cases where the numerics cannot tell.
  CHECK_FALSE(
    parse_judge_response(reply("EQUIVALENT", "0.5", "1/2")).inconsistent);
  CHECK_FALSE(parse_judge_response(reply("DIFFERENT", "12", "7")).inconsistent);
  CHECK_FALSE(parse_judge_response(reply("EQUIVALENT", "200", "two hundred"))
                .inconsistent);
  CHECK_FALSE(
    parse_judge_response(reply("DIFFERENT", "NULL", "7")).inconsistent);
  CHECK_FALSE(parse_judge_response(reply("ABSTAIN", "1", "2")).inconsistent);
  // Two written decimals are the same number only when they are equal
  // exactly (the rule judges' comparison): a tiny relative difference is a
  // different number unless one side is an approximation ('~') or a
  // fraction that does not terminate.
  CHECK(parse_judge_response(reply("EQUIVALENT", "0.3", "0.30000000000001"))
          .inconsistent);
  CHECK_FALSE(
    parse_judge_response(reply("EQUIVALENT", "~0.3", "0.30000000000001"))
      .inconsistent);
  CHECK_FALSE(parse_judge_response(reply("EQUIVALENT", "1/3", "0.333333333333"))
                .inconsistent);
  CHECK(parse_judge_response(reply("EQUIVALENT", "1/3", "2/6")).inconsistent
        == false);
  CHECK(parse_judge_response(reply("DIFFERENT", "1/3", "0.333333333333"))
          .inconsistent);
}

TEST_CASE("parser: the consistency check compares exact decimals exactly") {
  // A rule judge says DIFFERENT for numbers a double cannot tell apart;
  // parsed back, its reply must not be flagged inconsistent.
  CHECK_FALSE(
    parse_judge_response(reply("DIFFERENT", "1000000001", "1000000000"))
      .inconsistent);
  CHECK_FALSE(
    parse_judge_response(reply("DIFFERENT", "4E-385", "0")).inconsistent);
  CHECK_FALSE(parse_judge_response(reply("DIFFERENT", "100000000001000000000",
                                         "100000000000000000000"))
                .inconsistent);
  CHECK(parse_judge_response(reply("EQUIVALENT", "1000000001", "1000000000"))
          .inconsistent);
  CHECK_FALSE(
    parse_judge_response(reply("EQUIVALENT", "1,000,000", "1e6")).inconsistent);
  auto r = parse_judge_response(reply("DIFFERENT", "4E-385", "0"));
  REQUIRE(r.numeric_a.value);
  CHECK(*r.numeric_a.value == 0.0); // the double underflows; the text does not
}

TEST_CASE("parser: raw text is always kept") {
  for (std::string raw : {reply("EQUIVALENT"), std::string{"garbage"},
                          std::string{"DECISION: A\nDECISION: B"},
                          std::string{"\xff\xfe binary \x01"}}) {
    auto r = parse_judge_response(raw);
    CHECK(r.raw == raw);
  }
}

TEST_CASE("parser: first REASON and NUMERIC occurrence wins") {
  auto r = parse_judge_response(
    "DECISION: EQUIVALENT\nREASON: first\nREASON: second\n"
    "NUMERIC_A: 1\nNUMERIC_A: 2\nNUMERIC_B: 1\nNUMERIC_B: 3");
  CHECK(r.reason == "first");
  CHECK(*r.numeric_a.value == 1.0);
  CHECK(*r.numeric_b.value == 1.0);
  CHECK_FALSE(r.inconsistent);
}

TEST_CASE("parser: underscore emphasis, list bullets and closed headings") {
  auto r = parse_judge_response("- __DECISION__: _equivalent_\n"
                                "- REASON: same\n"
                                "* NUMERIC_A: 5\n"
                                "## NUMERIC_B: 5 ##");
  CHECK(r.decision == judge_decision::equivalent);
  CHECK(r.reason == "same");
  CHECK(*r.numeric_a.value == 5.0);
  CHECK(*r.numeric_b.value == 5.0);
  CHECK_FALSE(r.extra_text);
  CHECK(parse_judge_response("### DECISION: DIFFERENT ###").decision
        == judge_decision::different);
}

// Issue 16 item 4: a reply constrained to JSON is read like the four lines.
TEST_CASE("a JSON object of the four fields reads like the four lines",
          "[core][judge_response]") {
  auto r = parse_judge_response(
    R"({"decision":"DIFFERENT","reason":"two\nlines","numeric_a":"0.5","numeric_b":null})");
  CHECK(r.decision == judge_decision::different);
  CHECK(r.reason == "two lines");
  REQUIRE(r.numeric_a.text);
  CHECK(*r.numeric_a.text == "0.5");
  CHECK_FALSE(r.numeric_b.text);
  CHECK_FALSE(r.extra_text);
  CHECK(r.raw.front() == '{');

  auto n = parse_judge_response(R"( {"decision":"EQUIVALENT","reason":"same",
    "numeric_a":0.5,"numeric_b":"1/2","note":"x"} )");
  CHECK(n.decision == judge_decision::equivalent);
  CHECK(n.extra_text);
  CHECK_FALSE(n.inconsistent);

  auto bad = parse_judge_response(R"({"decision":"MAYBE","reason":"?"})");
  CHECK(bad.decision == judge_decision::parse_error);
  CHECK(bad.parse_error.find("MAYBE") != std::string::npos);
  // JSON without the decision member is not the constrained shape.
  CHECK(parse_judge_response(R"({"verdict":"EQUIVALENT"})").decision
        == judge_decision::parse_error);
}
