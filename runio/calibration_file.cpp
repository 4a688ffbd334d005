#include "runio/calibration_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "core/judge_spec.hpp"
#include "messages/error.hpp"

namespace ij {

caf::error attach_calibration(run_config& cfg) {
  if (cfg.calibration.empty())
    return {};
  const auto& path = cfg.calibration;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (!in || !(text << in.rdbuf()))
    return make_error(errc::io_failed, cfg.source + ": /calibration: cannot read "
                                         + path + ": " + std::strerror(errno));
  auto set = parse_calibration_file(text.str(), path);
  if (!set)
    return std::move(set.error());
  if (!cfg.calibration_sha256.empty() && cfg.calibration_sha256 != set->sha256)
    return make_error(errc::bad_config,
                      path + ": SHA-256 " + set->sha256 + " differs from "
                        + cfg.calibration_sha256 + " declared by " + cfg.source
                        + " (calibration_sha256; on --resume the manifest's): the map "
                          "changed since the run started");
  for (auto& spec : cfg.judges) {
    auto id = judge_id_of(spec);
    if (set->find(id))
      continue;
    std::string have;
    for (auto& [other, fit] : set->judges)
      have += (have.empty() ? "" : ", ") + other;
    return make_error(errc::bad_config,
                      path + ": no map for judge \"" + spec.name + "\" (" + id
                        + "); the map is for " + (have.empty() ? "no judge" : have));
  }
  cfg.calibration_sha256 = set->sha256;
  cfg.calibration_maps = std::make_shared<const calibration_set>(std::move(*set));
  return {};
}

} // namespace ij
