#pragma once
// `invjudge cache stats|clear FILE`: what the response cache holds, and
// emptying it (adapters/response_cache.hpp).
#include <string>

namespace ij {

/// action is "stats" or "clear"; returns the exit code.
int cache_command(const std::string& action, const std::string& path);

} // namespace ij
