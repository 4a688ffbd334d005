#include "core/audit/run_manifest.hpp"

#include <algorithm>

#include "core/audit/audit_record.hpp"
#include "core/json_fields.hpp"
#include "core/prompts/prompt.hpp"

#ifndef IJ_VERSION
#define IJ_VERSION "unknown"
#endif

namespace ij {

using json_writer = rapidjson::Writer<rapidjson::StringBuffer>;

const char* software_version() {
  return IJ_VERSION;
}

void write_judge_info(json_writer& w, const judge_info& j) {
  w.StartObject();
  json::string(w, "judge_id", j.judge_id);
  json::string(w, "worker_id", j.worker_id);
  json::string(w, "host", j.host);
  json::string(w, "name", j.name);
  json::string(w, "type", j.adapter_type);
  json::string(w, "adapter_id", j.adapter_id);
  json::string(w, "model", j.model);
  json::string(w, "base_url", j.base_url);
  json::number(w, "temperature", j.temperature);
  json::key(w, "seed");
  if (j.has_seed)
    w.Int64(j.seed);
  else
    w.Null();
  json::boolean(w, "supports_seed", j.supports_seed);
  json::uint(w, "capacity", j.capacity);
  json::uint(w, "max_tokens", j.max_tokens);
  json::sint(w, "timeout_ms", j.timeout_ms);
  json::uint(w, "max_attempts", j.max_attempts);
  json::uint(w, "max_response_bytes", j.max_response_bytes);
  // The variable's name only: the key itself never leaves the adapter.
  json::string(w, "api_key_env", j.api_key_env);
  json::string(w, "ca_file", j.ca_file);
  // Only when set, so that manifests of runs without them read as before.
  if (j.logprobs)
    json::boolean(w, "logprobs", true);
  if (!j.constrain.empty() && j.constrain != "none")
    json::string(w, "constrain", j.constrain);
  json::string(w, "prompt_id", j.prompt_id);
  json::string(w, "prompt_sha256", j.prompt_sha256);
  json::string(w, "non_numeric_prompt_id", j.non_numeric_prompt_id);
  json::string(w, "non_numeric_prompt_sha256", j.non_numeric_prompt_sha256);
  json::string(w, "version", j.version);
  w.EndObject();
}

std::string manifest_body(const std::string& run_id, const run_config& config,
                          const std::vector<judge_info>& judges,
                          const std::vector<std::string>& warnings,
                          std::int64_t started_at_ms) {
  rapidjson::StringBuffer sb;
  json_writer w(sb);
  w.StartObject();
  json::string(w, "tool", "invariance-judge");
  json::string(w, "version", IJ_VERSION);
  json::string(w, "run_id", run_id);
  json::string(w, "started_at", iso8601_utc(started_at_ms));
  json::string(w, "prompt_id", judge_prompt_id);
  json::string(w, "prompt_sha256", judge_prompt_template_sha256());
  // Every prompt the run's judges send (issue 29), each once: a declared
  // template with its file, as read.
  w.Key("prompts");
  w.StartArray();
  std::vector<std::string> seen;
  for (auto& spec : config.judges)
    for (auto& choice : {spec.prompt, non_numeric_choice(spec)}) {
      auto who = identity_of(choice);
      if (std::find(seen.begin(), seen.end(), who.id + " " + who.sha256)
          != seen.end())
        continue;
      seen.push_back(who.id + " " + who.sha256);
      w.StartObject();
      json::string(w, "id", who.id);
      json::string(w, "sha256", who.sha256);
      json::string(w, "source", choice.declared() ? "file" : "built-in");
      if (choice.declared())
        json::string(w, "file", choice.file);
      w.EndObject();
    }
  w.EndArray();
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
