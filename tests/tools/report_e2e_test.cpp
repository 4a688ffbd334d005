// `invjudge report`: one self-contained HTML page from an audit trail alone;
// refused for an edited audit unless --allow-unverified, which marks it; and
// checked in a real browser (headless Chromium) when one is installed.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "cli_support.hpp"

using namespace ij::test;

namespace {

// The plots a run with one judge shows: agreement needs two judges on one
// pair (a panel; audit_digest_test shows that plot from a fixed audit).
const char* plots[] = {"plot-verdicts", "plot-confusion", "plot-canaries",
                       "plot-position-bias", "plot-latency", "plot-tokens"};

// An audit with something in those plots: three votes, all cast, A and B
// swapped on the second (position bias), canaries, labels.
void make_audit(const temp_dir& dir) {
  write_file(dir.file("c.json"), R"({"votes":3,"min_agreement":3,
    "order_balancing":true,"canaries":{"rate":0.3,"seed":5}})");
  auto r = invjudge(dir, "run --pairs " + source_dir()
                           + "/examples/pairs.jsonl --config c.json --audit a.jsonl --out v.jsonl");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
}

std::string find_chromium() {
  for (auto name : {"chromium", "chromium-browser", "google-chrome"}) {
    std::string cmd = std::string{"command -v "} + name + " >/dev/null 2>&1";
    if (std::system(cmd.c_str()) == 0)
      return name;
  }
  return {};
}

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
  CHECK(page.find("Audit chain verified") != std::string::npos);
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
  auto marked = invjudge(dir, "report a.jsonl --html r.html --allow-unverified");
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
  REQUIRE(invjudge(dir, "run --pairs p.jsonl --audit a.jsonl --out v.jsonl").exit_code == 0);
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
  auto chromium = find_chromium();
  if (chromium.empty()) {
    WARN("chromium is not installed (scripts/setup installs it): the browser "
         "check is skipped");
    return;
  }
  temp_dir dir;
  make_audit(dir);
  REQUIRE(invjudge(dir, "report a.jsonl --html r.html").exit_code == 0);
  // No network, a profile of its own inside the test directory.
  std::string cmd = "cd " + dir.path() + " && timeout 120 " + chromium
                    + " --headless --no-sandbox --disable-gpu --no-first-run"
                      " --user-data-dir=" + dir.file("profile")
                    + " --enable-logging=stderr --v=0"
                      " --proxy-server=127.0.0.1:9 --dump-dom file://"
                    + dir.file("r.html") + " > dom.html 2> browser.log";
  int rc = std::system(cmd.c_str());
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
