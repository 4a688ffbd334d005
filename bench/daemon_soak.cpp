// daemon_soak: a finished run leaves nothing behind in the daemon (issue 26).
// Four clients at once submit runs of P pairs with the rule judge to one
// `invjudge serve` — create, upload, close, follow the verdicts to the end —
// until R runs have finished; the daemon's resident memory (VmRSS) and open
// files (/proc/PID/fd) are sampled every S runs. The baseline is the same
// daemon after run B: the figures after run R may differ from it by at most
// 8 MiB and 2 files (exit 1 otherwise).
//
// Then GET /v1/runs with a state of N finished runs (rows written into a
// fresh state database before the daemon starts, each the copy of a real
// finished run's row): the first page, a page in the middle (by its cursor)
// and GET /v1/runs/{id}, against the same with 100 runs, in the same run.
//
//   build/bench/daemon_soak [--runs R] [--pairs P] [--clients C]
//                           [--sample-every S] [--baseline-run B]
//                           [--list-runs N]
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <sqlite3.h>

#include "bench/json_field.hpp"
#include "bench/served_daemon.hpp"
#include "tests/daemon/soak_load.hpp"
#include "tests/tools/cli_support.hpp"
#include "tools/api_client.hpp"

using namespace ij;
using namespace ij::test;
using clock_type = std::chrono::steady_clock;
using ij::bench::json_field;

