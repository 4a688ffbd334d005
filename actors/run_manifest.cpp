#include "actors/run_manifest.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/statistical_params_json.hpp"
#include "core/audit_record.hpp"
#include "core/prompt.hpp"

#ifndef IJ_VERSION
#define IJ_VERSION "unknown"
#endif

namespace ij {

namespace {

using json_writer = rapidjson::Writer<rapidjson::StringBuffer>;

void str(json_writer& w, const char* key, std::string_view value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void judge_json(json_writer& w, const judge_binding& j) {
  const auto& s = j.spec;
  w.StartObject();
  str(w, "name", s.name);
  str(w, "type", s.type);
  str(w, "model", s.model);
  str(w, "adapter_id", j.adapter ? j.adapter->id() : std::string{});
  str(w, "base_url", s.base_url);
  w.Key("temperature");
  w.Double(s.temperature);
  w.Key("seed");
  if (s.seed)
    w.Int64(*s.seed);
  else
    w.Null();
  w.Key("supports_seed");
  w.Bool(j.adapter && j.adapter->supports_seed());
  w.Key("max_tokens");
  w.Uint(s.max_tokens);
  w.Key("timeout_ms");
  w.Int64(static_cast<std::int64_t>(s.timeout.count()));
  w.Key("max_in_flight");
  w.Uint(s.max_in_flight);
  w.Key("max_attempts");
  w.Uint(s.max_attempts);
  w.Key("max_response_bytes");
  w.Uint64(s.max_response_bytes);
  // The variable's name only: the key itself never leaves the adapter.
  str(w, "api_key_env", s.api_key_env);
  str(w, "ca_file", s.ca_file);
  w.EndObject();
}

} // namespace

std::string manifest_body(const pipeline_settings& settings,
                          const std::vector<std::string>& warnings,
                          std::int64_t started_at_ms) {
  rapidjson::StringBuffer sb;
  json_writer w(sb);
  w.StartObject();
  str(w, "tool", "invariance-judge");
  str(w, "version", IJ_VERSION);
  str(w, "started_at", iso8601_utc(started_at_ms));
  str(w, "prompt_id", judge_prompt_id);
  str(w, "prompt_sha256", judge_prompt_template_sha256());
  w.Key("judges");
  w.StartArray();
  for (auto& j : settings.judges)
    judge_json(w, j);
  w.EndArray();
  w.Key("votes");
  w.Uint(settings.votes.votes);
  w.Key("min_agreement");
  w.Uint(settings.votes.min_agreement);
  w.Key("abstain_as_neither");
  w.Bool(settings.abstain_as_neither);
  w.Key("order_balancing");
  w.Bool(settings.order_balancing);
  w.Key("vote_deadline_ms");
  w.Int64(static_cast<std::int64_t>(settings.vote_deadline.count()));
  w.Key("stats");
  write_statistical_params(w, settings.stats);
  str(w, "flush_policy", to_string(settings.flush));
  str(w, "config_source", settings.config_source);
  // The configuration goes in as JSON when it is JSON, else as its text.
  w.Key("config");
  rapidjson::Document cfg;
  cfg.Parse(settings.config_json.data(), settings.config_json.size());
  if (settings.config_json.empty())
    w.Null();
  else if (!cfg.HasParseError())
    cfg.Accept(w);
  else
    w.String(settings.config_json.data(),
             static_cast<rapidjson::SizeType>(settings.config_json.size()));
  w.Key("warnings");
  w.StartArray();
  for (auto& x : warnings)
    w.String(x.data(), static_cast<rapidjson::SizeType>(x.size()));
  w.EndArray();
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

} // namespace ij
