#pragma once
// A run's id: when it was made and a random suffix. The driver makes one
// per run, the daemon one per POST /v1/runs; a resumed run keeps its own.
#include <string>

namespace ij {

/// "run-20261203T071500Z-3f9a0c2e": UTC time and 32 random bits.
std::string make_run_id();

} // namespace ij
