#pragma once
#include <caf/actor_system_config.hpp>

namespace ij {

/// Registers every message type of the project; called by every binary and
/// every test before the actor system starts.
void add_message_types(caf::actor_system_config& cfg);

} // namespace ij
