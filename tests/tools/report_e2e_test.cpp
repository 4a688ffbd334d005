// `invjudge report`: one self-contained HTML page from an audit trail alone;
// refused for an edited audit unless --allow-unverified, which marks it; and
// checked in a real browser (headless Chromium) when one is installed.
#include <cctype>
#include <cstdlib>
#include <regex>
#include <string>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "cli_support.hpp"
#include "core/sha256.hpp"
#include "tests/http/batch_script.hpp"
#include "tests/required_input.hpp"

using namespace ij::test;

namespace {

// The plots a run with one judge shows: agreement needs two judges on one
// pair (a panel; audit_digest_test shows that plot from a fixed audit).
const char* plots[] = {"plot-verdicts",      "plot-confusion", "plot-canaries",
                       "plot-position-bias", "plot-latency",   "plot-tokens"};

// An audit with something in those plots: three votes, all cast, A and B
// swapped on the second (position bias), canaries, labels. Returns the
// final hash the run printed.
std::string make_audit(const temp_dir& dir) {
  write_file(dir.file("c.json"), R"({"votes":3,"min_agreement":3,
    "order_balancing":true,"canaries":{"rate":0.3,"seed":5}})");
  auto r = invjudge(
    dir,
    "run --pairs " + source_dir()
      + "/examples/pairs.jsonl --config c.json --audit a.jsonl --out v.jsonl");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto at = r.err.find("final hash: ");
  REQUIRE(at != std::string::npos);
  return r.err.substr(at + 12, 64);
}

// The banner's element (id "verified" or "unverified"), tags included.
std::string banner_of(const std::string& page) {
  auto at = page.find("<div class=");
  REQUIRE(at != std::string::npos);
  return page.substr(at, page.find("</div>", at) + 6 - at);
}

std::string find_chromium() {
  if (::access("/usr/bin/chromium", X_OK) == 0)
    return "/usr/bin/chromium";
  for (auto name : {"chromium", "chromium-browser", "google-chrome"}) {
    std::string cmd = std::string{"command -v "} + name + " >/dev/null 2>&1";
    if (std::system(cmd.c_str()) == 0)
      return name;
  }
  return {};
}

// Chromium, or empty after saying why the browser check is skipped; on CI
// (CI=true) a missing browser fails the test instead.
std::string chromium_or_skip() {
  auto chromium = find_chromium();
  if (chromium.empty()) {
    if (in_ci())
      FAIL(
        "chromium is not installed (scripts/setup installs it), and CI=true: "
        "the browser check cannot be skipped");
    WARN("chromium is not installed (scripts/setup installs it): the browser "
         "check is skipped");
  }
  return chromium;
}

// Headless Chromium on `page` (a file in `dir`) at 1280 px wide, with no
// network and a profile of its own inside `dir`; `action` is --dump-dom or
// --screenshot=FILE. Standard output goes to `out`, the log to browser.log.
int run_chromium(const temp_dir& dir, const std::string& chromium,
                 const std::string& page, const std::string& action,
                 const std::string& out) {
  std::string cmd =
    "cd " + shell_quote(dir.path()) + " && timeout 120 " + chromium
    + " --headless --no-sandbox --disable-gpu --disable-quic"
      " --no-first-run --disable-background-networking"
      " --disable-component-update --disable-sync"
      " --user-data-dir="
    + shell_quote(dir.file("profile"))
    + " --window-size=1280,1000 --enable-logging=stderr --v=0"
      " --proxy-server=127.0.0.1:9 "
    + action + " file://" + dir.file(page) + " > " + out + " 2> browser.log";
  return std::system(cmd.c_str());
}

