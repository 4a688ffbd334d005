#include "core/audit/canary_records.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/audit/audit_record.hpp"
#include "core/json_fields.hpp"

namespace ij {

using json_writer = rapidjson::Writer<rapidjson::StringBuffer>;

std::string canary_body(const canary_result& c, std::size_t judge_calls,
                        const std::vector<canary_judgement>& judges) {
  rapidjson::StringBuffer sb;
  json_writer w(sb);
  w.StartObject();
  json::string(w, "canary_id", c.id);
  json::string(w, "kind", c.kind);
  json::uint(w, "position", c.position);
  json::string(w, "a", c.a);
  json::string(w, "b", c.b);
  json::string(w, "expected", c.expected);
  write_outcome(w, c.outcome);
  write_vote_counts(w, c.counts);
  json::uint(w, "judge_calls", judge_calls);
  json::tri(w, "passed", c.passed);
  w.Key("judges");
  w.StartArray();
  for (auto& j : judges) {
    w.StartObject();
    json::string(w, "judge", j.judge);
    json::uint(w, "decisions", j.decisions);
    json::tri(w, "failed", j.failed);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

std::string bias_alarm_body(const bias_alarm_event& e, const alarm_params& p) {
  rapidjson::StringBuffer sb;
  json_writer w(sb);
  w.StartObject();
  json::string(w, "judge", e.judge);
  json::string(w, "mode", e.mode);
  json::string(w, "action", to_string(e.action));
  json::uint(w, "at_canary", e.at_canary);
  json::uint(w, "judge_canaries", e.canaries);
  json::uint(w, "observations", e.observations);
  json::uint(w, "failures", e.failures);
  json::uint(w, "cycle_observations", e.cycle_observations);
  json::uint(w, "cycle_failures", e.cycle_failures);
  json::number(w, "llr", e.llr);
  json::number(w, "threshold", e.threshold);
  w.Key("params");
  w.StartObject();
  json::number(w, "tolerated_rate", p.tolerated_rate);
  json::number(w, "alarm_rate", p.alarm_rate);
  json::number(w, "alpha", p.alpha);
  json::number(w, "beta", p.beta);
  w.EndObject();
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

} // namespace ij
