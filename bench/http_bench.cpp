// http_bench: judge calls per second through the OpenAI-compatible adapter
// against a fake server that answers every request after a fixed latency L
// and handles any number concurrently. With an in-flight cap C the ceiling
// is C/L calls per second; the figure of merit is the fraction of it
// reached, plus the number of connections opened (keep-alive: at most C).
//
// Modes: the adapter directly (default), over TLS (--tls), and, when a
// driver binary is given (--driver build/tools/invjudge), the same fake
// server behind the full driver with its audit trail on. With --rtt-ms
// (issue 31), the server is also reached through a delay proxy
// (bench/delay_proxy) of each round trip: calls per second against C/L,
// C/(L + RTT/2) and C/(L + RTT).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "adapters/http_backends.hpp"
#include "adapters/http_judge.hpp"
#include "bench/delay_proxy.hpp"
#include "tests/http/fake_apis.hpp"
#include "tests/http/test_tls.hpp"

using namespace ij;
using namespace ij::test;
using clock_type = std::chrono::steady_clock;

namespace {

double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec
         + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct run_result {
  double seconds = 0;
  double cpu_seconds = 0;
  std::size_t ok = 0;
  std::size_t failed = 0;
  std::uint64_t client_connections = 0;
  std::uint64_t server_connections = 0;
  std::uint32_t server_peak = 0;
  /// Mean time the server actually held a request (its L, as the loaded
  /// machine's timers delivered it).
  double server_hold_ms = 0;
};

/// Issues `calls` calls at once (the adapter queues them behind its cap)
/// and waits for every reply.
run_result run_adapter(fake_api& fake, const judge_spec& spec,
                       std::size_t calls) {
  auto made = make_http_adapter(spec);
  if (!made) {
    std::cerr << "http_bench: " << render_error(made.error()) << "\n";
    std::exit(1);
  }
  auto adapter = std::move(*made);
  auto conns_before = fake.server().connections();
  auto reqs_before = fake.server().requests();
  call_options opts;
  opts.model = spec.model;
  opts.max_tokens = 64;
  opts.timeout = std::chrono::seconds(60);
  const std::string prompt(1500, 'p'); // about the canonical prompt's size

  std::mutex mtx;
  std::condition_variable cv;
  std::size_t done = 0;
  run_result r;
  auto start = clock_type::now();
  auto cpu_start = process_cpu_seconds();
  for (std::size_t i = 0; i < calls; ++i)
    adapter->call(prompt, opts, [&](adapter_reply rep) {
      std::lock_guard<std::mutex> guard(mtx);
      (rep.ok ? r.ok : r.failed)++;
      if (++done == calls)
        cv.notify_one();
    });
  {
    std::unique_lock<std::mutex> lock(mtx);
    cv.wait(lock, [&] { return done == calls; });
  }
  r.seconds = std::chrono::duration<double>(clock_type::now() - start).count();
  r.cpu_seconds = process_cpu_seconds() - cpu_start;
  r.client_connections =
    std::dynamic_pointer_cast<http_judge>(adapter)->connections_opened();
  r.server_connections = fake.server().connections() - conns_before;
  r.server_peak = fake.server().max_concurrent();
  auto ex = fake.server().exchanges();
  double hold = 0;
  for (auto i = reqs_before; i < ex.size(); ++i)
    hold +=
      std::chrono::duration<double, std::milli>(ex[i].replied - ex[i].received)
        .count();
  r.server_hold_ms = hold / static_cast<double>(ex.size() - reqs_before);
  return r;
}

// The server behind a delay proxy of each round trip: what keep-alive and
// the in-flight cap give a far endpoint, and with requests sent ahead
// (queue_max, issue 31).
void round_trips(fake_api& fake, const judge_spec& spec, std::size_t calls,
                 const std::vector<int>& rtts, int latency_ms,
                 std::uint32_t queue_max) {
  auto C = static_cast<double>(spec.max_in_flight);
  auto L = latency_ms / 1000.0;
  auto port = static_cast<std::uint16_t>(fake.server().port());
  for (auto rtt : rtts)
    for (auto ahead : {0u, queue_max}) {
      auto far = spec;
      far.queue_max = ahead;
      std::unique_ptr<bench::delay_proxy> proxy;
      if (rtt > 0) {
        proxy = std::make_unique<bench::delay_proxy>(
          "127.0.0.1", port, std::chrono::milliseconds(rtt / 2));
        far.base_url = "http://" + proxy->address() + "/v1";
      }
      run_adapter(fake, far,
                  std::min<std::size_t>(calls, 100)); // connections made
      auto r = run_adapter(fake, far, calls);
      auto rate = r.ok / r.seconds;
      auto R = rtt / 1000.0;
      std::printf("RTT %3d ms, queue_max %2u: %7.1f calls/s = %5.1f%% of C/L "
                  "(%.0f), %5.1f%% of "
                  "C/(L+RTT/2) (%.0f), %5.1f%% of C/(L+RTT) (%.0f); "
                  "connections %llu, server "
                  "peak %u\n",
                  rtt, ahead, rate, 100.0 * rate / (C / L), C / L,
                  100.0 * rate / (C / (L + R / 2)), C / (L + R / 2),
                  100.0 * rate / (C / (L + R)), C / (L + R),
                  static_cast<unsigned long long>(r.client_connections),
                  r.server_peak);
    }
}

/// Writes `pairs` pairs in the driver's JSONL input shape.
std::string write_pairs(std::size_t pairs, const std::string& tag) {
  auto path =
    (std::filesystem::temp_directory_path()
     / ("ij-http-bench-" + tag + "-" + std::to_string(::getpid()) + ".jsonl"))
      .string();
  std::ofstream out(path);
  for (std::size_t i = 0; i < pairs; ++i)
    out << R"({"id":"p)" << i << R"(","item":"i)" << i / 4
        << R"(","a":"The answer is 12.","b":"\\boxed{12}"})"
        << "\n";
  return path;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"HTTP judge throughput against a fixed-latency fake server"};
  std::size_t calls = 1000;
  std::uint32_t cap = 32;
  int latency_ms = 20;
  int runs = 3;
  bool tls = false;
  std::string driver;
  std::vector<int> rtts;
  std::uint32_t queue_max = 64;
  app.add_option("--calls", calls, "judge calls per run");
  app.add_option("--concurrency", cap, "the adapter's in-flight cap C");
  app.add_option("--latency-ms", latency_ms, "the server's latency L");
  app.add_option("--runs", runs, "measured runs (the median is reported)");
  app.add_flag("--tls", tls, "serve HTTPS with a test CA made at start-up");
  app.add_option("--driver", driver,
                 "also time this invjudge binary against the fake server");
  app
    .add_option("--rtt-ms", rtts,
                "also through a delay proxy of these round trips (0: direct)")
    ->delimiter(',');
  app.add_option(
    "--queue-max", queue_max,
    "with --rtt-ms, also with requests sent ahead up to this many");
  CLI11_PARSE(app, argc, argv);

  fake_api_options o;
  o.kind = api_kind::openai;
  o.latency = std::chrono::milliseconds(latency_ms);
  o.threads = 1;
  o.reply_text =
    "DECISION: EQUIVALENT\nREASON: both give 12.\nNUMERIC_A: 12\nNUMERIC_B: 12";
  o.record_requests = false;
  std::unique_ptr<temp_file> ca;
  if (tls) {
    auto pki = make_test_pki({"localhost"}, {"127.0.0.1"});
    o.tls = server_tls_context(pki);
    ca = std::make_unique<temp_file>(pki.ca_cert_pem);
  }
  fake_api fake(o);

  judge_spec spec;
  spec.type = "openai";
  spec.model = "bench-model";
  spec.base_url = fake.base_url() + "/v1";
  spec.max_in_flight = cap;
  spec.api_key_env = "IJ_HTTP_BENCH_NO_KEY";
  if (ca)
    spec.ca_file = ca->path();

  const double ceiling = cap * 1000.0 / latency_ms;
  std::printf("http_bench: %zu calls, cap C=%u, server latency L=%d ms, %s\n",
              calls, cap, latency_ms, tls ? "HTTPS (test CA)" : "plain HTTP");
  std::printf("ceiling C/L = %.0f calls/s\n", ceiling);

  // Baseline in the same run: one call at a time (cap 1) is bounded by 1/L;
  // what it loses to 1/L is the machine's per-call overhead (scheduling
  // under load included), which C parallel calls can at best amortise C-fold.
  double baseline_rate = 0;
  {
    auto one = spec;
    one.max_in_flight = 1;
    auto base_calls = std::max<std::size_t>(calls / 20, 20);
    auto r = run_adapter(fake, one, base_calls);
    baseline_rate = base_calls / r.seconds;
    std::printf(
      "baseline cap 1: %zu calls in %.3f s = %.1f calls/s (1/L = %.1f), "
      "connections %llu\n",
      base_calls, r.seconds, base_calls / r.seconds, 1000.0 / latency_ms,
      static_cast<unsigned long long>(r.client_connections));
  }

  run_adapter(fake, spec, std::min<std::size_t>(calls, 200)); // warm-up
  std::vector<double> rates;
  std::vector<double> holds;
  for (int i = 0; i < runs; ++i) {
    auto r = run_adapter(fake, spec, calls);
    double rate = r.ok / r.seconds;
    rates.push_back(rate);
    holds.push_back(r.server_hold_ms);
    std::printf(
      "run %d: %zu ok, %zu failed in %.3f s = %.0f calls/s (%.1f%% of C/L); "
      "connections opened: client %llu, server %llu (<= C=%u); server peak "
      "concurrency %u; CPU (adapter + fake server) %.0f us/call; server held "
      "each request "
      "%.2f ms\n",
      i + 1, r.ok, r.failed, r.seconds, rate, 100.0 * rate / ceiling,
      static_cast<unsigned long long>(r.client_connections),
      static_cast<unsigned long long>(r.server_connections), cap, r.server_peak,
      1e6 * r.cpu_seconds / calls, r.server_hold_ms);
    if (r.failed != 0 || r.client_connections > cap) {
      std::printf("FAIL: failures or more connections than the cap\n");
      return 1;
    }
  }
  auto by_rate = rates;
  std::sort(by_rate.begin(), by_rate.end());
  double median = by_rate[by_rate.size() / 2];
  auto median_run = static_cast<std::size_t>(
    std::find(rates.begin(), rates.end(), median) - rates.begin());
  double ceiling_eff = cap * 1000.0 / holds[median_run];
  std::printf(
    "median: %.0f calls/s = %.1f%% of C/L (target >= 90%%); %.1f%% of C x the "
    "cap-1 baseline (%.0f calls/s)\n",
    median, 100.0 * median / ceiling, 100.0 * median / (cap * baseline_rate),
    cap * baseline_rate);
  std::printf("against the latency the server really held requests in that run "
              "(%.2f ms): "
              "C/L_eff = %.0f calls/s, reached %.1f%%\n",
              holds[median_run], ceiling_eff, 100.0 * median / ceiling_eff);

  if (!rtts.empty())
    round_trips(fake, spec, calls, rtts, latency_ms, queue_max);

  if (!driver.empty()) {
    // The same fake server behind the whole driver: pair reader, vote
    // coordinator, judge actor, this adapter, verdicts and the audit trail
    // (fsync before each verdict, the default).
    auto pairs = write_pairs(calls, "pairs");
    auto config = pairs + ".config.json";
    auto audit = pairs + ".audit.jsonl";
    {
      std::ofstream c(config);
      c << R"({"judges":[{"type":"openai","model":")" << spec.model
        << R"(","base_url":")" << spec.base_url
        << R"(","temperature":0,"timeout_ms":60000,"max_in_flight":)" << cap
        << R"(}],"votes":1,"audit":{"flush":"fsync-verdicts"}})";
    }
    auto command = [&](const std::string& pairs_file) {
      return "'" + driver + "' run --no-progress --pairs '" + pairs_file
             + "' --config '" + config + "' --audit '" + audit
             + "' --out /dev/null 2> /dev/null";
    };
    auto cmd = command(pairs);
    // Fixed cost of a run (process start, configuration, actor system,
    // audit manifest): the same command with a single pair.
    double startup = 0;
    {
      auto one = write_pairs(1, "one-pair");
      std::vector<double> t;
      for (int i = 0; i < 3; ++i) {
        auto start = clock_type::now();
        if (std::system(command(one).c_str()) != 0)
          std::printf("driver: the single-pair run failed\n");
        t.push_back(
          std::chrono::duration<double>(clock_type::now() - start).count());
        std::filesystem::remove(audit);
      }
      std::sort(t.begin(), t.end());
      startup = t[1];
      std::filesystem::remove(one);
      std::printf("driver fixed cost (1 pair, median of 3): %.3f s\n", startup);
    }
    for (int i = 0; i < runs; ++i) {
      auto conns_before = fake.server().connections();
      auto reqs_before = fake.server().requests();
      auto start = clock_type::now();
      int rc = std::system(cmd.c_str());
      double secs =
        std::chrono::duration<double>(clock_type::now() - start).count();
      auto reqs = fake.server().requests() - reqs_before;
      std::printf(
        "driver run %d (audit on, process start included): exit %d, %llu judge "
        "requests in %.3f s = %.0f calls/s (%.1f%% of C/L); without the fixed "
        "cost "
        "%.0f calls/s (%.1f%%); server connections %llu\n",
        i + 1, rc, static_cast<unsigned long long>(reqs), secs, reqs / secs,
        100.0 * reqs / secs / ceiling, reqs / (secs - startup),
        100.0 * reqs / (secs - startup) / ceiling,
        static_cast<unsigned long long>(fake.server().connections()
                                        - conns_before));
      std::filesystem::remove(audit);
    }
    std::filesystem::remove(pairs);
    std::filesystem::remove(config);
  }
  return 0;
}
