#pragma once
// `invjudge selftest [--config CONFIG.json | --judge NAME]`.
#include <string>

namespace ij {

/// Runs the negative controls against every configured judge and prints
/// counts per kind. Exit 0 when every judge passes, 1 on any miss, 3 on a
/// configuration error.
int selftest_command(const std::string& config_path, const std::string& judge);

} // namespace ij
