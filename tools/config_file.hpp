#pragma once
// Reads a configuration file into the run configuration model.
#include <optional>
#include <string>

#include <caf/expected.hpp>

#include "core/config/run_config.hpp"

namespace ij {

/// Relative file paths of a configuration read from `config_path`
/// (calibration, audit.path, cache.path, the host TLS files, a judge's
/// ca_file and declared prompt templates) are taken against the
/// configuration file's own directory, not the working directory. (The
/// daemon's run requests have no file: their relative paths are the
/// daemon's working directory's, daemon/run_request.)
void resolve_config_paths(run_config& cfg, const std::string& config_path);

/// Reads `path` and lays it over the embedded default, its relative paths
/// resolved (resolve_config_paths). On failure an error
/// whose context is "<path>: <pointer or position>: <what is wrong>"
/// (errc::io_failed for a file that cannot be opened or read, else
/// errc::bad_config; also for a path that is a directory).
caf::expected<run_config> load_config(const std::string& path);

/// A command's configuration: `path` (empty: the embedded default), with
/// `judge` (--judge NAME) replacing its judges when given, and its declared
/// prompts read (runio/prompt_file, relative to the file's directory).
/// Shared by run, selftest and host, so the three read their flags the same
/// way.
caf::expected<run_config>
command_config(const std::string& path,
               const std::optional<std::string>& judge);

} // namespace ij
