#pragma once
// The wall clock as records carry it: milliseconds since the Unix epoch.
// (Durations are measured with steady_clock; this is only for timestamps.)
#include <cstdint>

namespace ij {

std::int64_t wall_clock_ms();

} // namespace ij
