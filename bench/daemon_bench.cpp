// daemon_bench: pairs per second through `invjudge serve` (create a run,
// upload, close, wait for the end) against `invjudge run` on the same pairs
// in the same run, for the zero-latency rule judge and for a fake HTTP judge
// with C = 32 calls in flight and L = 20 ms (ceiling C/L); the same with
// eight runs at once; the time to finish a run after kill -9 at half way and
// a restart; the daemon's peak memory (VmHWM) with eight runs; the time a
// restart takes until it listens with a finished run of F pairs in its
// state, and with an open run holding a rejected line of R MiB (issue 18:
// <= 1 s for F = 1,000,000, and independent of R).
//
//   build/bench/daemon_bench [--pairs N] [--http-pairs M] [--resume-pairs K]
//                            [--finished-pairs F] [--rejected-mib R] [--rounds
//                            R]
// Each throughput figure is the best of R rounds (default 3).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <rapidjson/document.h>

#include "bench/json_field.hpp"
#include "bench/served_daemon.hpp"
#include "messages/error.hpp"
#include "tests/http/fake_apis.hpp"
#include "tests/tools/cli_support.hpp"
#include "tools/api_client.hpp"

using namespace ij;
using namespace ij::test;
using clock_type = std::chrono::steady_clock;

using ij::bench::json_field;

