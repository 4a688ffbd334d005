#include "actors/system_config.hpp"

#include <algorithm>
#include <thread>

#include "messages/registration.hpp"

namespace ij {

void configure_actor_system(caf::actor_system_config& cfg) {
  add_message_types(cfg);
  auto cores = static_cast<std::size_t>(std::thread::hardware_concurrency());
  cfg.set("scheduler.max-threads", std::max<std::size_t>(cores, 2));
}

} // namespace ij
