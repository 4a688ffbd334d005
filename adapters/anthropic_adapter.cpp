#include "adapters/anthropic_adapter.hpp"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace ij {

namespace {

std::uint64_t count_member(const rapidjson::Value& obj, const char* name) {
  auto it = obj.FindMember(name);
  return it != obj.MemberEnd() && it->value.IsUint64() ? it->value.GetUint64() : 0;
}

bool parse_message(const std::string& body, adapter_reply& out, std::string& error) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    error = doc.HasParseError()
              ? std::string("malformed JSON (") +
                  rapidjson::GetParseError_En(doc.GetParseError()) + "): " +
                  body_excerpt(body)
              : "not a JSON object: " + body_excerpt(body);
    return false;
  }
  auto type = doc.FindMember("type");
  if (type != doc.MemberEnd() && type->value.IsString() &&
      std::string(type->value.GetString()) == "error") {
    error = "server error: " + parse_api_error(body).message;
    return false;
  }
  auto content = doc.FindMember("content");
  if (content == doc.MemberEnd() || !content->value.IsArray()) {
    error = "no \"content\" array: " + body_excerpt(body);
    return false;
  }
  // Join every text block; thinking / tool_use blocks are not the answer.
  for (auto& block : content->value.GetArray()) {
    if (!block.IsObject())
      continue;
    auto bt = block.FindMember("type");
    auto text = block.FindMember("text");
    if (bt != block.MemberEnd() && bt->value.IsString() &&
        std::string(bt->value.GetString()) == "text" &&
        text != block.MemberEnd() && text->value.IsString())
      out.text.append(text->value.GetString(), text->value.GetStringLength());
  }
  auto usage = doc.FindMember("usage");
  if (usage != doc.MemberEnd() && usage->value.IsObject()) {
    out.input_tokens = count_member(usage->value, "input_tokens");
    out.output_tokens = count_member(usage->value, "output_tokens");
  }
  return true;
}

} // namespace

const http_protocol anthropic_adapter::protocol{&parse_message, nullptr};

anthropic_adapter::anthropic_adapter(std::string api_key,
                                     std::unique_ptr<http_client> client)
  : http_judge("anthropic", protocol, std::move(api_key), std::move(client)) {
}

std::string anthropic_adapter::request_body(const std::string& prompt,
                                            const call_options& opts) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  w.StartObject();
  w.Key("model");
  w.String(opts.model);
  w.Key("max_tokens");
  w.Uint(opts.max_tokens);
  w.Key("messages");
  w.StartArray();
  w.StartObject();
  w.Key("role");
  w.String("user");
  w.Key("content");
  w.String(prompt);
  w.EndObject();
  w.EndArray();
  w.Key("temperature");
  w.Double(opts.temperature);
  w.EndObject();
  return {buf.GetString(), buf.GetSize()};
}

http_post anthropic_adapter::make_request(const std::string& prompt,
                                          const call_options& opts) const {
  http_post p;
  p.target = base().path + "/v1/messages";
  p.headers = {{"x-api-key", secret()}, {"anthropic-version", "2023-06-01"}};
  p.body = request_body(prompt, opts);
  return p;
}

} // namespace ij