// A panel of three judges (one with a long name, to test the labels) with
// canaries and order balancing: every section of the report has content.
cli_result make_panel_audit(const temp_dir& dir) {
  write_file(dir.file("panel.json"), R"({"judges":[
    {"name":"rules:math","type":"rules","model":"math","temperature":0,
     "timeout_ms":60000,"max_in_flight":8},
    {"name":"numeric-judge-with-a-rather-long-name","type":"stub",
     "model":"numeric","temperature":0,"timeout_ms":60000,"max_in_flight":8},
    {"name":"stub:equivalent","type":"stub","model":"equivalent",
     "temperature":0,"timeout_ms":60000,"max_in_flight":8}],
    "panels":{"rule":"majority"},"votes":3,"min_agreement":2,
    "order_balancing":true,"canaries":{"rate":0.3,"seed":5}})");
  auto r = invjudge(dir, "run --pairs " + source_dir()
                           + "/examples/pairs.jsonl --config panel.json "
                             "--audit a.jsonl --out v.jsonl");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return r;
}

/// The first match of `re` in `text`; the test fails without one.
std::smatch must_match(const std::string& text, const std::string& re) {
  std::smatch m;
  INFO(re);
  REQUIRE(std::regex_search(text, m, std::regex{re}));
  return m;
}

/// The section `id` of a page.
std::string section_of(const std::string& page, const std::string& id) {
  auto at = page.find("<section id=\"" + id + "\">");
  REQUIRE(at != std::string::npos);
  return page.substr(at, page.find("</section>", at) - at);
}

// Measures every text label of every plot from inside the page (their
// boxes as the browser lays them out) and writes what it finds into the
// page, for --dump-dom: labels that overlap, labels outside their plot, a
// page wider than the window.
const char* layout_check = R"(<script>
(function () {
  var texts = Array.prototype.slice.call(document.querySelectorAll('svg text'));
  var out = [];
  var boxes = texts.map(function (t) {
    return {r: t.getBoundingClientRect(), s: t.textContent,
            svg: t.ownerSVGElement.getBoundingClientRect()};
  });
  for (var i = 0; i < boxes.length; ++i) {
    var a = boxes[i].r, p = boxes[i].svg;
    if (a.width <= 0 || a.height <= 0) out.push('empty label: ' + boxes[i].s);
    if (a.left < p.left - 0.5 || a.right > p.right + 0.5 || a.top < p.top - 0.5
        || a.bottom > p.bottom + 0.5)
      out.push('outside its plot: "' + boxes[i].s + '"');
    for (var j = i + 1; j < boxes.length; ++j) {
      var b = boxes[j].r;
      var ox = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      var oy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (ox > 0.5 && oy > 0.5)
        out.push('overlap: "' + boxes[i].s + '" and "' + boxes[j].s + '"');
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth)
    out.push('the page is wider than the window: '
             + document.documentElement.scrollWidth + ' px');
  var pre = document.createElement('pre');
  pre.id = 'layout-check';
  pre.textContent = 'labels measured: ' + texts.length + '\n'
                    + (out.length ? out.join('\n') : 'no overlap');
  document.body.appendChild(pre);
})();
</script>)";

} // namespace

TEST_CASE("report: one self-contained page with every plot, from the audit "
          "alone") {
  temp_dir dir;
  make_audit(dir);
  auto r = invjudge(dir, "report a.jsonl --html r.html");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto page = read_file(dir.file("r.html"));
  for (auto id : plots) {
    INFO(id);
    CHECK(page.find(std::string{"<svg class=\"plot\" id=\""} + id + "\"")
          != std::string::npos);
  }
  CHECK(page.find("Audit chain intact through line") != std::string::npos);
  CHECK(page.find("No panel in this run") != std::string::npos);
  CHECK(page.find("No canaries in this run") == std::string::npos);
  // Nothing to fetch: no script, no external resource.
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("src=") == std::string::npos);
  CHECK(page.find("href=") == std::string::npos);
  CHECK(page.find("@import") == std::string::npos);
}

