#pragma once
// What a valid but wasteful setup is warned about when a run starts.
#include <string>
#include <vector>

#include "core/config/run_config.hpp"
#include "messages/judge_info.hpp"

namespace ij {

/// Warnings about a valid but wasteful setup, e.g. votes > 1 at temperature
/// 0 on a backend without seed support (SPEC §7), given the workers found.
std::vector<std::string> run_warnings(const run_config& config,
                                      const std::vector<judge_info>& judges);

} // namespace ij
