#pragma once
// A top-level field of a daemon's JSON answer as text (a string as is, a
// number in decimal), for the benchmarks that drive `invjudge serve`; empty
// when the body is not an object or has no such field.
#include <string>

#include <rapidjson/document.h>

namespace ij::bench {

inline std::string json_field(const std::string& body, const char* name) {
  rapidjson::Document d;
  d.Parse(body.c_str(), body.size());
  if (d.HasParseError() || !d.IsObject() || !d.HasMember(name))
    return {};
  auto& v = d[name];
  if (v.IsString())
    return v.GetString();
  if (v.IsUint64())
    return std::to_string(v.GetUint64());
  if (v.IsNumber())
    return std::to_string(v.GetDouble());
  return {};
}

} // namespace ij::bench
