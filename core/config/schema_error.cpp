#include "core/config/schema_error.hpp"

#include <rapidjson/pointer.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/numbers/number_text.hpp"

namespace ij {

namespace {

using rapidjson::Value;

std::string escape_token(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string pointer_text(const rapidjson::Pointer& p) {
  rapidjson::StringBuffer sb;
  p.Stringify(sb);
  return sb.GetString();
}

/// "/" for the root, so that every message shows a pointer.
std::string shown(const std::string& pointer) {
  return pointer.empty() ? "/" : pointer;
}

std::string number_text(const Value& v) {
  if (v.IsInt64())
    return std::to_string(v.GetInt64());
  if (v.IsUint64())
    return std::to_string(v.GetUint64());
  return ij::number_text(v.GetDouble());
}

std::string json_text(const Value& v) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  v.Accept(w);
  return sb.GetString();
}

std::string type_phrase(const Value& type) {
  auto one = [](std::string_view t) -> std::string {
    if (t == "integer")
      return "an integer";
    if (t == "object" || t == "array")
      return "an " + std::string{t};
    return "a " + std::string{t};
  };
  if (type.IsString())
    return one(type.GetString());
  std::string out;
  if (type.IsArray())
    for (auto& t : type.GetArray())
      if (t.IsString())
        out += (out.empty() ? "" : " or ") + one(t.GetString());
  return out.empty() ? "of another type" : out;
}

} // namespace

std::string schema_error(const rapidjson::Document& schema,
                         const rapidjson::Document& doc,
                         const rapidjson::SchemaValidator& v) {
  std::string keyword = v.GetInvalidSchemaKeyword();
  std::string where = pointer_text(v.GetInvalidDocumentPointer());
  const Value* sub = v.GetInvalidSchemaPointer().Get(schema);
  const Value* node = v.GetInvalidDocumentPointer().Get(doc);
  auto kw = [&](const char* name) -> const Value* {
    if (!sub || !sub->IsObject())
      return nullptr;
    auto it = sub->FindMember(name);
    return it == sub->MemberEnd() ? nullptr : &it->value;
  };
  if (keyword == "type") {
    if (auto t = kw("type"))
      return shown(where) + ": must be " + type_phrase(*t);
  } else if (keyword == "minimum" || keyword == "maximum") {
    bool lower = keyword == "minimum";
    auto ex = kw(lower ? "exclusiveMinimum" : "exclusiveMaximum");
    bool exclusive = ex && ex->IsBool() && ex->GetBool();
    if (auto b = kw(keyword.c_str()))
      return shown(where) + ": must be " + (lower ? ">" : "<")
             + (exclusive ? " " : "= ") + number_text(*b);
  } else if (keyword == "enum") {
    if (auto e = kw("enum"); e && e->IsArray()) {
      std::string list;
      for (auto& x : e->GetArray())
        list += (list.empty() ? "" : ", ") + json_text(x);
      return shown(where) + ": must be one of " + list;
    }
  } else if (keyword == "minLength") {
    if (auto n = kw("minLength"); n && n->IsUint() && n->GetUint() == 1)
      return shown(where) + ": must not be empty";
    if (auto n = kw("minLength"))
      return shown(where) + ": must have at least " + number_text(*n)
             + " characters";
  } else if (keyword == "minItems") {
    if (auto n = kw("minItems"))
      return shown(where) + ": must have at least " + number_text(*n)
             + " item(s)";
  } else if (keyword == "required") {
    if (auto r = kw("required"); r && r->IsArray() && node && node->IsObject())
      for (auto& name : r->GetArray())
        if (name.IsString() && !node->HasMember(name))
          return where + "/" + escape_token(name.GetString()) + ": is required";
  } else if (keyword == "additionalProperties") {
    auto props = kw("properties");
    // RapidJSON may point at the object or at the offending key.
    const Value* obj = node;
    std::string base = where;
    if (obj && !obj->IsObject()) {
      auto slash = where.rfind('/');
      base = where.substr(0, slash == std::string::npos ? 0 : slash);
      obj = rapidjson::Pointer(base.c_str()).Get(doc);
    }
    if (props && props->IsObject() && obj && obj->IsObject()) {
      std::string allowed;
      for (auto& p : props->GetObject())
        allowed +=
          (allowed.empty() ? "" : ", ") + std::string{p.name.GetString()};
      for (auto& m : obj->GetObject())
        if (!props->HasMember(m.name))
          return base + "/" + escape_token(m.name.GetString())
                 + ": unknown field (known: " + allowed + ")";
    }
  }
  return shown(where) + ": fails the schema rule \"" + keyword + "\"";
}

std::string position_of(std::string_view text, std::size_t offset) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

} // namespace ij
