// hosts_bench: one coordinator voting over k = 1, 2, 3 judge hosts (each an
// actor system of its own in this process, published on 127.0.0.1 through
// CAF's middleman), each host judging through its own fake OpenAI-compatible
// backend with latency L and in-flight cap C. The ceiling is k*C/L votes per
// second; the figure of merit is the fraction reached (target >= 90%).
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

#include <CLI/CLI.hpp>
#include <caf/io/middleman.hpp>
#include <caf/scoped_actor.hpp>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "actors/host_connector.hpp"
#include "actors/judge_directory.hpp"
#include "actors/judge_host.hpp"
#include "actors/local_workers.hpp"
#include "actors/remoting.hpp"
#include "actors/system_config.hpp"
#include "actors/vote_coordinator.hpp"
#include "adapters/adapter_factory.hpp"
#include "messages/registration.hpp"
#include "tests/http/fake_apis.hpp"

using namespace ij;
using clock_type = std::chrono::steady_clock;

namespace {

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec
         + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

struct remote_config : caf::actor_system_config {
  remote_config() {
    configure_actor_system(*this);
    configure_remoting(*this, host_connection{});
  }
};

std::vector<judge_binding> judges_for(const std::string& name,
                                      std::uint32_t cap) {
  auto cfg = default_config();
  auto spec = parse_judge_name(name);
  spec->max_in_flight = cap;
  cfg.judges = {*spec};
  auto b = bind_judges(cfg);
  if (!b) {
    std::fprintf(stderr, "hosts_bench: %s\n", render_error(b.error()).c_str());
    std::exit(1);
  }
  return std::move(*b);
}

/// A judge host in its own actor system, as `invjudge host` runs one.
struct host_system {
  remote_config cfg;
  caf::actor_system sys{cfg};
  judge_directory_actor directory = spawn_judge_directory(sys);
  judge_host_impl_actor host;
  std::string name;

  explicit host_system(std::vector<judge_binding> judges) {
    host = sys.spawn(judge_host, describe_host(""), directory, judges.size());
    auto port = sys.middleman().publish(caf::actor_cast<judge_host_actor>(host),
                                        0, "127.0.0.1", true);
    name = "127.0.0.1:" + std::to_string(*port);
    caf::anon_send(host, host_atom::value, name);
    start_local_workers(sys, directory, std::move(judges), name);
  }

  ~host_system() {
    caf::scoped_actor self{sys};
    stop_local_workers(self, directory);
    self->send_exit(host, caf::exit_reason::user_shutdown);
    self->send_exit(directory, caf::exit_reason::user_shutdown);
  }
};

/// The coordinator's system: a directory and a connector per host.
struct coordinator_system {
  remote_config cfg;
  caf::actor_system sys{cfg};
  judge_directory_actor directory = spawn_judge_directory(sys);
  std::vector<host_connector_actor> connectors;

  void connect(const std::string& host) {
    auto own = describe_host("local");
    own.message_types = registered_message_types(sys.config());
    auto c = sys.spawn(host_connector, host, host_connection{}, directory,
                       connection_manager(sys, false), own);
    caf::scoped_actor self{sys};
    self->request(c, std::chrono::seconds(30), ready_atom::value)
      .receive([](host_event&) {}, [](caf::error&) {});
    connectors.push_back(c);
  }

  std::vector<worker_entry> workers() {
    caf::scoped_actor self{sys};
    std::vector<worker_entry> out;
    self->request(directory, std::chrono::seconds(10), list_atom::value)
      .receive([&](std::vector<worker_entry>& xs) { out = std::move(xs); },
               [](caf::error&) {});
    return out;
  }

