#pragma once
// SERVE.json, the settings of `invjudge serve` (cache, limits, timeouts):
// validated against configs/serve.schema.json (compiled in) and read through
// a table of fields like the run configuration (core/config/config_fields.hpp).
// Pure: tools/serve_command reads the file.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include <caf/expected.hpp>

#include "core/config/config_fields.hpp"
#include "core/config/run_config.hpp"

namespace ij {

struct serve_file_settings {
  cache_config cache;
  std::uint64_t max_body_bytes = 0;
  std::chrono::milliseconds io_timeout{0};
  std::chrono::milliseconds idle_timeout{0};
  std::chrono::milliseconds grace{0};
  std::uint64_t threads = 0;
  /// A request the daemon's actors do not answer within this gets 503 busy.
  std::chrono::milliseconds reply_timeout{0};
  /// Retention of finished runs: kept `keep_days` days after their end,
  /// or only the last `keep_runs` to finish; 0: no limit (keep all).
  std::uint64_t keep_days = 0;
  std::uint64_t keep_runs = 0;
};

/// Reads SERVE.json's text over `base` (the defaults); `source` (the file)
/// names it in errors: errc::bad_config, "<source>: <pointer>: <what>".
caf::expected<serve_file_settings>
parse_serve_settings(std::string_view json, const std::string& source,
                     serve_file_settings base);

/// The fields of SERVE.json (checked against configs/serve.schema.json by a
/// test).
const config::table<serve_file_settings>& serve_settings_fields();

} // namespace ij
