#pragma once
// The body of POST /v1/runs, read and checked before anything is created:
// {"config": {...the driver's configuration...}, "name"?: "..."}. Any other
// top-level field is refused by name (a misspelt "config" would otherwise
// silently run the default configuration).
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <caf/error.hpp>

#include "core/config/run_config.hpp"
#include "daemon/api_result.hpp"

namespace ij {

struct run_request {
  std::string name;
  /// The configuration as given ("{}" when absent), stored with the run.
  std::string config_text;
  run_config config;
};

/// `content_type` is the request's Content-Type header.
std::variant<run_request, error_reply>
parse_run_request(std::string_view content_type, std::string_view body);

/// Reads the calibration map the configuration names, on the daemon's host
/// (runio/calibration_file: the driver's checks). A relative path resolves
/// against the daemon's working directory. The stored configuration then
/// names the absolute path and the map's SHA-256 (`calibration_sha256`), so
/// that a run resumed after a restart refuses a map edited in between.
/// Fails with bad_config (a 400) naming the file and what is wrong.
caf::error load_run_calibration(run_request& req);

/// Reads the declared prompts the judges name (issue 29), on the daemon's
/// host (runio/prompt_file: the driver's checks), a relative path against
/// the daemon's working directory. The stored configuration then names each
/// file's absolute path and SHA-256, so that a run resumed after a restart
/// refuses a template edited in between. Fails with bad_config (a 400)
/// naming the judge's field, the file and what is wrong.
caf::error load_run_prompts(run_request& req);

} // namespace ij
