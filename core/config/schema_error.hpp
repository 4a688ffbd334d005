#pragma once
// Plain words for a configuration that fails: RapidJSON's schema
// validation result (keyword, schema pointer, document pointer) as
// "<pointer>: <what is wrong>", and a JSON syntax error's place.
#include <cstddef>
#include <string>
#include <string_view>

#include <rapidjson/document.h>
#include <rapidjson/schema.h>

namespace ij {

/// "<pointer>: <plain words>", looking into the schema and the document for
/// what RapidJSON 1.1.0 does not say (which field is missing or unknown).
std::string schema_error(const rapidjson::Document& schema,
                         const rapidjson::Document& doc,
                         const rapidjson::SchemaValidator& v);

/// "line L, column C" of a byte offset, for JSON syntax errors.
std::string position_of(std::string_view text, std::size_t offset);

} // namespace ij
