#pragma once
// Reads a run's calibration map (configuration "calibration") into its
// configuration, before anything is spawned: the file parsed and checked
// (core/calibration.hpp: format, checksum, monotone maps), its SHA-256
// against the one the configuration declares (a resumed run's manifest),
// and a map for every judge the run votes with.
#include <string>

#include "core/run_config.hpp"

namespace ij {

/// True when the configuration has no map or its map is attached; false
/// with `error` naming the file and what is wrong (exit 3).
bool attach_calibration(run_config& cfg, std::string& error);

} // namespace ij
