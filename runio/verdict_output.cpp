#include "runio/verdict_output.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/audit/audit_record.hpp"
#include "core/json_fields.hpp"

namespace ij {

namespace {

using writer = rapidjson::Writer<rapidjson::StringBuffer>;

} // namespace

std::string pair_verdict_line(const single_verdict& v) {
  const auto& label = v.label;
  rapidjson::StringBuffer sb;
  writer w(sb);
  w.StartObject();
  json::string(w, "kind", "pair");
  json::string(w, "id", v.pair_id);
  json::string(w, "item", v.item);
  json::string(w, "verdict", to_string(v.verdict));
  json::string(w, "rule", to_string(v.rule));
  json::tri(w, "equivalent", v.outcome.equivalent);
  json::number(w, "confidence", v.outcome.confidence);
  json::string(w, "detail", v.outcome.detail);
  // With a calibration map: P(equivalent), calibrated (never decides).
  if (v.outcome.has_probability())
    json::number(w, "probability", v.outcome.probability);
  write_vote_counts(w, v.counts, "votes");
  if (label)
    json::boolean(w, "label", *label);
  w.EndObject();
  return sb.GetString();
}

std::string item_verdict_line(const statistical_verdict& v) {
  rapidjson::StringBuffer sb;
  writer w(sb);
  w.StartObject();
  json::string(w, "kind", "item");
  json::string(w, "item", v.item);
  json::string(w, "verdict", to_string(v.verdict));
  json::string(w, "rule", to_string(v.rule));
  w.Key("counts");
  w.StartObject();
  json::uint(w, "I1", v.c1);
  json::uint(w, "I2", v.c2);
  json::uint(w, "I3", v.c3);
  json::uint(w, "I4", v.c4);
  json::uint(w, "I5", v.c5);
  w.EndObject();
  json::uint(w, "n", v.n);
  json::uint(w, "decided", v.decided);
  json::number(w, "p", v.p);
  json::number(w, "lo", v.lo);
  json::number(w, "hi", v.hi);
  if (v.probability >= 0) // the mean over its pairs, with calibration
    json::number(w, "probability", v.probability);
  w.EndObject();
  return sb.GetString();
}

} // namespace ij

namespace ij {

std::string canary_line(const canary_result& c) {
  rapidjson::StringBuffer sb;
  writer w(sb);
  w.StartObject();
  json::string(w, "kind", "canary");
  json::string(w, "id", c.id);
  json::string(w, "canary", c.kind);
  json::uint(w, "position", c.position);
  json::string(w, "expected", c.expected);
  json::tri(w, "equivalent", c.outcome.equivalent);
  json::string(w, "detail", c.outcome.detail);
  json::tri(w, "passed", c.passed);
  w.Key("failed_judges");
  w.StartArray();
  for (auto& j : c.failed_judges)
    w.String(j.data(), static_cast<rapidjson::SizeType>(j.size()));
  w.EndArray();
  write_vote_counts(w, c.counts, "votes");
  w.EndObject();
  return sb.GetString();
}

} // namespace ij
