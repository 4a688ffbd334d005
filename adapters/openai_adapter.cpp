#include "adapters/openai_adapter.hpp"

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

bool parse_completion(const std::string& body, adapter_reply& out,
                      std::string& error) {
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
  if (doc.HasMember("error") && !doc.HasMember("choices")) {
    error = "server error: " + parse_api_error(body).message;
    return false;
  }
  auto choices = doc.FindMember("choices");
  if (choices == doc.MemberEnd() || !choices->value.IsArray() ||
      choices->value.Empty() || !choices->value[0].IsObject()) {
    error = "no \"choices\": " + body_excerpt(body);
    return false;
  }
  auto& choice = choices->value[0];
  auto msg = choice.FindMember("message");
  if (msg == choice.MemberEnd() || !msg->value.IsObject()) {
    error = "no \"choices[0].message\": " + body_excerpt(body);
    return false;
  }
  auto content = msg->value.FindMember("content");
  if (content != msg->value.MemberEnd()) {
    if (content->value.IsString())
      out.text.assign(content->value.GetString(), content->value.GetStringLength());
    else if (!content->value.IsNull()) {
      error = "\"message.content\" is neither a string nor null";
      return false;
    }
  }
  auto usage = doc.FindMember("usage");
  if (usage != doc.MemberEnd() && usage->value.IsObject()) {
    out.input_tokens = count_member(usage->value, "prompt_tokens");
    out.output_tokens = count_member(usage->value, "completion_tokens");
  }
  return true;
}

} // namespace

const http_protocol openai_adapter::protocol{&parse_completion, nullptr};

openai_adapter::openai_adapter(std::string api_key,
                               std::unique_ptr<http_client> client)
  : http_judge("openai", protocol, std::move(api_key), std::move(client)) {
}

std::string openai_adapter::request_body(const std::string& prompt,
                                         const call_options& opts) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  w.StartObject();
  w.Key("model");
  w.String(opts.model);
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
  w.Key("max_tokens");
  w.Uint(opts.max_tokens);
  if (opts.seed) {
    w.Key("seed");
    w.Int64(*opts.seed);
  }
  w.Key("stream");
  w.Bool(false);
  w.EndObject();
  return {buf.GetString(), buf.GetSize()};
}

http_post openai_adapter::make_request(const std::string& prompt,
                                       const call_options& opts) const {
  http_post p;
  p.target = base().path + "/chat/completions";
  if (!secret().empty())
    p.headers = {{"authorization", "Bearer " + secret()}};
  p.body = request_body(prompt, opts);
  return p;
}

} // namespace ij
