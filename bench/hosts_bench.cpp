// hosts_bench: one coordinator voting over k = 1, 2, 3 judge hosts (each an
// actor system of its own in this process, published on 127.0.0.1 through
// CAF's middleman), each host judging through its own fake OpenAI-compatible
// backend with latency L and in-flight cap C. The ceiling is k*C/L votes per
// second; the figure of merit is the fraction reached. The latency axis
// (issue 31): each host reached directly and through a delay proxy
// (bench/delay_proxy) of round trip 10, 50, 200 ms, against the direct rate
// (targets: 50 ms >= 0.95x, 200 ms >= 0.9x, direct >= 97% of C/L, three
// hosts at 50 ms >= 95% of k*C/L). Rates are steady: the votes after the
// first 2*k*C (the pipeline filling once) over the time they took.
// Also: CPU microseconds per vote across the middleman against a local
// worker (stub judge, same run; the host's side is in this process too, so
// both ends are counted), and, with --driver, the time from kill -9 of an
// `invjudge host` process to its worker leaving the directory (the moment
// the coordinator moves its votes).
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <caf/io/middleman.hpp>
#include <caf/scoped_actor.hpp>

#include "actors/local_workers.hpp"
#include "bench/delay_proxy.hpp"
#include "tests/hosts/in_process_hosts.hpp"
#include "tests/http/fake_apis.hpp"

using namespace ij;
using clock_type = std::chrono::steady_clock;

