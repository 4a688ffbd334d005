#include "core/audit/failover_records.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/audit/audit_record.hpp"
#include "core/json_fields.hpp"

namespace ij {

namespace {

using json_writer = rapidjson::Writer<rapidjson::StringBuffer>;

std::string text_of(const rapidjson::StringBuffer& sb) {
  return {sb.GetString(), sb.GetSize()};
}

} // namespace

std::string host_event_body(const host_event& e) {
  rapidjson::StringBuffer sb;
  json_writer w(sb);
  w.StartObject();
  json::string(w, "host", e.host);
  json::string(w, "event", to_string(e.kind));
  json::string(w, "detail", e.detail);
  w.Key("workers");
  w.StartArray();
  for (auto& id : e.workers)
    w.String(id.data(), static_cast<rapidjson::SizeType>(id.size()));
  w.EndArray();
  json::string(w, "at", iso8601_utc(e.at_ms));
  w.EndObject();
  return text_of(sb);
}

std::string vote_moved_body(const moved_vote_note& m) {
  rapidjson::StringBuffer sb;
  json_writer w(sb);
  w.StartObject();
  json::string(w, "pair_id", m.pair_id);
  json::uint(w, "vote_index", m.vote_index);
  w.Key("seed");
  if (m.has_seed)
    w.Int64(m.seed);
  else
    w.Null();
  json::string(w, "judge_id", m.judge_id);
  json::string(w, "from_worker", m.from_worker);
  json::string(w, "from_host", m.from_host);
  json::string(w, "why", m.why);
  w.EndObject();
  return text_of(sb);
}

std::string late_reply_body(const judge_record& rec) {
  rapidjson::StringBuffer sb;
  json_writer w(sb);
  w.StartObject();
  json::string(w, "pair_id", rec.pair_id);
  json::uint(w, "vote_index", rec.vote_index);
  json::string(w, "worker", rec.worker_id);
  json::string(w, "host", rec.host);
  json::string(w, "decision", to_string(rec.decision));
  json::boolean(w, "transport_failed", rec.transport_failed);
  json::boolean(w, "dropped", true);
  w.EndObject();
  return text_of(sb);
}

} // namespace ij
