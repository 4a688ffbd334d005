#include "core/audit/batch_record.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/json_fields.hpp"

namespace ij {

namespace {

std::string text(const rapidjson::Value& obj, const char* name) {
  auto it = obj.FindMember(name);
  if (it == obj.MemberEnd() || !it->value.IsString())
    return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

} // namespace

bool operator==(const batch_record& x, const batch_record& y) {
  if (x.entries.size() != y.entries.size())
    return false;
  for (std::size_t i = 0; i < x.entries.size(); ++i) {
    auto& a = x.entries[i];
    auto& b = y.entries[i];
    if (a.custom_id != b.custom_id || a.pair_id != b.pair_id
        || a.vote != b.vote)
      return false;
  }
  return x.step == y.step && x.judge == y.judge && x.key == y.key
         && x.batch_id == y.batch_id && x.state == y.state
         && x.at_ms == y.at_ms;
}

std::string batch_body(const batch_record& r) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  w.StartObject();
  json::string(w, "step", to_string(r.step));
  json::string(w, "judge", r.judge);
  json::string(w, "key", r.key);
  json::string_or_null(w, "batch_id", r.batch_id);
  json::string_or_null(w, "state", r.state);
  json::sint(w, "at_ms", r.at_ms);
  w.Key("entries");
  w.StartArray();
  for (auto& e : r.entries) {
    w.StartObject();
    json::string(w, "custom_id", e.custom_id);
    json::string(w, "pair_id", e.pair_id);
    json::uint(w, "vote", e.vote);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

std::optional<batch_record> read_batch_body(const rapidjson::Value& r) {
  if (!r.IsObject())
    return std::nullopt;
  auto step = batch_step_from_string(text(r, "step"));
  batch_record out;
  out.judge = text(r, "judge");
  out.key = text(r, "key");
  if (!step || out.judge.empty() || out.key.empty())
    return std::nullopt;
  out.step = *step;
  out.batch_id = text(r, "batch_id");
  out.state = text(r, "state");
  if (auto at = r.FindMember("at_ms");
      at != r.MemberEnd() && at->value.IsInt64())
    out.at_ms = at->value.GetInt64();
  auto entries = r.FindMember("entries");
  if (entries == r.MemberEnd() || !entries->value.IsArray())
    return out;
  for (auto& e : entries->value.GetArray()) {
    if (!e.IsObject())
      continue;
    batch_record_entry entry;
    entry.custom_id = text(e, "custom_id");
    entry.pair_id = text(e, "pair_id");
    if (auto v = e.FindMember("vote"); v != e.MemberEnd() && v->value.IsUint())
      entry.vote = v->value.GetUint();
    out.entries.push_back(std::move(entry));
  }
  return out;
}

} // namespace ij
