#include "runio/calibration_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "core/judge_spec.hpp"

namespace ij {

bool attach_calibration(run_config& cfg, std::string& error) {
  if (cfg.calibration.empty())
    return true;
  const auto& path = cfg.calibration;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (!in || !(text << in.rdbuf())) {
    error = cfg.source + ": /calibration: cannot read " + path + ": "
            + std::strerror(errno);
    return false;
  }
  auto set = parse_calibration_file(text.str(), path);
  if (!set) {
    error = context_of(set.error());
    return false;
  }
  if (!cfg.calibration_sha256.empty() && cfg.calibration_sha256 != set->sha256) {
    error = path + ": SHA-256 " + set->sha256 + " differs from "
            + cfg.calibration_sha256 + " declared by " + cfg.source
            + " (calibration_sha256; on --resume the manifest's): the map "
              "changed since the run started";
    return false;
  }
  for (auto& spec : cfg.judges) {
    auto id = judge_id_of(spec);
    if (set->find(id))
      continue;
    std::string have;
    for (auto& [other, fit] : set->judges)
      have += (have.empty() ? "" : ", ") + other;
    error = path + ": no map for judge \"" + spec.name + "\" (" + id
            + "); the map is for " + (have.empty() ? "no judge" : have);
    return false;
  }
  cfg.calibration_sha256 = set->sha256;
  cfg.calibration_maps = std::make_shared<const calibration_set>(std::move(*set));
  return true;
}

} // namespace ij