namespace {

using test::coordinator_system;
using test::host_system;
using test::judges_for;

/// k hosts, each with its own fake backend (latency L, cap C), reached
/// through a delay proxy of round trip `rtt_ms` (0: directly). Returns the
/// steady votes per second: the votes after the first 2·k·C (the pipeline
/// filling, once per run) over the time they took.
struct hosts_run {
  double rate = 0;
  std::uint32_t peak_queued = 0;
};

hosts_run throughput(std::size_t k, std::uint32_t cap, int latency_ms,
                     int rtt_ms, double seconds) {
  std::vector<std::unique_ptr<test::fake_api>> backends;
  std::vector<std::unique_ptr<host_system>> hosts;
  std::vector<std::unique_ptr<bench::delay_proxy>> proxies;
  coordinator_system coordinator;
  for (std::size_t i = 0; i < k; ++i) {
    test::fake_api_options o;
    o.model = "judge-model";
    o.reply_text = "DECISION: EQUIVALENT\nREASON: same\nNUMERIC_A: NULL\n"
                   "NUMERIC_B: NULL";
    o.latency = std::chrono::milliseconds(latency_ms);
    o.threads = cap + 2;
    o.record_requests = false;
    backends.push_back(std::make_unique<test::fake_api>(o));
    hosts.push_back(std::make_unique<host_system>(
      judges_for("openai:judge-model@" + backends.back()->base_url(), cap)));
    auto address = hosts.back()->name;
    if (rtt_ms > 0) {
      auto port = static_cast<std::uint16_t>(
        std::stoi(address.substr(address.rfind(':') + 1)));
      proxies.push_back(std::make_unique<bench::delay_proxy>(
        "127.0.0.1", port, std::chrono::milliseconds(rtt_ms / 2)));
      address = proxies.back()->address();
    }
    coordinator.connect(address);
  }
  auto ceiling = double(k) * cap / (latency_ms / 1000.0);
  auto warm = 2 * k * cap;
  auto votes = static_cast<std::size_t>(ceiling * seconds) + warm;
  auto t = test::vote(coordinator.sys, coordinator.workers(), votes, warm);
  hosts_run out;
  out.rate = (votes - warm) / t.steady_seconds;
  for (auto& h : hosts)
    for (auto& s : h->status())
      out.peak_queued = std::max(out.peak_queued, s.peak_queued);
  return out;
}

// The latency axis: for each k, the steady rate at each round trip, against
// k·C/L and against the same k reached directly.
void latency_axis(const std::vector<std::size_t>& ks,
                  const std::vector<int>& rtts, std::uint32_t cap,
                  int latency_ms, double seconds) {
  for (auto k : ks) {
    double direct = 0;
    auto ceiling = double(k) * cap / (latency_ms / 1000.0);
    for (auto rtt : rtts) {
      auto r = throughput(k, cap, latency_ms, rtt, seconds);
      if (rtt == 0)
        direct = r.rate;
      std::printf(
        "k=%zu hosts  C=%u L=%d ms  RTT %3d ms: %8.1f votes/s  "
        "k*C/L %7.1f (%5.1f%%)  vs direct %s  C/(L+RTT) %7.1f  "
        "peak queued %u\n",
        k, cap, latency_ms, rtt, r.rate, ceiling, 100.0 * r.rate / ceiling,
        direct > 0
          ? (std::to_string(r.rate / direct).substr(0, 5) + "x").c_str()
          : "  -  ",
        double(k) * cap / ((latency_ms + rtt) / 1000.0), r.peak_queued);
    }
  }
}

void cpu_per_vote(std::size_t votes) {
  // Local: a stub worker in the coordinator's own system.
  double local_us = 0, remote_us = 0;
  {
    coordinator_system c;
    start_local_workers(c.sys, c.directory, judges_for("stub:numeric", 64));
    auto t = test::vote(c.sys, c.workers(), votes);
    local_us = t.cpu / votes * 1e6;
  }
  {
    host_system h{judges_for("stub:numeric", 64)};
    coordinator_system c;
    c.connect(h.name);
    auto t = test::vote(c.sys, c.workers(), votes);
    remote_us = t.cpu / votes * 1e6;
  }
  std::printf("CPU per vote (stub judge, %zu votes): local worker %.1f us, "
              "across the middleman %.1f us (both ends), ratio %.1fx\n",
              votes, local_us, remote_us, remote_us / local_us);
}

/// kill -9 of an `invjudge host` process: how long until its worker leaves
/// the coordinator's directory (when a vote coordinator moves its votes).
void kill_to_redispatch(const std::string& driver) {
  int err[2];
  if (::pipe(err) != 0)
    return;
  auto pid = ::fork();
  if (pid == 0) {
    ::dup2(err[1], 2);
    ::close(err[0]);
    ::execl(driver.c_str(), driver.c_str(), "host", "--listen", "127.0.0.1:0",
            "--judge", "stub:numeric", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(err[1]);
  std::string text;
  char buf[256];
  while (text.find("listening on ") == std::string::npos) {
    auto n = ::read(err[0], buf, sizeof buf);
    if (n <= 0)
      return;
    text.append(buf, static_cast<std::size_t>(n));
  }
  auto at = text.find("listening on ") + 13;
  auto name = text.substr(at, text.find('\n', at) - at);
  coordinator_system c;
  c.connect(name);
  caf::scoped_actor self{c.sys};
  self->send(c.directory, subscribe_atom::value,
             caf::actor_cast<directory_listener_actor>(self));
  self->receive([](std::vector<worker_entry>&) {});
  auto t0 = clock_type::now();
  ::kill(pid, SIGKILL);
  bool left = false;
  self->receive_while([&] { return !left; })(
    [&](left_atom, std::string&, std::string&) { left = true; },
    [](joined_atom, worker_entry&) {}, [](host_event&) {},
    caf::after(std::chrono::seconds(60)) >> [&] { left = true; });
  auto ms =
    std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
  ::waitpid(pid, nullptr, 0);
  ::close(err[0]);
  std::printf(
    "kill -9 of a host to its worker leaving (votes moved): %.1f ms\n", ms);
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{
    "hosts_bench: votes/s over judge hosts vs k*C/L, across round trips"};
  std::uint32_t cap = 16;
  int latency = 100;
  double seconds = 3;
  std::size_t cpu_votes = 20000;
  std::string driver;
  std::vector<int> rtts{0, 10, 50, 200};
  std::vector<std::size_t> ks{1, 2, 3};
  app.add_option("--cap", cap, "In-flight cap C per host");
  app.add_option("--latency-ms", latency, "Backend latency L");
  app.add_option("--seconds", seconds, "Run length at the ceiling");
  app
    .add_option("--rtt-ms", rtts,
                "Round trips through the delay proxy (0: direct)")
    ->delimiter(',');
  app.add_option("--hosts", ks, "Numbers of hosts k")->delimiter(',');
  app.add_option("--cpu-votes", cpu_votes,
                 "Votes for the CPU comparison (0: skip)");
  app.add_option("--driver", driver,
                 "invjudge binary, for the kill -9 measurement");
  CLI11_PARSE(app, argc, argv);
  std::signal(SIGPIPE, SIG_IGN);
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) > 0)
    std::printf("load average %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  latency_axis(ks, rtts, cap, latency, seconds);
  if (cpu_votes > 0)
    cpu_per_vote(cpu_votes);
  if (!driver.empty())
    kill_to_redispatch(driver);
  if (getloadavg(load, 3) > 0)
    std::printf("load average at the end %.2f %.2f %.2f\n", load[0], load[1],
                load[2]);
  return 0;
}