TEST_CASE("report: an edited audit is refused, or marked UNVERIFIED with "
          "--allow-unverified, an unreadable one is bad input") {
  temp_dir dir;
  make_audit(dir);
  auto text = read_file(dir.file("a.jsonl"));
  auto at = text.find("\"verdict\":\"INVARIANT\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, 21, "\"verdict\":\"VIOLATED\"");
  write_file(dir.file("a.jsonl"), text);
  auto refused = invjudge(dir, "report a.jsonl --html r.html");
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("does not verify") != std::string::npos);
  CHECK(read_file(dir.file("r.html")).empty());
  auto marked =
    invjudge(dir, "report a.jsonl --html r.html --allow-unverified");
  CHECK(marked.exit_code == 0);
  auto page = read_file(dir.file("r.html"));
  CHECK(page.find("UNVERIFIED AUDIT") != std::string::npos);
  CHECK(invjudge(dir, "report missing.jsonl --html r2.html").exit_code == 2);
  CHECK(invjudge(dir, "report . --html r2.html").exit_code == 2);
  CHECK(invjudge(dir, "report a.jsonl").exit_code == 2); // --html is required
}

TEST_CASE("report: a run without panel, canaries or labels says so") {
  temp_dir dir;
  write_file(dir.file("p.jsonl"), R"({"id":"1","a":"2","b":"2"}
{"id":"2","a":"2","b":"3"}
)");
  REQUIRE(
    invjudge(dir, "run --pairs p.jsonl --audit a.jsonl --out v.jsonl").exit_code
    == 0);
  REQUIRE(invjudge(dir, "report a.jsonl --html r.html").exit_code == 0);
  auto page = read_file(dir.file("r.html"));
  CHECK(page.find("No panel in this run") != std::string::npos);
  CHECK(page.find("No canaries in this run") != std::string::npos);
  CHECK(page.find("No labelled pairs") != std::string::npos);
  CHECK(page.find("Order balancing was off") != std::string::npos);
  CHECK(page.find("id=\"plot-verdicts\"") != std::string::npos);
}

TEST_CASE("report: headless Chromium loads the page without errors and shows "
          "the plots") {
  auto chromium = chromium_or_skip();
  if (chromium.empty())
    return;
  temp_dir dir;
  make_audit(dir);
  REQUIRE(invjudge(dir, "report a.jsonl --html r.html").exit_code == 0);
  int rc = run_chromium(dir, chromium, "r.html", "--dump-dom", "dom.html");
  auto dom = read_file(dir.file("dom.html"));
  auto log = read_file(dir.file("browser.log"));
  INFO(log);
  REQUIRE(rc == 0);
  for (auto id : plots) {
    INFO(id);
    CHECK(dom.find(std::string{"id=\""} + id + "\"") != std::string::npos);
  }
  CHECK(dom.find("<svg") != std::string::npos);
  CHECK(log.find("Uncaught") == std::string::npos);
  CHECK(log.find(":CONSOLE(") == std::string::npos);
  CHECK(log.find("Failed to load resource") == std::string::npos);
}

