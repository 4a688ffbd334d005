#pragma once
// The fields of one judge object (configs/schema.json #/definitions/judge)
// as a table (core/config/config_fields.hpp), and the "judges" array read
// and written with it: the run configuration's largest table, kept apart.
#include <caf/error.hpp>
#include <rapidjson/document.h>

#include "core/config/config_fields.hpp"
#include "core/config/run_config.hpp"

namespace ij {

/// The rows of one judge object.
const config::table<judge_spec>& judge_fields();

/// "judges": each judge read by judge_fields(), a judge without a name
/// named "<type>:<model>"; names must differ. `at` is the array's pointer.
caf::error read_judges(const rapidjson::Value& v, run_config& cfg,
                       const std::string& at);

/// The judges as an array of objects.
void write_judges(config::json_writer& w, const run_config& cfg);

} // namespace ij
