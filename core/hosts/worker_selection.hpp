#pragma once
// Which of the directory's workers a run uses: those of each of its judges'
// exact call settings (core/hosts/worker_key.hpp: in the daemon, other runs'
// workers of the same judge id may differ in endpoint, seed, batch...).
// Several judges may share a judge id: every worker of any of them is used
// once. Pure.
#include <cstddef>
#include <vector>

#include <caf/expected.hpp>

#include "core/config/run_config.hpp"
#include "messages/judge_info.hpp"

namespace ij {

/// The indexes into `workers` of the run's workers, in order. An error
/// names a judge no worker serves (errc::no_worker), or a calibration map
/// the configuration names that its client did not load (errc::bad_config).
caf::expected<std::vector<std::size_t>>
select_workers(const run_config& cfg, const std::vector<judge_info>& workers);

} // namespace ij