TEST_CASE("report: an edited last line is not called verified: the banner says "
          "what was checked, and --expect-hash catches the edit") {
  temp_dir dir;
  auto kept = make_audit(dir);
  auto text = read_file(dir.file("a.jsonl"));
  auto lines = lines_of(text);
  REQUIRE(lines.back().find("\"type\":\"run_end\"") != std::string::npos);
  // The run end's position-bias figure changed: "changed":0 -> 9. Nothing
  // follows the last line, so the chain still holds and verify passes.
  auto at = text.rfind("\"changed\":0");
  REQUIRE(at != std::string::npos);
  REQUIRE(at > text.size() - lines.back().size() - 1);
  text.replace(at, 11, "\"changed\":9");
  write_file(dir.file("a.jsonl"), text);
  auto edited = ij::sha256_hex(lines_of(text).back());
  REQUIRE(edited != kept);
  auto n = std::to_string(lines.size());
  REQUIRE(invjudge(dir, "audit verify a.jsonl").exit_code == 0);

  SECTION("without --expect-hash: what the chain covers, and what it cannot") {
    auto r = invjudge(dir, "report a.jsonl --html r.html");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    auto banner = banner_of(read_file(dir.file("r.html")));
    INFO(banner);
    CHECK(banner.find("chain intact through line " + n
                      + "; the last line is only as safe as the final hash "
                        "you kept: <code>"
                      + edited + "</code>")
          != std::string::npos);
    CHECK(banner.find("Audit chain verified") == std::string::npos);
    CHECK(banner.find(": intact") == std::string::npos);
    CHECK(banner.find("class=\"ok\"") == std::string::npos);
  }
  SECTION("with the hash the run printed: an edit, no page") {
    auto r =
      invjudge(dir, "report a.jsonl --html r.html --expect-hash " + kept);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("the final hash is not the expected " + kept)
          != std::string::npos);
    CHECK(r.err.find("rewritten or cut") != std::string::npos);
    CHECK(read_file(dir.file("r.html")).empty());
    // --allow-unverified: a page that says so, never "verified".
    auto marked =
      invjudge(dir, "report a.jsonl --html r.html --allow-unverified "
                    "--expect-hash "
                      + kept);
    CHECK(marked.exit_code == 0);
    auto banner = banner_of(read_file(dir.file("r.html")));
    CHECK(banner.find("UNVERIFIED AUDIT") != std::string::npos);
    CHECK(banner.find("the final hash is not the expected " + kept)
          != std::string::npos);
    CHECK(banner.find("no line was changed") == std::string::npos);
  }
  SECTION("upper-case hex is the same hash, a non-hash is bad input") {
    std::string upper = kept;
    for (auto& c : upper)
      c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    CHECK(invjudge(dir, "report a.jsonl --html r.html --expect-hash " + upper)
            .exit_code
          == 1);
    auto bad = invjudge(dir, "report a.jsonl --html r.html --expect-hash 12ab");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("--expect-hash 12ab: not a SHA-256")
          != std::string::npos);
  }
}

TEST_CASE("report: with the final hash kept, an unedited audit is verified to "
          "its last line") {
  temp_dir dir;
  auto kept = make_audit(dir);
  auto n = std::to_string(lines_of(read_file(dir.file("a.jsonl"))).size());
  auto r = invjudge(dir, "report a.jsonl --html r.html --expect-hash " + kept);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto banner = banner_of(read_file(dir.file("r.html")));
  INFO(banner);
  CHECK(banner.find("class=\"ok\"") != std::string::npos);
  CHECK(banner.find("chain intact through line " + n
                    + " and it ends at the final hash you kept (<code>" + kept
                    + "</code>): no line was changed, the last one included")
        != std::string::npos);
  CHECK(banner.find("only as safe as") == std::string::npos);
}

