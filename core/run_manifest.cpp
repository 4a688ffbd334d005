#include "core/run_manifest.hpp"

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

} // namespace

const char* software_version() {
  return IJ_VERSION;
}

void write_judge_info(json_writer& w, const judge_info& j) {
  w.StartObject();
  str(w, "judge_id", j.judge_id);
  str(w, "worker_id", j.worker_id);
  str(w, "host", j.host);
  str(w, "name", j.name);
  str(w, "type", j.adapter_type);
  str(w, "adapter_id", j.adapter_id);
  str(w, "model", j.model);
  str(w, "base_url", j.base_url);
  w.Key("temperature");
  w.Double(j.temperature);
  w.Key("seed");
  if (j.has_seed)
    w.Int64(j.seed);
  else
    w.Null();
  w.Key("supports_seed");
  w.Bool(j.supports_seed);
  w.Key("capacity");
  w.Uint(j.capacity);
  w.Key("max_tokens");
  w.Uint(j.max_tokens);
  w.Key("timeout_ms");
  w.Int64(j.timeout_ms);
  w.Key("max_attempts");
  w.Uint(j.max_attempts);
  w.Key("max_response_bytes");
  w.Uint64(j.max_response_bytes);
  // The variable's name only: the key itself never leaves the adapter.
  str(w, "api_key_env", j.api_key_env);
  str(w, "ca_file", j.ca_file);
  str(w, "prompt_id", j.prompt_id);
  str(w, "prompt_sha256", j.prompt_sha256);
  str(w, "version", j.version);
  w.EndObject();
}

std::string manifest_body(const std::string& run_id, const run_config& config,
                          const std::vector<judge_info>& judges,
                          const std::vector<std::string>& warnings,
                          std::int64_t started_at_ms) {
  rapidjson::StringBuffer sb;
  json_writer w(sb);
  w.StartObject();
  str(w, "tool", "invariance-judge");
  str(w, "version", IJ_VERSION);
  str(w, "run_id", run_id);
  str(w, "started_at", iso8601_utc(started_at_ms));
  str(w, "prompt_id", judge_prompt_id);
  str(w, "prompt_sha256", judge_prompt_template_sha256());
  w.Key("judges");
  w.StartArray();
  for (auto& j : judges)
    write_judge_info(w, j);
  w.EndArray();
  w.Key("config");
  write_run_config(w, config);
  w.Key("warnings");
  w.StartArray();
  for (auto& x : warnings)
    w.String(x.data(), static_cast<rapidjson::SizeType>(x.size()));
  w.EndArray();
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

} // namespace ij
