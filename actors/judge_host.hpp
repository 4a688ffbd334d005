#pragma once
// The judge host (`invjudge host`, SPEC §10 "Distribution"): the actor a host
// process publishes on the network. It describes the host (host_hello: version,
// prompt, message-type set) and lists the workers of the host's own judge
// directory, so that a coordinator's host connector can check the host and
// join its workers to the coordinator's directory. The workers themselves
// are ordinary judge workers; calls go straight to them, not through here.
// Each ping carries the round trip the connector measured last: the host
// tells its workers, who queue votes for that coordinator's node to cover it
// (issue 31).
#include <cstddef>

#include <caf/typed_event_based_actor.hpp>

#include "messages/interfaces.hpp"

namespace ij {

/// The published interface plus the host's own note of the address it got
/// (known only once published: `--listen :0` picks the port).
using judge_host_impl_actor =
  judge_host_actor::extend<caf::reacts_to<host_atom, std::string>>;

struct judge_host_state {
  static inline const char* name = "judge-host";

  host_hello hello;
  judge_directory_actor directory;
  /// Workers the host starts: until the directory lists this many, the
  /// host is still starting and `list` fails (the connector retries).
  std::size_t expected_workers = 0;
};

/// `hello.message_types` and `hello.epoch` are filled in here.
judge_host_impl_actor::behavior_type
judge_host(judge_host_impl_actor::stateful_pointer<judge_host_state> self,
           host_hello hello, judge_directory_actor directory,
           std::size_t expected_workers);

/// The description of this process as a judge host listening on `host`.
host_hello describe_host(const std::string& host);

} // namespace ij