TEST_CASE("report: a panel run with canaries states the summary's agreement, "
          "kappa, tiers and confusion, and never counts a canary as a pair") {
  temp_dir dir;
  auto run = make_panel_audit(dir);
  auto& summary = run.err;
  INFO(summary);
  auto canaries =
    std::stoull(must_match(summary, R"(canaries: (\d+) judged)")[1]);
  REQUIRE(canaries > 0);
  auto tiers = must_match(
    summary, R"((\d+) pairs: all agree (\d+), majority (\d+), split (\d+))");
  auto stats = must_match(
    summary,
    R"(raw agreement (\S+ \[\S+, \S+\]) over (\d+) rated pairs; Fleiss' kappa (\S+ \[\S+, \S+\]))");
  std::string pairs = tiers[1], rated = stats[2];
  REQUIRE(invjudge(dir, "report a.jsonl --html r.html").exit_code == 0);
  auto page = read_file(dir.file("r.html"));
  auto agreement = section_of(page, "agreement");
  INFO(agreement);
  CHECK(agreement.find("majority (a pair is decided") != std::string::npos);
  CHECK(agreement.find("pairs the panel judged</th><td>" + pairs + " (canaries")
        != std::string::npos);
  CHECK(agreement.find("all agree " + std::string{tiers[2]} + ", majority "
                       + std::string{tiers[3]} + ", split "
                       + std::string{tiers[4]})
        != std::string::npos);
  CHECK(agreement.find("rated pairs</th><td>" + rated + " (")
        != std::string::npos);
  CHECK(agreement.find("raw agreement (every judge the same)</th><td>"
                       + std::string{stats[1]} + "</td>")
        != std::string::npos);
  CHECK(agreement.find("Fleiss&#39; kappa</th><td>" + std::string{stats[3]}
                       + "</td>")
        != std::string::npos);
  // Each judge against the labels: the summary's cells (true/false).
  std::regex row{R"(    (\S+) +(\d+)/(\d+) +(\d+)/(\d+) +(\d+)/(\d+))"};
  int judges = 0;
  for (auto& line : lines_of(summary)) {
    std::smatch m;
    if (!std::regex_match(line, m, row))
      continue;
    std::string cells = "<th scope=\"row\">" + std::string{m[1]} + "</th>";
    for (int i = 2; i <= 7; ++i)
      cells += "<td>" + std::string{m[i]} + "</td>";
    INFO(cells);
    CHECK(agreement.find(cells) != std::string::npos);
    ++judges;
  }
  CHECK(judges == 3);
  // The couples: over the rated pairs, canaries never among them.
  auto couples = agreement.substr(agreement.find("<table id=\"agreement\""));
  CHECK(couples.find("</th><td>" + rated + "</td>") != std::string::npos);
  auto with_canaries = std::to_string(std::stoull(pairs) + canaries);
  CHECK(agreement.find("<td>" + with_canaries + "</td>") == std::string::npos);
  // Position bias is over pairs too, in the summary and in the report; the
  // plot states each judge's figures beside its interval (0 of 37 changed:
  // an interval too short to see).
  auto bias =
    must_match(summary, R"((\d+) of +(\d+) pairs +(\S+%) +\[(\S+), (\S+)\])");
  CHECK(std::string{bias[2]} == pairs);
  auto bias_section = section_of(page, "position-bias");
  CHECK(bias_section.find("</th><td>" + pairs + "</td>") != std::string::npos);
  CHECK(bias_section.find(">" + std::string{bias[1]} + " of " + pairs + ": "
                          + std::string{bias[3]} + " [" + std::string{bias[4]}
                          + ", " + std::string{bias[5]} + "]</text>")
        != std::string::npos);
}

TEST_CASE("report: a cascade run states its paths, audited share and the "
          "rules' live precision as the summary does") {
  temp_dir dir;
  write_file(dir.file("k.json"), R"({"cascade":{"rules":"rules:math",
    "llm":"stub:equivalent","audit_rate":0.5,"seed":1},
    "canaries":{"rate":0.2,"seed":3}})");
  auto run = invjudge(dir, "run --pairs " + source_dir()
                             + "/examples/pairs.jsonl --config k.json "
                               "--audit a.jsonl --out v.jsonl");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  auto paths = must_match(
    run.err,
    R"((\d+) pairs: (\d+) decided by the rules, (\d+) sent on \(rules undecided\), (\d+) rule-decided pairs audited)");
  auto precision = must_match(run.err, R"(rules precision (\S+ \[\S+, \S+\]))");
  REQUIRE(invjudge(dir, "report a.jsonl --html r.html").exit_code == 0);
  auto cascade = section_of(read_file(dir.file("r.html")), "cascade");
  INFO(cascade);
  CHECK(cascade.find("pairs into the cascade</th><td>" + std::string{paths[1]}
                     + " (canaries")
        != std::string::npos);
  CHECK(cascade.find("decided by the rules (rules:math)</th><td>"
                     + std::string{paths[2]} + "</td>")
        != std::string::npos);
  CHECK(
    cascade.find("(rules undecided)</th><td>" + std::string{paths[3]} + "</td>")
    != std::string::npos);
  CHECK(cascade.find("audited by stub:equivalent</th><td>"
                     + std::string{paths[4]} + " of " + std::string{paths[2]}
                     + ": ")
        != std::string::npos);
  CHECK(cascade.find("live precision (95%)</th><td>" + std::string{precision[1]}
                     + " over ")
        != std::string::npos);
}

