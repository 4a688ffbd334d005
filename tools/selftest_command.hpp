#pragma once
// `invjudge selftest [--config CONFIG.json | --judge NAME]`.
#include <optional>
#include <string>

namespace ij {

/// Runs the negative controls against every configured judge and prints
/// counts per kind. Exit 0 when every judge passes, 1 on any miss, 3 on a
/// configuration error. `judge`, when given, replaces the configured judges
/// (given but empty is an error).
int selftest_command(const std::string& config_path,
                     const std::optional<std::string>& judge);

} // namespace ij
