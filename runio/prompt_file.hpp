#pragma once
// Reads the declared prompts of a run's judges (issue 29) into its
// configuration, before anything is built: a judge's "prompt" (or
// "non_numeric_prompt") {"id", "file"} names a template file, read here.
#include <string>

#include <caf/error.hpp>

#include "core/config/run_config.hpp"
#include "messages/error.hpp"

namespace ij {

/// Reads every declared prompt: the file (a relative path against the
/// working directory: a configuration file's own relative paths are made
/// its directory's first, tools/config_file's resolve_config_paths; recorded
/// absolute), its template
/// checked (core/prompts/prompt_template.hpp), its SHA-256 against one declared
/// (the configuration's "sha256", a resumed run's manifest); a built-in id
/// only with that built-in's very bytes (then it is the built-in). No error
/// when there is none or all are read; else bad_config (io_failed for a
/// file that cannot be read) naming the configuration, the judge's field,
/// the file and what is wrong (exit 3).
caf::error attach_prompts(run_config& cfg);

} // namespace ij
