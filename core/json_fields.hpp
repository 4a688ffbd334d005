#pragma once
// Writing one "key": value member with RapidJSON, for every JSON text the
// project writes (audit records, manifest, configuration, output lines), so
// that each serializer is a list of fields and no two spell null or a
// non-finite number differently.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ij::json {

template <class Writer>
void key(Writer& w, std::string_view k) {
  w.Key(k.data(), static_cast<unsigned>(k.size()));
}

template <class Writer>
void string(Writer& w, std::string_view k, std::string_view v) {
  key(w, k);
  w.String(v.data(), static_cast<unsigned>(v.size()));
}

/// Empty means not given: written as null.
template <class Writer>
void string_or_null(Writer& w, std::string_view k, std::string_view v) {
  key(w, k);
  if (v.empty())
    w.Null();
  else
    w.String(v.data(), static_cast<unsigned>(v.size()));
}

template <class Writer>
void boolean(Writer& w, std::string_view k, bool v) {
  key(w, k);
  w.Bool(v);
}

template <class Writer>
void tri(Writer& w, std::string_view k, const std::optional<bool>& v) {
  key(w, k);
  if (v)
    w.Bool(*v);
  else
    w.Null();
}

template <class Writer>
void uint(Writer& w, std::string_view k, std::uint64_t v) {
  key(w, k);
  w.Uint64(v);
}

template <class Writer>
void sint(Writer& w, std::string_view k, std::int64_t v) {
  key(w, k);
  w.Int64(v);
}

/// JSON has no NaN or infinity (RapidJSON refuses them): they become null.
template <class Writer>
void number(Writer& w, std::string_view k, double v) {
  key(w, k);
  if (std::isfinite(v))
    w.Double(v);
  else
    w.Null();
}

} // namespace ij::json
