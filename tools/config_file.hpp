#pragma once
// Reads a configuration file into the run configuration model.
#include <optional>
#include <string>

#include "core/run_config.hpp"

namespace ij {

/// Reads `path` and lays it over the embedded default. On failure returns
/// nullopt with `error` as "<path>: <pointer or position>: <what is wrong>"
/// (also for a path that is a directory or cannot be read).
std::optional<run_config> load_config(const std::string& path,
                                      std::string& error);

} // namespace ij