TEST_CASE("report: three judges in headless Chromium at 1280 px: no two plot "
          "labels overlap, none leaves its plot, every plot has its numbers") {
  auto chromium = chromium_or_skip();
  if (chromium.empty())
    return;
  temp_dir dir;
  make_panel_audit(dir);
  REQUIRE(invjudge(dir, "report a.jsonl --html r.html").exit_code == 0);
  auto page = read_file(dir.file("r.html"));
  // Every plot is followed, in its figure, by a table of its numbers (the
  // tokens plot by the cost table above it); the page stays one file.
  for (auto id : {"plot-verdicts", "plot-confusion", "plot-agreement",
                  "plot-canaries", "plot-position-bias", "plot-latency"}) {
    INFO(id);
    auto at = page.find(std::string{"<svg class=\"plot\" id=\""} + id + "\"");
    REQUIRE(at != std::string::npos);
    auto end = page.find("</figure>", at);
    REQUIRE(end != std::string::npos);
    CHECK(page.substr(at, end - at).find("<table") != std::string::npos);
  }
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("src=") == std::string::npos);
  // The alarms' labels are text of the canary plot (and so measured below).
  for (auto mode : {"false_equivalent", "decided_abstain"}) {
    INFO(mode);
    CHECK(std::regex_search(page, std::regex{std::string{"<text [^>]*>alarm: "
                                                         "stub:equivalent \\("}
                                             + mode + "\\)<"}));
  }
  // A test copy of the page measures its labels.
  auto body_end = page.rfind("</body>");
  REQUIRE(body_end != std::string::npos);
  write_file(dir.file("t.html"),
             page.substr(0, body_end) + layout_check + page.substr(body_end));
  int rc = run_chromium(dir, chromium, "t.html", "--dump-dom", "dom.html");
  INFO(read_file(dir.file("browser.log")));
  REQUIRE(rc == 0);
  auto dom = read_file(dir.file("dom.html"));
  auto check = must_match(
    dom, R"(<pre id="layout-check">labels measured: (\d+)\n([^<]*)</pre>)");
  INFO(check[0]);
  // Three judges' latency, canaries, position bias, agreement: many labels.
  CHECK(std::stoul(check[1]) > 80);
  CHECK(std::string{check[2]} == "no overlap");
}

