#pragma once
// Reads a run's calibration map (configuration "calibration") into its
// configuration, before anything is spawned: the file parsed and checked
// (core/calibration/calibration.hpp: format, checksum, monotone maps), its
// SHA-256 against the one the configuration declares (a resumed run's
// manifest), and a map for every judge the run votes with.
#include <caf/error.hpp>

#include "core/config/run_config.hpp"
#include "messages/error.hpp"

namespace ij {

/// No error when the configuration has no map or its map is attached; else
/// io_failed (the file cannot be read) or bad_config (not a map, another
/// map than the one declared, no map for a judge), the context naming the
/// file and what is wrong (exit 3).
caf::error attach_calibration(run_config& cfg);

} // namespace ij