namespace {

// A served daemon stopped with SIGTERM (a clean shutdown) at scope end.
struct daemon : ij::bench::served_daemon {
  using served_daemon::served_daemon;
  ~daemon() {
    proc->signal(SIGTERM);
    proc->wait();
  }
};

int soak(const temp_dir& dir, int runs, int pairs, int clients, int every,
         int baseline) {
  daemon d{dir, dir.file("state-soak"), "soak"};
  soak_options o;
  o.url = d.url;
  o.pid = d.proc->pid();
  o.pairs = invjudge(dir, "gen-pairs " + std::to_string(pairs)).out;
  o.runs = runs;
  o.clients = clients;
  o.sample_every = every;
  std::printf("soak: %d runs of %d pairs, rules:math, %d clients at once, a "
              "sample every %d "
              "runs\n%8s %10s %8s %9s %12s\n",
              runs, pairs, clients, every, "runs", "RSS MiB", "files",
              "seconds", "pairs/s");
  auto r = run_soak(o);
  std::sort(r.samples.begin(), r.samples.end(),
            [](auto& x, auto& y) { return x.runs < y.runs; });
  for (auto& s : r.samples)
    std::printf("%8d %10.1f %8d %9.1f %12.0f\n", s.runs, s.rss_mib,
                s.open_files, s.seconds,
                s.seconds > 0 ? double(s.runs) * pairs / s.seconds : 0.0);
  for (auto& f : r.failures)
    std::printf("failure: %s\n", f.c_str());
  auto* base = sample_at(r, baseline);
  auto* last = sample_at(r, runs);
  if (!base || !last) {
    std::printf("no sample after run %d or %d\n", baseline, runs);
    return 1;
  }
  auto drss = last->rss_mib - base->rss_mib;
  auto dfiles = last->open_files - base->open_files;
  bool ok = r.done == runs && drss <= 8.0 && dfiles <= 2;
  std::printf("after run %d against after run %d: RSS %+.1f MiB (limit 8), "
              "open files %+d "
              "(limit 2), %d of %d runs done: %s\n",
              runs, baseline, drss, dfiles, r.done, runs,
              ok ? "flat" : "NOT FLAT");
  return ok ? 0 : 1;
}

// A state holding one real finished run, copied `n` times with new ids.
void fill_state(const temp_dir& dir, const std::string& state, int n) {
  std::string id;
  {
    daemon d{dir, state, "fill-" + std::to_string(n)};
    api_client api{d.url, ""};
    auto created = api.request("POST", "/v1/runs", "{}", "application/json");
    id = json_field(created.body, "id");
    api.request("POST", "/v1/runs/" + id + "/pairs",
                invjudge(dir, "gen-pairs 20").out, "application/x-ndjson");
    api.request("POST", "/v1/runs/" + id + "/close");
    for (int i = 0;
         i < 3000
         && json_field(api.request("GET", "/v1/runs/" + id).body, "state")
              != "done";
         ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  sqlite3* db = nullptr;
  sqlite3_open((state + "/state.sqlite").c_str(), &db);
  sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
  for (int i = 1; i < n; ++i) {
    auto sql =
      "INSERT INTO runs (id, name, state, config, created_ms, finished_ms, "
      "lines, "
      "accepted, closed, counts, error, final_hash) SELECT id || '-copy"
      + std::to_string(i) + "', name, state, config, created_ms + "
      + std::to_string(i) + ", finished_ms + " + std::to_string(i)
      + ", lines, accepted, closed, counts, error, final_hash FROM runs WHERE "
        "id = '"
      + id + "'";
    sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  }
  sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_close(db);
}

// Milliseconds per request, the median of `times` requests.
double median_ms(api_client& api, const std::string& target, int times) {
  std::vector<double> ms;
  for (int i = 0; i < times; ++i) {
    auto t = clock_type::now();
    auto r = api.request("GET", target);
    if (r.status != 200)
      throw std::runtime_error(target + ": HTTP " + std::to_string(r.status));
    ms.push_back(
      std::chrono::duration<double, std::milli>(clock_type::now() - t).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

struct list_figures {
  double first = 0, middle = 0, one = 0, start = 0;
};

list_figures listing(const temp_dir& dir, int n) {
  auto state = dir.file("state-list-" + std::to_string(n));
  fill_state(dir, state, n);
  list_figures f;
  auto t = clock_type::now();
  daemon d{dir, state, "list-" + std::to_string(n)};
  f.start = std::chrono::duration<double>(clock_type::now() - t).count();
  api_client api{d.url, ""};
  f.first = median_ms(api, "/v1/runs?limit=100", 21);
  // The cursor of the page in the middle: walked to once (the first page's
  // when there are too few runs for a middle).
  std::string after =
    json_field(api.request("GET", "/v1/runs?limit=100").body, "next");
  for (int page = 1; page < n / 200 && !after.empty(); ++page)
    after = json_field(
      api.request("GET", "/v1/runs?limit=100&after=" + after).body, "next");
  auto at =
    "/v1/runs?limit=100" + (after.empty() ? std::string{} : "&after=" + after);
  f.middle = median_ms(api, at, 21);
  rapidjson::Document page;
  page.Parse(api.request("GET", at).body);
  f.one = median_ms(
    api, std::string{"/v1/runs/"} + page["runs"][0]["id"].GetString(), 21);
  return f;
}

void list_runs(const temp_dir& dir, int n) {
  auto small = listing(dir, 100);
  auto big = listing(dir, n);
  std::printf(
    "GET /v1/runs, 100 a page (median of 21): %d runs against 100 runs: first "
    "page "
    "%.2f ms / %.2f ms (%.2fx), a middle page %.2f ms / %.2f ms (%.2fx), a run "
    "%.2f ms / %.2f ms; start to listening %.2f s / %.2f s\n",
    n, big.first, small.first, big.first / small.first, big.middle,
    small.middle, big.middle / small.middle, big.one, small.one, big.start,
    small.start);
}

} // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  CLI::App app{"daemon_soak: memory and open files over many finished runs"};
  int runs = 1000, pairs = 2000, clients = 4, every = 50, baseline = 100,
      list = 100000;
  app.add_option("--runs", runs, "runs in all");
  app.add_option("--pairs", pairs, "pairs per run");
  app.add_option("--clients", clients, "clients at once");
  app.add_option("--sample-every", every,
                 "a sample every this many finished runs");
  app.add_option("--baseline-run", baseline,
                 "the sample the last one is held to");
  app.add_option("--list-runs", list,
                 "finished runs in the state for GET /v1/runs (0: skip)");
  CLI11_PARSE(app, argc, argv);
  temp_dir dir;
  std::printf("load average: %s", read_file("/proc/loadavg").c_str());
  int rc = soak(dir, runs, pairs, clients, every, baseline);
  if (list > 0)
    list_runs(dir, list);
  std::printf("load average: %s", read_file("/proc/loadavg").c_str());
  return rc;
}