namespace {

// Measures the labels of `page` (in `dir`) in headless Chromium: what the
// layout check found ("no overlap" when all is well) and how many labels.
std::pair<std::string, unsigned long> layout_of(const temp_dir& dir,
                                                const std::string& chromium,
                                                const std::string& page) {
  auto text = read_file(dir.file(page));
  auto body_end = text.rfind("</body>");
  REQUIRE(body_end != std::string::npos);
  write_file(dir.file("t-" + page),
             text.substr(0, body_end) + layout_check + text.substr(body_end));
  int rc = run_chromium(dir, chromium, "t-" + page, "--dump-dom", "dom.html");
  INFO(read_file(dir.file("browser.log")));
  REQUIRE(rc == 0);
  auto dom = read_file(dir.file("dom.html"));
  auto check = must_match(
    dom, R"(<pre id="layout-check">labels measured: (\d+)\n([^<]*)</pre>)");
  return {check[2], std::stoul(check[1])};
}

// A labelled run calibrated with a map and stopping on probability: its
// summary's stderr.
std::string make_calibrated_audit(const temp_dir& dir) {
  auto pairs = invjudge(dir, "gen-pairs 400");
  REQUIRE(pairs.exit_code == 0);
  write_file(dir.file("pairs.jsonl"), pairs.out);
  write_file(dir.file("cal.json"), "{\"judge\":\"stub:noisy:0.1\",\"votes\":1,"
                                   "\"audit\":{\"path\":\"cal.audit.jsonl\"}}");
  REQUIRE(
    invjudge(
      dir,
      "run --no-progress --pairs pairs.jsonl --config cal.json --out /dev/null")
      .exit_code
    == 0);
  REQUIRE(
    invjudge(dir, "calibrate cal.audit.jsonl --out map.json --bootstrap 20")
      .exit_code
    == 0);
  write_file(dir.file("run.json"),
             "{\"judge\":\"stub:noisy:0.1\",\"votes\":5,\"min_agreement\":3,"
             "\"calibration\":\"map.json\",\"stop\":{\"probability\":0.99}}");
  auto r =
    invjudge(dir, "run --no-progress --pairs pairs.jsonl --config run.json "
                  "--audit run.audit.jsonl --out /dev/null");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return r.err;
}

} // namespace

TEST_CASE("report: the calibration section states the summary's figures for "
          "the declared "
          "map beside the per-vote refit, each labelled, the header names map "
          "and stop rule") {
  temp_dir dir;
  auto summary = make_calibrated_audit(dir);
  auto m = must_match(
    summary,
    R"(calibrated probability: ECE (\d\.\d{4}), Brier (\d\.\d{4}) over (\d+) labelled pairs)");
  REQUIRE(invjudge(dir, "report run.audit.jsonl --html r.html").exit_code == 0);
  auto page = read_file(dir.file("r.html"));
  auto sha = ij::sha256_hex(read_file(dir.file("map.json")));
  // The header: the map with its SHA-256, the stop rule and what it did.
  auto run = page.substr(page.find("<table id=\"run\""));
  run = run.substr(0, run.find("</table>"));
  CHECK(
    run.find("<th>calibration map</th><td>map.json (SHA-256 " + sha + ")</td>")
    != std::string::npos);
  CHECK(run.find("reaches 0.99 (stop.probability)") != std::string::npos);
  CHECK(std::regex_search(run, std::regex{"Pairs stopped: [a-z_]+ \\d+"}));
  // The two measurements side by side, each labelled, the declared map's
  // being the summary's own numbers over the same pairs.
  auto cal = section_of(page, "calibration");
  auto compare = cal.substr(cal.find("<table id=\"calibration-compare\""));
  compare = compare.substr(0, compare.find("</table>"));
  INFO(compare);
  CHECK(
    compare.find(
      "<th scope=\"row\">declared map map.json (SHA-256 " + sha.substr(0, 12)
      + "...) on this run&#39;s pairs, per pair, as the run summary</th><td>"
      + std::string{m[3]} + " labelled pairs</td><td>" + std::string{m[1]}
      + "</td><td>" + std::string{m[2]} + "</td>")
    != std::string::npos);
  CHECK(compare.find("per-vote refit of stub:noisy:0.1") != std::string::npos);
  CHECK(cal.find("measure different things") != std::string::npos);
  // The reliability diagram has ticks on both axes.
  auto plot =
    cal.substr(cal.find("<svg class=\"plot\" id=\"plot-reliability-"));
  plot = plot.substr(0, plot.find("</svg>"));
  for (auto tick : {">0<", ">0.2<", ">0.4<", ">0.6<", ">0.8<", ">1<"}) {
    INFO(tick);
    CHECK(plot.find(std::string{"class=\"tick\""}) != std::string::npos);
    // Each label twice: once per axis.
    auto first = plot.find(tick);
    REQUIRE(first != std::string::npos);
    CHECK(plot.find(tick, first + 1) != std::string::npos);
  }
  // Laid out in a browser: no label overlaps or leaves its plot.
  auto chromium = chromium_or_skip();
  if (chromium.empty())
    return;
  auto [found, labels] = layout_of(dir, chromium, "r.html");
  CHECK(labels > 20);
  CHECK(found == "no overlap");
}

