#include "core/wall_clock.hpp"

#include <chrono>

namespace ij {

std::int64_t wall_clock_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch())
    .count();
}

} // namespace ij
