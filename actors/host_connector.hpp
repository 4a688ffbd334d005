#pragma once
// A host connector: a coordinator's link to one judge host (SPEC §10,
// "Distribution"), one actor per host.
//
// Connecting happens here, with a finite timeout on every step and never a
// blocking call: the middleman's own (detached) actor is asked to connect,
// then the host is asked who it is (hello) and which workers it has (list).
// A host whose interface, message-type set, prompt id or prompt SHA differs
// from ours is refused, naming the host and the field. Its workers join the
// judge directory, so that every run's vote coordinator uses them like local
// workers. The host is monitored (a closed connection, a dropped one after
// the middleman's connection timeout) and pinged every heartbeat (each ping
// carries the round trip the last one took, which the host's workers size
// their queues of our votes to): a host that
// answers no ping for lost_after is lost — a hung host (SIGSTOP) is detected
// within lost_after + heartbeat, whatever its connection does. A lost host's
// workers leave the directory (their votes move); the connector cools down
// and reconnects with exponential backoff (doubling from the heartbeat up to
// retry_max); the host rejoins when it answers again. Every step is a
// host_event sent to the directory, which relays it to every run.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <caf/actor_clock.hpp>
#include <caf/io/middleman_actor.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <caf/typed_response_promise.hpp>

#include "core/config/run_config.hpp"
#include "core/hosts/host_address.hpp"
#include "messages/interfaces.hpp"

namespace ij {

struct host_connector_state {
  static inline const char* name = "host-connector";

  enum class phase { connecting, connected, cooling_down };

  /// The host as configured ("ADDR:PORT") and parsed.
  std::string name_of_host;
  host_address address;
  host_connection settings;
  judge_directory_actor directory;
  caf::io::middleman_actor middleman;
  /// What we are (version, prompt, message types), to compare with hellos.
  host_hello own;

  phase state = phase::connecting;
  /// Counts connection attempts; timers and replies of an older attempt
  /// are ignored.
  std::uint64_t attempt = 1;
  judge_host_actor host;
  std::uint64_t epoch = 0;
  std::vector<std::string> workers;
  bool ever_connected = false;
  bool lost_since_connected = false;
  std::chrono::milliseconds backoff{0};
  caf::actor_clock::time_point last_answer;
  /// The round trip of the last ping (or of the hello), told to the host
  /// with the next ping (issue 31).
  caf::actor_clock::duration_type rtt{0};
  /// The last event (the status), and refusals already reported.
  host_event last;
  std::string last_refusal;
  bool first_attempt_done = false;
  std::vector<caf::typed_response_promise<host_event>> waiting_ready;
};

/// `own` describes this process (describe_host("local") with message types).
host_connector_actor::behavior_type host_connector(
  host_connector_actor::stateful_pointer<host_connector_state> self,
  std::string host, host_connection settings, judge_directory_actor directory,
  caf::io::middleman_actor middleman, host_hello own);

/// Why a connect to a host failed, telling a refused TCP connection, a
/// timeout and a failed TLS handshake apart (each with what to check); any
/// other error in CAF's words. Exposed for tests.
std::string connect_failure(const caf::error& err, const host_connection& c);

} // namespace ij
