#pragma once
#include <string>
#include <vector>

#include <caf/actor_system_config.hpp>

namespace ij {

/// Registers every message type of the project; called by every binary and
/// every test before the actor system starts.
void add_message_types(caf::actor_system_config& cfg);

/// The names of every message type `cfg` knows (CAF's own and ours),
/// sorted: a judge host and a coordinator compare them before working
/// together.
std::vector<std::string>
registered_message_types(const caf::actor_system_config& cfg);

} // namespace ij
