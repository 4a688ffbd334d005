# Writes a header holding two JSON files as string_views (cmake -P script).
# Inputs: OUTPUT, DEFAULT_JSON, SCHEMA_JSON, SERVE_SCHEMA_JSON.
file(READ ${DEFAULT_JSON} default_text)
file(READ ${SCHEMA_JSON} schema_text)
file(READ ${SERVE_SCHEMA_JSON} serve_schema_text)
foreach(t default_text schema_text serve_schema_text)
  string(FIND "${${t}}" ")ij_json\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "a configuration file contains the raw-string delimiter )ij_json\"")
  endif()
endforeach()
file(WRITE ${OUTPUT}.tmp
"#pragma once
// Generated from configs/default.json, configs/schema.json and
// configs/serve.schema.json; do not edit.
#include <string_view>

namespace ij::embedded {

inline constexpr std::string_view default_config = R\"ij_json(${default_text})ij_json\";

inline constexpr std::string_view config_schema = R\"ij_json(${schema_text})ij_json\";

inline constexpr std::string_view serve_schema = R\"ij_json(${serve_schema_text})ij_json\";

} // namespace ij::embedded
")
# Only touch the header when it changed, so that dependants do not rebuild.
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUTPUT}.tmp ${OUTPUT})
file(REMOVE ${OUTPUT}.tmp)
