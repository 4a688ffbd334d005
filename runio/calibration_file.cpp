#include "runio/calibration_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include <sys/stat.h>

#include "core/config/judge_spec.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

// The file's text; io_failed naming it and the reason (never a stale errno:
// an empty file is read, not failed).
caf::expected<std::string> read_map_text(const run_config& cfg) {
  const auto& path = cfg.calibration;
  auto cannot = [&](const std::string& why) {
    return make_error(errc::io_failed, cfg.source
                                         + ": /calibration: cannot read " + path
                                         + ": " + why);
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return cannot("it is a directory, not a calibration map");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return cannot(std::strerror(errno));
  std::string text{std::istreambuf_iterator<char>{in},
                   std::istreambuf_iterator<char>{}};
  if (in.bad())
    return cannot(std::strerror(errno));
  return text;
}

// A map fitted on another confidence than the judge's votes carry.
caf::error check_source(const std::string& path, const judge_spec& spec,
                        const std::string& id, const calibration_map& map) {
  auto judge = confidence_source(spec);
  if (source_fits(map.source, judge))
    return {};
  auto fix =
    judge == "decision_probs"
      ? std::string{"fit a map on votes with log-probabilities"}
      : std::string{"set \"logprobs\": true on the judge (an Ollama "
                    "or OpenAI-compatible one) to use this map, or fit "
                    "a map on votes without log-probabilities"};
  return make_error(
    errc::bad_config,
    path + ": the map for judge \"" + spec.name + "\" (" + id
      + ") was fitted on " + source_words(map.source) + " (\"source\": \""
      + map.source + "\"), but this run's judge gives " + source_words(judge)
      + " (\"" + std::string{judge}
      + "\"): its calibrated probabilities would be wrong; " + fix
      + " (invjudge calibrate AUDIT.jsonl... --out MAP.json)");
}

} // namespace

caf::error attach_calibration(run_config& cfg) {
  if (cfg.calibration.empty())
    return {};
  const auto& path = cfg.calibration;
  auto text = read_map_text(cfg);
  if (!text)
    return std::move(text.error());
  auto set = parse_calibration_file(*text, path);
  if (!set)
    return std::move(set.error());
  if (!cfg.calibration_sha256.empty() && cfg.calibration_sha256 != set->sha256)
    return make_error(
      errc::bad_config,
      path + ": SHA-256 " + set->sha256 + " differs from "
        + cfg.calibration_sha256 + " declared by " + cfg.source
        + " (calibration_sha256; on --resume the manifest's): the map "
          "changed since the run started");
  for (auto& spec : cfg.judges) {
    auto id = judge_id_of(spec);
    if (auto* map = set->find(id)) {
      if (auto err = check_source(path, spec, id, *map))
        return err;
      continue;
    }
    std::string have;
    for (auto& [other, fit] : set->judges)
      have += (have.empty() ? "" : ", ") + other;
    return make_error(errc::bad_config, path + ": no map for judge \""
                                          + spec.name + "\" (" + id
                                          + "); the map is for "
                                          + (have.empty() ? "no judge" : have));
  }
  cfg.calibration_sha256 = set->sha256;
  cfg.calibration_maps =
    std::make_shared<const calibration_set>(std::move(*set));
  return {};
}

} // namespace ij
