#pragma once
// The judge directory: knows which judge workers exist in this actor system
// (local workers now; workers on judge hosts register the same way) and
// tells its subscribers when one joins or leaves, so that a run's vote
// coordinator can use a worker that appears and stop using one that goes.
// It monitors every worker and every subscriber: a worker that ends leaves
// with the reason; a subscriber that ends is forgotten.
#include <chrono>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <caf/actor_addr.hpp>
#include <caf/scoped_actor.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "messages/interfaces.hpp"

namespace ij {

struct judge_directory_state {
  static inline const char* name = "judge-directory";

  /// Workers by worker id.
  std::unordered_map<std::string, worker_entry> workers;
  /// Worker id by actor address, to name a worker that ended.
  std::unordered_map<caf::actor_addr, std::string> ids;
  std::vector<directory_listener_actor> subscribers;
  /// The last event of each judge host, told to every new subscriber, so
  /// that a run that starts later records the hosts it starts with.
  std::map<std::string, host_event> hosts;
  /// How long a joining worker has to describe itself (a worker on a judge
  /// host answers across the network).
  std::chrono::milliseconds describe_timeout{30000};
};

judge_directory_actor::behavior_type judge_directory(
  judge_directory_actor::stateful_pointer<judge_directory_state> self,
  std::chrono::milliseconds describe_timeout);

/// Spawns a judge directory. Always spawn it through here: the timeout is
/// also what keeps the spawn from being argument-less, which CAF 0.17 turns
/// into a reference to a null argument tuple (UBSan reports it).
judge_directory_actor spawn_judge_directory(
  caf::actor_system& sys,
  std::chrono::milliseconds describe_timeout = std::chrono::seconds(30));

/// Ends every worker of this node that `directory` knows, and waits (at
/// most `timeout`) for its answer: how many (0 when it did not answer). For
/// code outside actors that shuts an actor system down (a judge host, a
/// benchmark, a test).
std::uint32_t
stop_local_workers(caf::scoped_actor& self,
                   const judge_directory_actor& directory,
                   caf::timespan timeout = std::chrono::seconds(10));

} // namespace ij
