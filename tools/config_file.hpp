#pragma once
// Reads a configuration file into the run configuration model.
#include <optional>
#include <string>

#include <caf/expected.hpp>

#include "core/run_config.hpp"

namespace ij {

/// Reads `path` and lays it over the embedded default. On failure an error
/// whose context is "<path>: <pointer or position>: <what is wrong>"
/// (errc::io_failed for a file that cannot be opened or read, else
/// errc::bad_config; also for a path that is a directory).
caf::expected<run_config> load_config(const std::string& path);

/// A command's configuration: `path` (empty: the embedded default), with
/// `judge` (--judge NAME) replacing its judges when given, and its declared
/// prompts read (runio/prompt_file, relative to the file's directory).
/// Shared by run, selftest and host, so the three read their flags the same
/// way.
caf::expected<run_config> command_config(const std::string& path,
                                         const std::optional<std::string>& judge);

} // namespace ij
