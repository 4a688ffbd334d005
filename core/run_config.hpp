#pragma once
// The run configuration of invjudge: JSON validated against
// configs/schema.json, then checked for meaning (vote rule, statistical
// parameters, judges), before anything is spawned. Every error names the
// file and the JSON pointer of the offending value.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "actors/pipeline_settings.hpp"
#include "adapters/judge_spec.hpp"
#include "core/vote_tally.hpp"
#include "messages/verdict.hpp"

namespace ij {

struct driver_config {
  /// Where the values came from: a file path, or "(embedded default)".
  std::string source;
  std::vector<judge_spec> judges;
  vote_config votes;
  bool abstain_as_neither = true;
  bool order_balancing = false;
  std::chrono::milliseconds vote_deadline{120000};
  statistical_params stats;
  /// Empty: a fresh `invjudge-audit-<UTC timestamp>.jsonl` in the current
  /// directory.
  std::string audit_path;
  flush_policy flush = flush_policy::fsync_verdicts;
};

/// The source name of the built-in configuration.
inline constexpr std::string_view embedded_source = "(embedded default)";

/// The embedded default (configs/default.json as compiled in).
driver_config default_config();

/// Reads `path` and lays it over the embedded default. On failure returns
/// nullopt with `error` as "<path>: <pointer>: <what is wrong>".
std::optional<driver_config> load_config(const std::string& path,
                                         std::string& error);

/// Same, from JSON text already in memory; `source` names it in errors.
std::optional<driver_config> parse_config(std::string_view json,
                                          const std::string& source,
                                          std::string& error);

/// Replaces the judges with the one a short name gives (--judge).
bool override_judge(driver_config& cfg, const std::string& name,
                    std::string& error);

/// Builds every judge's adapter. Fails (with file and pointer) when one
/// cannot be built, e.g. its API key variable is unset.
std::optional<std::vector<judge_binding>>
bind_judges(const driver_config& cfg, std::string& error);

/// The effective configuration as canonical JSON (recorded in the run
/// manifest). Holds key variable names, never keys.
std::string to_json(const driver_config& cfg);

/// The configuration spelling: "fsync-verdicts", "fsync-each", "flush-each".
std::string_view config_name(flush_policy p);

} // namespace ij