  ~coordinator_system() {
    for (auto& c : connectors)
      caf::anon_send_exit(c, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(directory, caf::exit_reason::user_shutdown);
  }
};

struct timing {
  double seconds = 0;
  double cpu = 0;
};

/// `votes` one-vote pairs through a vote coordinator over `workers`.
timing vote(caf::actor_system& sys, const std::vector<worker_entry>& workers,
            std::size_t votes) {
  caf::scoped_actor self{sys};
  vote_settings vs;
  vs.votes = {1, 1};
  auto coordinator = sys.spawn(vote_coordinator,
                               caf::actor_cast<vote_sink_actor>(self),
                               judge_directory_actor{},
                               std::vector<std::string>{workers[0].info.judge_id},
                               workers, vs);
  std::vector<vote_job> jobs;
  for (std::size_t i = 0; i < votes; ++i) {
    answer_pair p;
    p.id = "p" + std::to_string(i);
    p.item = p.id;
    p.a = std::to_string(i % 97);
    p.b = std::to_string(i % 89);
    jobs.push_back({i + 1, p});
  }
  auto cpu0 = cpu_seconds();
  auto t0 = clock_type::now();
  self->send(coordinator, std::move(jobs));
  std::size_t done = 0;
  self->receive_while([&] { return done < votes; })(
    [&](std::vector<voted_pair>& v) { done += v.size(); },
    [](std::vector<run_note>&) {},
    caf::after(std::chrono::seconds(120)) >> [&] { done = votes; });
  timing t{std::chrono::duration<double>(clock_type::now() - t0).count(),
           cpu_seconds() - cpu0};
  self->send_exit(coordinator, caf::exit_reason::user_shutdown);
  return t;
}

void throughput(std::size_t k, std::uint32_t cap, int latency_ms,
                double seconds) {
  std::vector<std::unique_ptr<test::fake_api>> backends;
  std::vector<std::unique_ptr<host_system>> hosts;
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
    coordinator.connect(hosts.back()->name);
  }
  auto ceiling = double(k) * cap / (latency_ms / 1000.0);
  auto votes = static_cast<std::size_t>(ceiling * seconds);
  auto t = vote(coordinator.sys, coordinator.workers(), votes);
  auto rate = votes / t.seconds;
  std::printf("k=%zu hosts  C=%u L=%d ms  %6zu votes in %6.2f s: %8.1f votes/s"
              "  ceiling k*C/L %7.1f  ratio %5.1f%%\n",
              k, cap, latency_ms, votes, t.seconds, rate, ceiling,
              100.0 * rate / ceiling);
}

void cpu_per_vote(std::size_t votes) {
  // Local: a stub worker in the coordinator's own system.
  double local_us = 0, remote_us = 0;
  {
    coordinator_system c;
    start_local_workers(c.sys, c.directory, judges_for("stub:numeric", 64));
    auto t = vote(c.sys, c.workers(), votes);
    local_us = t.cpu / votes * 1e6;
  }
  {
    host_system h{judges_for("stub:numeric", 64)};
    coordinator_system c;
    c.connect(h.name);
    auto t = vote(c.sys, c.workers(), votes);
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
  auto ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0)
              .count();
  ::waitpid(pid, nullptr, 0);
  ::close(err[0]);
  std::printf("kill -9 of a host to its worker leaving (votes moved): %.1f ms\n",
              ms);
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"hosts_bench: votes/s over judge hosts vs k*C/L"};
  std::uint32_t cap = 16;
  int latency = 100;
  double seconds = 3;
  std::size_t cpu_votes = 20000;
  std::string driver;
  app.add_option("--cap", cap, "In-flight cap C per host");
  app.add_option("--latency-ms", latency, "Backend latency L");
  app.add_option("--seconds", seconds, "Run length at the ceiling");
  app.add_option("--cpu-votes", cpu_votes, "Votes for the CPU comparison");
  app.add_option("--driver", driver,
                 "invjudge binary, for the kill -9 measurement");
  CLI11_PARSE(app, argc, argv);
  std::signal(SIGPIPE, SIG_IGN);
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) > 0)
    std::printf("load average %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  for (std::size_t k = 1; k <= 3; ++k)
    throughput(k, cap, latency, seconds);
  cpu_per_vote(cpu_votes);
  if (!driver.empty())
    kill_to_redispatch(driver);
  return 0;
}
