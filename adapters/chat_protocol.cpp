#include "adapters/chat_protocol.hpp"

#include <cstring>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/pointer.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace ij {

namespace {

using shape = chat_protocol::content_shape;

std::string ollama_advice(unsigned status, const api_error& err, const std::string& model) {
  if (status == 404 && err.message.find("not found") != std::string::npos)
    return "the model is not on the Ollama host; run `ollama pull " + model + "` there";
  return {};
}

const chat_protocol ollama{
  "ollama", "/api/chat",
  nullptr, nullptr, nullptr, nullptr,
  "options", "num_predict", true, true,
  "/message", shape::text_or_null, "/prompt_eval_count", "/eval_count",
  &ollama_advice};

const chat_protocol anthropic{
  "anthropic", "/v1/messages",
  "x-api-key", "", "anthropic-version", "2023-06-01",
  nullptr, "max_tokens", false, false,
  "", shape::text_blocks, "/usage/input_tokens", "/usage/output_tokens",
  nullptr};

const chat_protocol openai{
  "openai", "/chat/completions",
  "authorization", "Bearer ", nullptr, nullptr,
  nullptr, "max_tokens", true, true,
  "/choices/0/message", shape::text_or_null, "/usage/prompt_tokens",
  "/usage/completion_tokens",
  nullptr};

std::uint64_t count_at(const rapidjson::Document& doc, const char* pointer) {
  auto v = rapidjson::Pointer(pointer).Get(doc);
  return v && v->IsUint64() ? v->GetUint64() : 0;
}

/// The API's own error shape in a 2xx body: {"error": ...} (Ollama's last
/// stream line, OpenAI-compatible servers) or {"type": "error"} (Anthropic).
bool error_shaped(const rapidjson::Document& doc) {
  if (doc.HasMember("error"))
    return true;
  auto type = doc.FindMember("type");
  return type != doc.MemberEnd() && type->value.IsString()
         && std::strcmp(type->value.GetString(), "error") == 0;
}

std::string quoted_pointer(const char* pointer, const char* member) {
  return std::string{"\""} + pointer + (*pointer ? "/" : "") + member + "\"";
}

bool read_content(const chat_protocol& p, const rapidjson::Value& content,
                  adapter_reply& out, std::string& error) {
  if (p.content == shape::text_blocks) {
    // Join every text block; thinking / tool_use blocks are not the answer.
    for (auto& block : content.GetArray()) {
      if (!block.IsObject())
        continue;
      auto type = block.FindMember("type");
      auto text = block.FindMember("text");
      if (type != block.MemberEnd() && type->value.IsString()
          && std::strcmp(type->value.GetString(), "text") == 0
          && text != block.MemberEnd() && text->value.IsString())
        out.text.append(text->value.GetString(), text->value.GetStringLength());
    }
    return true;
  }
  if (content.IsString()) {
    out.text.assign(content.GetString(), content.GetStringLength());
    return true;
  }
  if (content.IsNull())
    return true;
  error = quoted_pointer(p.message_pointer, "content") + " is neither a string nor null";
  return false;
}

} // namespace

const chat_protocol* chat_protocol_for(const std::string& type) {
  if (type == "ollama")
    return &ollama;
  if (type == "anthropic")
    return &anthropic;
  if (type == "openai")
    return &openai;
  return nullptr;
}

std::string chat_request_body(const chat_protocol& p, const std::string& prompt,
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
  if (p.sends_stream_false) {
    w.Key("stream");
    w.Bool(false);
  }
  if (p.sampling_object) {
    w.Key(p.sampling_object);
    w.StartObject();
  }
  // Sent explicitly: a backend's own defaults (Ollama: temperature 0.8, no
  // token cap) are not what the judge was configured with.
  w.Key("temperature");
  w.Double(opts.temperature);
  if (p.sends_seed && opts.seed) {
    w.Key("seed");
    w.Int64(*opts.seed);
  }
  w.Key(p.max_tokens_field);
  w.Uint(opts.max_tokens);
  if (p.sampling_object)
    w.EndObject();
  w.EndObject();
  return {buf.GetString(), buf.GetSize()};
}

http_post chat_request(const chat_protocol& p, const std::string& base_path,
                       const std::string& key, const std::string& prompt,
                       const call_options& opts) {
  http_post post;
  post.target = base_path + p.path;
  if (p.key_header && !key.empty())
    post.headers.emplace_back(p.key_header, p.key_prefix + key);
  if (p.fixed_header)
    post.headers.emplace_back(p.fixed_header, p.fixed_header_value);
  post.body = chat_request_body(p, prompt, opts);
  post.timeout = opts.timeout;
  return post;
}

bool read_chat_reply(const chat_protocol& p, const std::string& body,
                     adapter_reply& out, std::string& error) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError()) {
    error = std::string("malformed JSON (") + rapidjson::GetParseError_En(doc.GetParseError())
            + "): " + body_excerpt(body);
    return false;
  }
  if (!doc.IsObject()) {
    error = "not a JSON object: " + body_excerpt(body);
    return false;
  }
  const rapidjson::Value* message = rapidjson::Pointer(p.message_pointer).Get(doc);
  const rapidjson::Value* content = nullptr;
  if (message && message->IsObject()) {
    auto it = message->FindMember("content");
    if (it != message->MemberEnd())
      content = &it->value;
  }
  bool usable = p.content == shape::text_blocks
                  ? content && content->IsArray()
                  : message && message->IsObject();
  if (!usable) {
    // An error can come with status 200 (Ollama's last stream line).
    if (error_shaped(doc))
      error = "server error: " + parse_api_error(body).message;
    else if (p.content == shape::text_blocks)
      error = "no " + quoted_pointer(p.message_pointer, "content") + " array: "
              + body_excerpt(body);
    else
      error = std::string{"no \""} + p.message_pointer + "\" object: " + body_excerpt(body);
    return false;
  }
  if (content && !read_content(p, *content, out, error))
    return false;
  out.input_tokens = count_at(doc, p.input_tokens_pointer);
  out.output_tokens = count_at(doc, p.output_tokens_pointer);
  return true;
}

} // namespace ij
