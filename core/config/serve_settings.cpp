#include "core/config/serve_settings.hpp"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/schema.h>

#include "core/config/schema_error.hpp"
#include "core/embedded_configs.hpp"

namespace ij {

namespace {

const rapidjson::Document& schema_document() {
  static const rapidjson::Document doc = [] {
    rapidjson::Document d;
    d.Parse(embedded::serve_schema.data(), embedded::serve_schema.size());
    return d;
  }();
  return doc;
}

} // namespace

const config::table<serve_file_settings>& serve_settings_fields() {
  using namespace config;
  using S = serve_file_settings;
  static const table<S> fields{
    comment<S>("/_comment"),
    comment<S>("/cache/_comment"),
    text<S>(
      "/cache/path", [](auto& s) -> auto& { return s.cache.path; }),
    duration<S>(
      "/cache/ttl", [](auto& s) -> auto& { return s.cache.ttl; }),
    count<S>(
      "/cache/max_bytes", [](auto& s) -> auto& { return s.cache.max_bytes; }),
    count<S>(
      "/max_body_bytes", [](auto& s) -> auto& { return s.max_body_bytes; }),
    duration<S>(
      "/io_timeout_ms", [](auto& s) -> auto& { return s.io_timeout; }),
    duration<S>(
      "/idle_timeout_ms", [](auto& s) -> auto& { return s.idle_timeout; }),
    duration<S>(
      "/grace_ms", [](auto& s) -> auto& { return s.grace; }),
    count<S>(
      "/threads", [](auto& s) -> auto& { return s.threads; }),
    duration<S>(
      "/reply_timeout_ms", [](auto& s) -> auto& { return s.reply_timeout; }),
    comment<S>("/retention/_comment"),
    count<S>(
      "/retention/days", [](auto& s) -> auto& { return s.keep_days; }),
    count<S>(
      "/retention/runs", [](auto& s) -> auto& { return s.keep_runs; }),
  };
  return fields;
}

caf::expected<serve_file_settings>
parse_serve_settings(std::string_view json, const std::string& source,
                     serve_file_settings base) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError())
    return make_error(errc::bad_config,
                      source + ": " + position_of(json, doc.GetErrorOffset())
                        + ": not valid JSON: "
                        + rapidjson::GetParseError_En(doc.GetParseError()));
  static const rapidjson::SchemaDocument compiled{schema_document()};
  rapidjson::SchemaValidator validator{compiled};
  if (!doc.Accept(validator))
    return make_error(errc::bad_config,
                      source + ": "
                        + schema_error(schema_document(), doc, validator));
  if (auto err = config::read_fields(doc, base, serve_settings_fields()))
    return make_error(errc::bad_config, source + ": " + context_of(err));
  return base;
}

} // namespace ij