TEST_CASE(
  "report: a batched run's batches by state, requests, time to end and cost, "
  "checked in headless Chromium") {
  ::setenv("IJ_REPORT_BATCH_KEY", "sk-report", 1);
  temp_dir dir;
  write_file(dir.file("pairs.jsonl"), scripted_pairs(12));
  fake_batch_options o;
  o.kind = api_kind::openai;
  o.api_key = "sk-report";
  fake_batches fake{o};
  decide_by_custom_id(fake);
  write_file(
    dir.file("c.json"),
    R"({"judges":[{"name":"fake","type":"openai","model":"judge-model","base_url":")"
      + fake.base_url()
      + R"(","api_key_env":"IJ_REPORT_BATCH_KEY","temperature":0,"timeout_ms":60000,)"
        R"("max_in_flight":4,"max_attempts":1,"prices":{"input":2,"output":4},)"
        R"("batch":{"enabled":true,"max_requests":8,"max_wait_ms":50,"poll_ms":20}}],"votes":1})");
  auto r = invjudge(
    dir,
    "run --pairs pairs.jsonl --config c.json --audit a.jsonl --out v.jsonl "
    "--no-progress");
  ::unsetenv("IJ_REPORT_BATCH_KEY");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  REQUIRE(invjudge(dir, "report a.jsonl --html r.html").exit_code == 0);
  auto page = read_file(dir.file("r.html"));
  CHECK(page.find("not read") == std::string::npos);
  auto b = section_of(page, "batches");
  INFO(b);
  CHECK(b.find("<svg class=\"plot\" id=\"plot-batches\"") != std::string::npos);
  // Every request in some batch, every call answered through one, priced
  // at half of 2 per M input and 4 per M output.
  std::size_t batches = 0, calls = 0;
  std::uint64_t in = 0, out = 0;
  for (auto& line : lines_of(read_file(dir.file("a.jsonl")))) {
    batches += line.find(R"("type":"batch")") != std::string::npos
               && line.find(R"("step":"pending")") != std::string::npos;
    if (line.find(R"("type":"judge_call")") != std::string::npos) {
      ++calls;
      in += std::stoull(must_match(line, R"("input_tokens":(\d+))")[1]);
      out += std::stoull(must_match(line, R"("output_tokens":(\d+))")[1]);
    }
  }
  REQUIRE(batches >= 2);
  auto totals = b.substr(b.find("<table id=\"batch-totals\""));
  CHECK(totals.find("<th scope=\"row\">batches</th><td>"
                    + std::to_string(batches) + "</td>")
        != std::string::npos);
  CHECK(totals.find("(" + std::to_string(calls) + " in all)")
        != std::string::npos);
  CHECK(totals.find("<th scope=\"row\">batched calls recorded</th><td>"
                    + std::to_string(calls))
        != std::string::npos);
  CHECK(std::regex_search(
    totals, std::regex{"median \\d+\\.\\d s, longest \\d+\\.\\d s \\("
                       + std::to_string(batches) + " ended\\)"}));
  char cost[64];
  std::snprintf(cost, sizeof cost, "%.4f in all",
                (2.0 * in + 4.0 * out) / 1e6 / 2);
  CHECK(totals.find(cost) != std::string::npos);
  CHECK(b.find("<table id=\"data-batch-list\"") != std::string::npos);
  auto chromium = chromium_or_skip();
  if (chromium.empty())
    return;
  auto [found, labels] = layout_of(dir, chromium, "r.html");
  CHECK(labels > 10);
  CHECK(found == "no overlap");
}
