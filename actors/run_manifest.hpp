#pragma once
// The run manifest (SPEC §11): the first audit record, written before any
// judge call (pre-registration). It holds every caller-declared parameter,
// the prompt id and the SHA-256 of the prompt template, the configuration as
// given, the tool version and the start time. Judges are described by type,
// model, URL, sampling and limits, and the NAME of the environment variable
// holding their key: never a key.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "actors/pipeline_settings.hpp"

namespace ij {

/// The manifest's body (a JSON object text).
std::string manifest_body(const pipeline_settings& settings,
                          const std::vector<std::string>& warnings,
                          std::int64_t started_at_ms);

} // namespace ij
