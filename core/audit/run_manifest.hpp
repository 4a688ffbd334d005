#pragma once
// The run manifest (SPEC §11): the first audit record, written before any
// judge call (pre-registration). It holds the run id, the tool version and
// start time, the prompt id and the SHA-256 of its template, every worker the
// run votes with as it describes itself (judge_info: one serializer for local
// and remote workers), the configuration as one canonical JSON object (the
// one writer of core/config/run_config.hpp: every declared parameter, each
// spelled once) and the warnings. Never a key: keys are named by variable only.
#include <cstdint>
#include <string>
#include <vector>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/config/run_config.hpp"
#include "messages/judge_info.hpp"

namespace ij {

/// The software version (CMake's project version).
const char* software_version();

/// Writes one judge_info as a JSON object (the value after a Key()).
void write_judge_info(rapidjson::Writer<rapidjson::StringBuffer>& w,
                      const judge_info& info);

/// The manifest's body (a JSON object text).
std::string manifest_body(const std::string& run_id, const run_config& config,
                          const std::vector<judge_info>& judges,
                          const std::vector<std::string>& warnings,
                          std::int64_t started_at_ms);

} // namespace ij
