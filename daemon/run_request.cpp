#include "daemon/run_request.hpp"

#include <filesystem>
#include <system_error>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "messages/error.hpp"
#include "runio/calibration_file.hpp"
#include "runio/prompt_file.hpp"

namespace ij {

std::variant<run_request, error_reply>
parse_run_request(std::string_view content_type, std::string_view body) {
  if (media_type(content_type) != "application/json")
    return error_reply{415, "unsupported_media_type",
                       "POST /v1/runs takes application/json, not '"
                         + std::string{content_type} + "'"};
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError())
    return error_reply{400, "malformed_json",
                       "the body is not valid JSON at byte "
                         + std::to_string(doc.GetErrorOffset() + 1) + ": "
                         + rapidjson::GetParseError_En(doc.GetParseError())};
  if (!doc.IsObject())
    return error_reply{400, "bad_request", "the body must be a JSON object"};
  for (auto& m : doc.GetObject()) {
    std::string key{m.name.GetString(), m.name.GetStringLength()};
    if (key != "config" && key != "name")
      return error_reply{400, "unknown_field",
                         "/" + key + ": unknown field (known: config, name)"};
  }
  run_request out;
  if (doc.HasMember("name")) {
    if (!doc["name"].IsString())
      return error_reply{400, "bad_request", "/name: must be a string"};
    out.name = doc["name"].GetString();
  }
  out.config_text = "{}";
  if (doc.HasMember("config")) {
    if (!doc["config"].IsObject())
      return error_reply{400, "bad_config", "/config: must be a JSON object"};
    rapidjson::StringBuffer sb;
    rapidjson::Writer<rapidjson::StringBuffer> w(sb);
    doc["config"].Accept(w);
    out.config_text.assign(sb.GetString(), sb.GetSize());
  }
  // Errors read "/config: <pointer>: <what>" (the source named once).
  auto cfg = parse_config(out.config_text, "/config");
  if (!cfg)
    return error_reply{400, "bad_config", context_of(cfg.error())};
  out.config = std::move(*cfg);
  return out;
}

caf::error load_run_calibration(run_request& req) {
  auto& cfg = req.config;
  if (cfg.calibration.empty())
    return caf::none;
  std::error_code ec;
  auto path = std::filesystem::absolute(cfg.calibration, ec);
  if (ec)
    return make_error(errc::bad_config, "/config: /calibration: cannot resolve "
                                          + cfg.calibration + ": "
                                          + ec.message());
  cfg.calibration = path.lexically_normal().string();
  if (auto err = attach_calibration(cfg))
    return make_error(errc::bad_config, context_of(err));
  rapidjson::Document doc;
  doc.Parse(req.config_text.data(), req.config_text.size());
  auto& a = doc.GetAllocator();
  doc.RemoveMember("calibration");
  doc.RemoveMember("calibration_sha256");
  doc.AddMember("calibration", rapidjson::Value(cfg.calibration.c_str(), a), a);
  doc.AddMember("calibration_sha256",
                rapidjson::Value(cfg.calibration_sha256.c_str(), a), a);
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  doc.Accept(w);
  req.config_text.assign(sb.GetString(), sb.GetSize());
  return caf::none;
}

caf::error load_run_prompts(run_request& req) {
  auto& cfg = req.config;
  if (auto err = attach_prompts(cfg))
    return make_error(errc::bad_config, context_of(err));
  rapidjson::Document doc;
  doc.Parse(req.config_text.data(), req.config_text.size());
  if (!doc.IsObject() || !doc.HasMember("judges") || !doc["judges"].IsArray())
    return caf::none; // a short judge name has no declared prompt
  auto& a = doc.GetAllocator();
  auto& judges = doc["judges"];
  bool changed = false;
  for (rapidjson::SizeType i = 0; i < judges.Size() && i < cfg.judges.size();
       ++i)
    for (auto key : {"prompt", "non_numeric_prompt"}) {
      auto it = judges[i].FindMember(key);
      if (it == judges[i].MemberEnd() || !it->value.IsObject())
        continue;
      auto& spec = cfg.judges[i];
      const auto& p =
        std::string{key} == "prompt" ? spec.prompt : *spec.non_numeric_prompt;
      if (!p.declared()) { // a built-in's very bytes: the built-in id
        it->value.SetString(p.id.c_str(), a);
      } else {
        it->value.RemoveMember("file");
        it->value.RemoveMember("sha256");
        it->value.AddMember("file", rapidjson::Value(p.file.c_str(), a), a);
        it->value.AddMember("sha256", rapidjson::Value(p.sha256.c_str(), a), a);
      }
      changed = true;
    }
  if (!changed)
    return caf::none;
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  doc.Accept(w);
  req.config_text.assign(sb.GetString(), sb.GetSize());
  return caf::none;
}

} // namespace ij
