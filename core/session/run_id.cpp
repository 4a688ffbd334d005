#include "core/session/run_id.hpp"

#include <cstdio>
#include <ctime>
#include <random>

namespace ij {

std::string make_run_id() {
  auto t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  // 32 random bits: the daemon creates dozens of runs in one second, and 16
  // bits collided in its 64-client load test ("File exists").
  std::random_device rd;
  char suffix[12];
  std::snprintf(suffix, sizeof suffix, "%08x", static_cast<unsigned>(rd()));
  return std::string{"run-"} + stamp + "-" + suffix;
}

} // namespace ij
