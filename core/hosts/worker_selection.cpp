#include "core/hosts/worker_selection.hpp"

#include <algorithm>

#include "core/config/judge_spec.hpp"
#include "core/hosts/worker_key.hpp"
#include "messages/error.hpp"

namespace ij {

caf::expected<std::vector<std::size_t>>
select_workers(const run_config& cfg, const std::vector<judge_info>& workers) {
  if (!cfg.calibration.empty() && !cfg.calibration_maps)
    return make_error(errc::bad_config, "calibration map " + cfg.calibration
                                          + " was not loaded by this client");
  for (auto& spec : cfg.judges) {
    auto served = std::any_of(workers.begin(), workers.end(),
                              [&](auto& w) { return serves(spec, w); });
    if (!served)
      return make_error(errc::no_worker, "no worker serves judge " + spec.name
                                           + " (" + judge_id_of(spec) + ")");
  }
  judge_selection selection{cfg.judges};
  std::vector<std::size_t> ours;
  for (std::size_t i = 0; i < workers.size(); ++i)
    if (selection.takes(workers[i]))
      ours.push_back(i);
  return ours;
}

} // namespace ij
