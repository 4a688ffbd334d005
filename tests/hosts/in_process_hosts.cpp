#include "tests/hosts/in_process_hosts.hpp"

#include <cstdio>
#include <cstdlib>

#include <sys/resource.h>

#include <caf/io/middleman.hpp>
#include <caf/scoped_actor.hpp>

#include "actors/host_connector.hpp"
#include "actors/judge_directory.hpp"
#include "actors/judge_host.hpp"
#include "actors/local_workers.hpp"
#include "actors/remoting.hpp"
#include "actors/system_config.hpp"
#include "actors/vote_coordinator.hpp"
#include "messages/registration.hpp"

namespace ij::test {

remote_config::remote_config(const host_connection& c) {
  configure_actor_system(*this);
  configure_remoting(*this, c);
  // No BASP heartbeat between systems in one process: CAF 0.17.6's
  // middleman, stopped with a heartbeat tick pending, sometimes never
  // finalizes its broker, and LeakSanitizer reports the broker, its
  // spawn-server helpers and their messages (under load, 7 to 14 runs in 40
  // of the severed-link test, and the other two at times). The connectors'
  // own pings still find a silent host; as in tests/actors/
  // host_connector_test.cpp.
  set("middleman.heartbeat-interval", caf::timespan{0});
}

std::vector<judge_binding> judges_for(const std::string& name,
                                      std::uint32_t cap) {
  auto cfg = default_config();
  auto spec = parse_judge_name(name);
  spec->max_in_flight = cap;
  cfg.judges = {*spec};
  auto b = bind_judges(cfg);
  if (!b) {
    std::fprintf(stderr, "judges_for: %s\n", render_error(b.error()).c_str());
    std::exit(1);
  }
  return std::move(*b);
}

host_system::host_system(std::vector<judge_binding> judges,
                         std::uint32_t queue_max) {
  directory = spawn_judge_directory(sys);
  auto impl =
    sys.spawn(judge_host, describe_host(""), directory, judges.size());
  host = caf::actor_cast<caf::actor>(impl);
  auto port = sys.middleman().publish(caf::actor_cast<judge_host_actor>(impl),
                                      0, "127.0.0.1", true);
  name = "127.0.0.1:" + std::to_string(*port);
  caf::anon_send(impl, host_atom::value, name);
  start_local_workers(sys, directory, std::move(judges), name, queue_max);
}

host_system::~host_system() {
  caf::scoped_actor self{sys};
  stop_local_workers(self, directory);
  self->send_exit(host, caf::exit_reason::user_shutdown);
  self->send_exit(directory, caf::exit_reason::user_shutdown);
}

std::vector<worker_status> host_system::status() {
  caf::scoped_actor self{sys};
  std::vector<worker_entry> all;
  self->request(directory, std::chrono::seconds(10), list_atom::value)
    .receive([&](std::vector<worker_entry>& xs) { all = std::move(xs); },
             [](caf::error&) {});
  std::vector<worker_status> out;
  for (auto& e : all)
    self->request(e.worker, std::chrono::seconds(10), status_atom::value)
      .receive([&](worker_status& s) { out.push_back(s); }, [](caf::error&) {});
  return out;
}

coordinator_system::coordinator_system(host_connection c)
    : cfg(c), sys(cfg), connection(c), directory(spawn_judge_directory(sys)) {}

coordinator_system::~coordinator_system() {
  for (auto& c : connectors)
    caf::anon_send_exit(c, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(directory, caf::exit_reason::user_shutdown);
}

void coordinator_system::connect(const std::string& address) {
  auto own = describe_host("local");
  own.message_types = registered_message_types(sys.config());
  auto c = sys.spawn(host_connector, address, connection, directory,
                     connection_manager(sys, false), own);
  caf::scoped_actor self{sys};
  self->request(c, std::chrono::seconds(30), ready_atom::value)
    .receive([](host_event&) {}, [](caf::error&) {});
  connectors.push_back(c);
}

std::vector<worker_entry> coordinator_system::workers() {
  caf::scoped_actor self{sys};
  std::vector<worker_entry> out;
  self->request(directory, std::chrono::seconds(10), list_atom::value)
    .receive([&](std::vector<worker_entry>& xs) { out = std::move(xs); },
             [](caf::error&) {});
  return out;
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec
         + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

vote_timing vote(caf::actor_system& sys,
                 const std::vector<worker_entry>& workers, std::size_t votes,
                 std::size_t warm, judge_directory_actor directory) {
  using clock_type = std::chrono::steady_clock;
  caf::scoped_actor self{sys};
  vote_settings vs;
  vs.votes = {1, 1};
  // Votes of a lost host wait for another (or for it to come back).
  vs.failover_wait = std::chrono::seconds(120);
  auto coordinator = sys.spawn(
    vote_coordinator, caf::actor_cast<vote_sink_actor>(self), directory,
    std::vector<std::string>{workers[0].info.judge_id}, workers, vs);
  std::vector<vote_job> jobs;
  for (std::size_t i = 0; i < votes; ++i) {
    answer_pair p;
    p.id = "p" + std::to_string(i);
    p.item = p.id;
    p.a = std::to_string(i % 97);
    p.b = std::to_string(i % 89);
    jobs.push_back({i + 1, p});
  }
  vote_timing t;
  t.results.assign(votes + 1, 0);
  t.records.assign(votes + 1, 0);
  auto cpu0 = cpu_seconds();
  auto t0 = clock_type::now();
  auto steady_from = t0;
  self->send(coordinator, std::move(jobs));
  std::size_t done = 0;
  self->receive_while([&] { return done < votes; })(
    [&](std::vector<voted_pair>& v) {
      for (auto& p : v) {
        if (p.seq < t.results.size()) {
          ++t.results[p.seq];
          t.records[p.seq] += p.result.records.size();
        }
        if (++done == warm)
          steady_from = clock_type::now();
      }
    },
    [](std::vector<run_note>&) {},
    caf::after(std::chrono::seconds(120)) >> [&] { done = votes; });
  auto end = clock_type::now();
  t.seconds = std::chrono::duration<double>(end - t0).count();
  t.steady_seconds = std::chrono::duration<double>(end - steady_from).count();
  t.cpu = cpu_seconds() - cpu0;
  self->send_exit(coordinator, caf::exit_reason::user_shutdown);
  return t;
}

} // namespace ij::test
