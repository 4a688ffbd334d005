#include "adapters/ollama_adapter.hpp"

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

bool parse_chat(const std::string& body, adapter_reply& out, std::string& error) {
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
  // An error can come with status 200 (the last line of a stream).
  auto err = doc.FindMember("error");
  if (err != doc.MemberEnd()) {
    error = "server error: " + parse_api_error(body).message;
    return false;
  }
  auto msg = doc.FindMember("message");
  if (msg == doc.MemberEnd() || !msg->value.IsObject()) {
    error = "no \"message\" object: " + body_excerpt(body);
    return false;
  }
  auto content = msg->value.FindMember("content");
  if (content != msg->value.MemberEnd()) {
    if (content->value.IsString())
      out.text.assign(content->value.GetString(), content->value.GetStringLength());
    else if (!content->value.IsNull()) {
      error = "\"message.content\" is not a string";
      return false;
    }
  }
  // Metrics are omitempty: missing counts stay 0.
  out.input_tokens = count_member(doc, "prompt_eval_count");
  out.output_tokens = count_member(doc, "eval_count");
  return true;
}

std::string advise(unsigned status, const api_error& err, const std::string& model) {
  if (status == 404 && err.message.find("not found") != std::string::npos)
    return "the model is not on the Ollama host; run `ollama pull " + model +
           "` there";
  return {};
}

} // namespace

const http_protocol ollama_adapter::protocol{&parse_chat, &advise};

ollama_adapter::ollama_adapter(std::unique_ptr<http_client> client)
  : http_judge("ollama", protocol, std::string{}, std::move(client)) {
}

std::string ollama_adapter::request_body(const std::string& prompt,
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
  w.Key("stream");
  w.Bool(false);
  w.Key("options");
  w.StartObject();
  w.Key("temperature");
  w.Double(opts.temperature);
  if (opts.seed) {
    w.Key("seed");
    w.Int64(*opts.seed);
  }
  w.Key("num_predict");
  w.Uint(opts.max_tokens);
  w.EndObject();
  w.EndObject();
  return {buf.GetString(), buf.GetSize()};
}

http_post ollama_adapter::make_request(const std::string& prompt,
                                       const call_options& opts) const {
  http_post p;
  p.target = base().path + "/api/chat";
  p.body = request_body(prompt, opts);
  return p;
}

} // namespace ij
