#pragma once
// Reads a configuration file into the run configuration model.
#include <string>

#include <caf/expected.hpp>

#include "core/run_config.hpp"

namespace ij {

/// Reads `path` and lays it over the embedded default. On failure an error
/// whose context is "<path>: <pointer or position>: <what is wrong>"
/// (errc::io_failed for a file that cannot be opened or read, else
/// errc::bad_config; also for a path that is a directory).
caf::expected<run_config> load_config(const std::string& path);

} // namespace ij
