#pragma once
// A configuration as a table of fields: each row names a JSON pointer and
// says how its value is read into the model and written back, so that the
// list of fields is written once and drives both the reader and the writer
// (and a test checks it against the schema). Used for the run
// configuration, SERVE.json and the host settings. Pure: no file is read.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <caf/error.hpp>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "messages/error.hpp"

namespace ij::config {

using json_writer = rapidjson::Writer<rapidjson::StringBuffer>;

/// One field of a model `T`.
template <class T>
struct field {
  /// Where the value is, relative to the object the table reads ("/votes",
  /// "/statistics/tau"); the last segment is the key written.
  std::string_view pointer;
  /// Reads the (schema-valid) value into the model; `at` is its full JSON
  /// pointer, for errors ("<at>: <what>", errc::bad_config). Empty: the
  /// field is written only.
  std::function<caf::error(const rapidjson::Value& v, T& into,
                           const std::string& at)>
    read;
  /// Writes the value (after its key). Empty: the field is read only.
  std::function<void(json_writer& w, const T& from)> write;
  /// Whether it is written; empty: always.
  std::function<bool(const T& from)> written;
};

template <class T>
using table = std::vector<field<T>>;

/// A row whose value is written only when `when` holds.
template <class T, class When>
field<T> only_when(field<T> f, When when) {
  f.written = when;
  return f;
}

/// A row read by `read` (an error-free read of the value) and written by
/// `write`.
template <class T, class Read, class Write>
field<T> custom(std::string_view pointer, Read read, Write write) {
  return {pointer,
          [read](const rapidjson::Value& v, T& into, const std::string&) {
            read(v, into);
            return caf::error{};
          },
          write,
          {}};
}

/// The value at `pointer` under `obj`, or nullptr when a segment is absent.
const rapidjson::Value* find(const rapidjson::Value& obj,
                             std::string_view pointer);

/// Reads every present field of `obj` in table order; `base` prefixes the
/// pointers in errors. Stops at the first error.
template <class T>
caf::error read_fields(const rapidjson::Value& obj, T& into,
                       const table<T>& fields, const std::string& base = {}) {
  for (auto& f : fields) {
    if (!f.read)
      continue;
    if (auto v = find(obj, f.pointer))
      if (auto err = f.read(*v, into, base + std::string{f.pointer}))
        return err;
  }
  return caf::error{};
}

/// Writes the fields as one object, opening and closing the nested objects
/// the pointers name (an object none of whose fields is written is left
/// out). Rows of one object must be adjacent.
template <class T>
void write_fields(json_writer& w, const T& from, const table<T>& fields);

/// Opens and closes nested objects as write_fields goes (not a template:
/// the bookkeeping is the same for every model).
class object_writer {
public:
  explicit object_writer(json_writer& w) : w_(w) { w_.StartObject(); }
  /// Opens the objects of `pointer`'s parents and writes its key.
  void key(std::string_view pointer);
  /// Closes what is open, the outer object too.
  void finish();

private:
  json_writer& w_;
  std::vector<std::string> open_;
};

template <class T>
void write_fields(json_writer& w, const T& from, const table<T>& fields) {
  object_writer out{w};
  for (auto& f : fields)
    if (f.write && (!f.written || f.written(from))) {
      out.key(f.pointer);
      f.write(w, from);
    }
  out.finish();
}

/// Every pointer of `fields` (read, written or both), for the schema test.
template <class T>
std::vector<std::string> pointers(const table<T>& fields) {
  std::vector<std::string> out;
  for (auto& f : fields)
    out.emplace_back(f.pointer);
  return out;
}

/// An error of one field: errc::bad_config, "<at>: <what>".
inline caf::error field_error(const std::string& at, const std::string& what) {
  return make_error(errc::bad_config, at + ": " + what);
}

// Rows for the common kinds of value. `get` gives the member, e.g.
// [](auto& c) -> auto& { return c.stats.tau; } (called on T and const T).

template <class T, class Get>
field<T> text(std::string_view pointer, Get get) {
  return {pointer,
          [get](const rapidjson::Value& v, T& into, const std::string&) {
            get(into) = v.GetString();
            return caf::error{};
          },
          [get](json_writer& w, const T& from) {
            const std::string& s = get(from);
            w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
          },
          {}};
}

template <class T, class Get>
field<T> flag(std::string_view pointer, Get get) {
  return {pointer,
          [get](const rapidjson::Value& v, T& into, const std::string&) {
            get(into) = v.GetBool();
            return caf::error{};
          },
          [get](json_writer& w, const T& from) { w.Bool(get(from)); },
          {}};
}

/// Milliseconds (or seconds) as an integer.
template <class T, class Get>
field<T> duration(std::string_view pointer, Get get) {
  return {pointer,
          [get](const rapidjson::Value& v, T& into, const std::string&) {
            auto& d = get(into);
            d = std::decay_t<decltype(d)>(v.GetUint64());
            return caf::error{};
          },
          [get](json_writer& w, const T& from) {
            w.Int64(static_cast<std::int64_t>(get(from).count()));
          },
          {}};
}

template <class T, class Get>
field<T> count(std::string_view pointer, Get get) {
  return {pointer,
          [get](const rapidjson::Value& v, T& into, const std::string&) {
            auto& n = get(into);
            n = static_cast<std::decay_t<decltype(n)>>(v.GetUint64());
            return caf::error{};
          },
          [get](json_writer& w, const T& from) {
            w.Uint64(static_cast<std::uint64_t>(get(from)));
          },
          {}};
}

template <class T, class Get>
field<T> real(std::string_view pointer, Get get) {
  return {pointer,
          [get](const rapidjson::Value& v, T& into, const std::string&) {
            get(into) = v.GetDouble();
            return caf::error{};
          },
          [get](json_writer& w, const T& from) { w.Double(get(from)); },
          {}};
}

/// A field that is documentation only ("_comment"): read and ignored.
template <class T>
field<T> comment(std::string_view pointer) {
  return {pointer,
          [](const rapidjson::Value&, T&, const std::string&) {
            return caf::error{};
          },
          {},
          {}};
}

} // namespace ij::config