namespace {

double since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

using daemon = ij::bench::served_daemon;

std::string create(api_client& api, const std::string& config) {
  auto r = api.request("POST", "/v1/runs", "{\"config\":" + config + "}",
                       "application/json");
  if (r.status != 201)
    throw std::runtime_error("create failed: " + r.body
                             + ij::context_of(r.error));
  return json_field(r.body, "id");
}

void upload_and_close(api_client& api, const std::string& id,
                      const std::string& pairs) {
  // 4 MiB pieces, cut at line ends, as invjudge submit sends them.
  std::size_t start = 0;
  while (start < pairs.size()) {
    auto end = std::min(pairs.size(), start + (4u << 20));
    end = pairs.rfind('\n', end - 1) + 1;
    api.request("POST", "/v1/runs/" + id + "/pairs",
                pairs.substr(start, end - start), "application/x-ndjson");
    start = end;
  }
  api.request("POST", "/v1/runs/" + id + "/close");
}

std::string wait_done(api_client& api, const std::string& id) {
  for (;;) {
    auto r = api.request("GET", "/v1/runs/" + id);
    if (r.status == 0)
      throw std::runtime_error("the daemon does not answer: "
                               + ij::context_of(r.error));
    auto state = json_field(r.body, "state");
    if (state == "done" || state == "failed" || state == "cancelled")
      return r.body;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// Pairs per second through the driver.
double driver_rate(const temp_dir& dir, const std::string& pairs_file,
                   const std::string& config_file, std::size_t n) {
  auto t = clock_type::now();
  auto r = invjudge(
    dir, "run --pairs " + pairs_file + " --config " + config_file
           + " --audit drv-" + std::to_string(n) + "-"
           + std::to_string(clock_type::now().time_since_epoch().count())
           + ".jsonl --out /dev/null --no-progress");
  if (r.exit_code != 0)
    throw std::runtime_error("driver failed: " + r.err);
  return n / since(t);
}

// Pairs per second through `runs` drivers at once, each on its share of the
// pairs: what splitting the pairs into runs costs without the daemon.
double drivers_rate(const temp_dir& dir, const std::string& pairs_text,
                    const std::string& config_file, std::size_t n, int runs) {
  std::vector<std::string> shares(runs);
  std::istringstream in(pairs_text);
  std::string line;
  for (std::size_t i = 0; std::getline(in, line); ++i)
    shares[i % runs] += line + "\n";
  for (int k = 0; k < runs; ++k)
    write_file(dir.file("share-" + std::to_string(k) + ".jsonl"), shares[k]);
  auto stamp = std::to_string(clock_type::now().time_since_epoch().count());
  auto t = clock_type::now();
  std::vector<std::thread> drivers;
  std::vector<int> codes(runs, 0);
  for (int k = 0; k < runs; ++k)
    drivers.emplace_back([&, k] {
      codes[k] =
        invjudge(dir, "run --pairs share-" + std::to_string(k)
                        + ".jsonl --config " + config_file + " --audit drv8-"
                        + stamp + "-" + std::to_string(k)
                        + ".jsonl --out /dev/null --no-progress")
          .exit_code;
    });
  for (auto& d : drivers)
    d.join();
  for (auto c : codes)
    if (c != 0)
      throw std::runtime_error("a driver failed");
  return n / since(t);
}

// Pairs per second through the daemon with `runs` runs at once (n pairs in
// all); also the daemon's peak memory.
double daemon_rate(const temp_dir& dir, const std::string& pairs_text,
                   const std::string& config, std::size_t n, int runs,
                   long& peak_kib, const std::string& tag) {
  daemon d{dir, dir.file("state-" + tag), tag};
  // Split the lines into `runs` shares.
  std::vector<std::string> shares(runs);
  std::istringstream in(pairs_text);
  std::string line;
  for (std::size_t i = 0; std::getline(in, line); ++i)
    shares[i % runs] += line + "\n";
  auto t = clock_type::now();
  std::vector<std::thread> clients;
  for (int k = 0; k < runs; ++k)
    clients.emplace_back([&, k] {
      api_client api{d.url, ""};
      auto id = create(api, config);
      upload_and_close(api, id, shares[k]);
      wait_done(api, id);
    });
  for (auto& c : clients)
    c.join();
  auto rate = n / since(t);
  peak_kib = d.peak_kib();
  d.proc->signal(SIGTERM);
  d.proc->wait();
  return rate;
}

void compare(const char* what, const temp_dir& dir,
             const std::string& pairs_text, const std::string& config,
             std::size_t n, double ceiling, int rounds) {
  write_file(dir.file("bench.json"), config);
  write_file(dir.file("bench.jsonl"), pairs_text);
  // Each figure is the best of `rounds`, the rounds interleaved so that
  // the driver and the daemon meet the same machine (one sample of a
  // half-second run moves by a third with the machine's other work).
  double drv = 0, drv8 = 0, one = 0, eight = 0;
  long peak1 = 0, peak8 = 0;
  for (int r = 0; r < rounds; ++r) {
    auto tag = std::string{what} + "-r" + std::to_string(r);
    drv = std::max(drv, driver_rate(dir, dir.file("bench.jsonl"),
                                    dir.file("bench.json"), n));
    // Eight drivers are eight judges of their own: a baseline for eight
    // runs only where the judge costs nothing (with a C-limited judge the
    // daemon's runs share one judge's C, as they should, and C/L is the
    // ceiling).
    if (ceiling <= 0)
      drv8 = std::max(
        drv8, drivers_rate(dir, pairs_text, dir.file("bench.json"), n, 8));
    long p1 = 0, p8 = 0;
    one =
      std::max(one, daemon_rate(dir, pairs_text, config, n, 1, p1, tag + "-1"));
    eight = std::max(
      eight, daemon_rate(dir, pairs_text, config, n, 8, p8, tag + "-8"));
    peak1 = std::max(peak1, p1);
    peak8 = std::max(peak8, p8);
  }
  std::printf("%-22s %7zu pairs  driver %9.0f/s  daemon 1 run %9.0f/s (%.2fx)  "
              "8 runs %9.0f/s (%.2fx",
              what, n, drv, one, one / drv, eight, eight / drv);
  if (drv8 > 0)
    std::printf("; 8 drivers at once %.0f/s, daemon %.2fx them", drv8,
                eight / drv8);
  std::printf(")");
  if (ceiling > 0)
    std::printf("  C/L %.0f/s: driver %.0f%%, daemon %.0f%%, 8 runs %.0f%%",
                ceiling, 100 * drv / ceiling, 100 * one / ceiling,
                100 * eight / ceiling);
  std::printf(
    "\n%-22s peak memory (VmHWM) daemon: 1 run %ld KiB, 8 runs %ld KiB\n", "",
    peak1, peak8);
}

// kill -9 at half way, restart, time to done.
void resume_time(const temp_dir& dir, const std::string& pairs_text,
                 const std::string& config, std::size_t n) {
  auto state = dir.file("state-resume");
  std::string id;
  double first_half = 0;
  {
    daemon d{dir, state, "resume-1"};
    api_client api{d.url, ""};
    auto t = clock_type::now();
    id = create(api, config);
    upload_and_close(api, id, pairs_text);
    for (;;) {
      auto r = api.request("GET", "/v1/runs/" + id);
      rapidjson::Document run;
      run.Parse(r.body.c_str());
      if (run.IsObject() && run.HasMember("counts")
          && run["counts"]["verdicts"].GetUint64() >= n / 2)
        break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    first_half = since(t);
    d.proc->signal(SIGKILL);
    d.proc->wait();
  }
  auto t = clock_type::now();
  daemon d{dir, state, "resume-2"};
  auto started = since(t);
  api_client api{d.url, ""};
  auto end = wait_done(api, id);
  auto total = since(t);
  std::printf(
    "resume after kill -9    %7zu pairs  first half %.2f s; restart to "
    "listening %.2f s, restart to done %.2f s (%.2fx the first half)  state "
    "%s\n",
    n, first_half, started, total, total / first_half,
    json_field(end, "state").c_str());
  d.proc->signal(SIGTERM);
  d.proc->wait();
}

// Start, SIGTERM, start again: the second start's time until it listens.
double restart_to_listening(const temp_dir& dir, const std::string& state,
                            const std::string& tag) {
  auto t = clock_type::now();
  daemon d{dir, state, tag};
  auto took = since(t);
  d.proc->signal(SIGTERM);
  d.proc->wait();
  return took;
}

// The time to listening after a restart: with a finished run of n pairs in
// the state; with an open run holding a rejected line of `mib` MiB.
void restart_time(const temp_dir& dir, std::size_t n, std::size_t mib) {
  auto state = dir.file("state-finished");
  {
    daemon d{dir, state, "finished-1"};
    api_client api{d.url, ""};
    auto id = create(api, "{}");
    upload_and_close(api, id,
                     invjudge(dir, "gen-pairs " + std::to_string(n)).out);
    wait_done(api, id);
    d.proc->signal(SIGTERM);
    d.proc->wait();
  }
  auto finished = restart_to_listening(dir, state, "finished-2");
  auto open_state = dir.file("state-rejected");
  {
    daemon d{dir, open_state, "rejected-1"};
    api_client api{d.url, ""};
    auto id = create(api, "{}");
    api.request("POST", "/v1/runs/" + id + "/pairs",
                "{\"id\":\"big\",\"a\":\"" + std::string(mib << 20, '7')
                  + "\",\"b\":\"7\"}\n",
                "application/x-ndjson");
    d.proc->signal(SIGTERM);
    d.proc->wait();
  }
  auto rejected = restart_to_listening(dir, open_state, "rejected-2");
  std::printf(
    "restart to listening   finished run of %zu pairs in the state: %.2f s "
    "(target <= 1 s); open run with a rejected line of %zu MiB: %.2f s\n",
    n, finished, mib, rejected);
}

} // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF,
               0); // figures appear as they are measured
  CLI::App app{"daemon_bench: the daemon against the driver"};
  std::size_t pairs = 20000, http_pairs = 3000, resume_pairs = 100000;
  std::size_t finished_pairs = 1000000, rejected_mib = 200;
  int rounds = 3;
  app.add_option("--pairs", pairs, "pairs for the rule judge");
  app.add_option("--http-pairs", http_pairs,
                 "pairs for the fake HTTP judge (0: skip)");
  app.add_option("--resume-pairs", resume_pairs,
                 "pairs of the resumed run (0: skip)");
  app.add_option("--finished-pairs", finished_pairs,
                 "pairs of the finished run in the restarted state (0: skip)");
  app.add_option("--rejected-mib", rejected_mib,
                 "MiB of the rejected line in the restarted state");
  app.add_option("--rounds", rounds,
                 "each throughput figure is the best of this many");
  CLI11_PARSE(app, argc, argv);
  temp_dir dir;
  auto gen = [&](std::size_t n) {
    return invjudge(dir, "gen-pairs " + std::to_string(n)).out;
  };
  std::printf("load average: %s", read_file("/proc/loadavg").c_str());
  compare("rules:math (L = 0)", dir, gen(pairs), "{}", pairs, 0, rounds);

  fake_api_options o;
  o.kind = api_kind::openai;
  o.reply_text =
    "DECISION: EQUIVALENT\nREASON: same\nNUMERIC_A: 1\nNUMERIC_B: 1";
  o.latency = std::chrono::milliseconds(20);
  o.threads = 8;
  o.record_requests = false;
  fake_api fake(o);
  auto http_config =
    R"({"judges":[{"name":"fake","type":"openai","model":"judge-model","base_url":")"
    + fake.base_url()
    + R"(","temperature":0,"timeout_ms":60000,"max_in_flight":32,"max_attempts":1}],"votes":1})";
  if (http_pairs > 0)
    compare("HTTP C=32 L=20ms", dir, gen(http_pairs), http_config, http_pairs,
            32 / 0.020, rounds);
  if (resume_pairs > 0)
    resume_time(dir, gen(resume_pairs), "{}", resume_pairs);
  if (finished_pairs > 0)
    restart_time(dir, finished_pairs, rejected_mib);
  std::printf("load average: %s", read_file("/proc/loadavg").c_str());
  return 0;
}
