#pragma once
// Judge hosts and a coordinator in one process, each an actor system of its
// own talking through CAF's middleman on 127.0.0.1, as `invjudge host` and
// `invjudge run --host` do: for bench/hosts_bench and the pipelining tests.
// A host may be reached through a delay proxy (bench/delay_proxy.hpp), so
// that the round trip is a setting.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>

#include "adapters/adapter_factory.hpp"
#include "bench/delay_proxy.hpp"
#include "core/config/run_config.hpp"
#include "messages/interfaces.hpp"

namespace ij::test {

struct remote_config : caf::actor_system_config {
  explicit remote_config(const host_connection& c = {});
};

/// The bindings of one judge named like --judge ("openai:m@URL"), with
/// in-flight cap `cap`; exits the process when it cannot be made.
std::vector<judge_binding> judges_for(const std::string& name,
                                      std::uint32_t cap);

/// A judge host in its own actor system, published on 127.0.0.1.
struct host_system {
  remote_config cfg;
  caf::actor_system sys{cfg};
  judge_directory_actor directory;
  caf::actor host;
  /// "127.0.0.1:PORT" as published.
  std::string name;

  explicit host_system(std::vector<judge_binding> judges,
                       std::uint32_t queue_max = host_connection{}.queue_max);
  ~host_system();

  /// The counters of the host's workers.
  std::vector<worker_status> status();
};

/// A coordinator's actor system: a directory and a connector per host.
struct coordinator_system {
  remote_config cfg;
  caf::actor_system sys;
  host_connection connection;
  judge_directory_actor directory;
  std::vector<host_connector_actor> connectors;

  explicit coordinator_system(host_connection c = {});
  ~coordinator_system();

  /// Connects to `address` ("ADDR:PORT"); waits for the first attempt.
  void connect(const std::string& address);
  std::vector<worker_entry> workers();
};

/// What a vote run through a coordinator took.
struct vote_timing {
  /// From the first vote sent to the last result.
  double seconds = 0;
  /// From the result that completed `warm` votes to the last: the steady
  /// rate's time, without the pipeline's filling.
  double steady_seconds = 0;
  double cpu = 0;
  /// Results by seq: how often each pair's result came (once, or the run
  /// lost or doubled something), and its records.
  std::vector<std::uint32_t> results;
  std::vector<std::size_t> records;
};

/// `votes` one-vote pairs through a vote coordinator over `workers`, in
/// `sys`; `warm` of them before the steady part (0: none). With a
/// directory, the coordinator hears of workers that leave (votes move) and
/// join. Gives up after two minutes without a result.
vote_timing vote(caf::actor_system& sys,
                 const std::vector<worker_entry>& workers, std::size_t votes,
                 std::size_t warm = 0, judge_directory_actor directory = {});

/// Process CPU time so far, in seconds.
double cpu_seconds();

} // namespace ij::test
