#include "adapters/chat_protocol.hpp"

#include <cstring>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/pointer.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/calibration/decision_probs.hpp"
#include "core/config/judge_spec.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

using shape = chat_protocol::content_shape;
using json_style = chat_protocol::json_style;

constexpr std::string_view regex_text =
  "DECISION: (EQUIVALENT|DIFFERENT|ABSTAIN)\nREASON: [^\n]{1,400}\n"
  "NUMERIC_A: [^\n]{1,64}\nNUMERIC_B: [^\n]{1,64}";

constexpr std::string_view gbnf_text =
  "root ::= \"DECISION: \" decision \"\\nREASON: \" reason \"\\nNUMERIC_A: \" "
  "value \"\\nNUMERIC_B: \" value\n"
  "decision ::= \"EQUIVALENT\" | \"DIFFERENT\" | \"ABSTAIN\"\n"
  "reason ::= [^\\n]{1,400}\n"
  "value ::= [^\\n]{1,64}\n";

constexpr std::string_view schema_text =
  R"({"type":"object","properties":{)"
  R"("decision":{"type":"string","enum":["EQUIVALENT","DIFFERENT","ABSTAIN"]},)"
  R"("reason":{"type":"string"},)"
  R"("numeric_a":{"type":["string","null"]},)"
  R"("numeric_b":{"type":["string","null"]}},)"
  R"("required":["decision","reason","numeric_a","numeric_b"],)"
  R"("additionalProperties":false})";

std::string ollama_advice(unsigned status, const api_error& err,
                          const std::string& model) {
  if (status == 404 && err.message.find("not found") != std::string::npos)
    return "the model is not on the Ollama host; run `ollama pull " + model
           + "` there";
  return {};
}

const chat_protocol ollama{"ollama",
                           "/api/chat",
                           nullptr,
                           nullptr,
                           nullptr,
                           nullptr,
                           "options",
                           "num_predict",
                           true,
                           true,
                           json_style::format_schema,
                           false,
                           "/logprobs",
                           "/message",
                           shape::text_or_null,
                           "/prompt_eval_count",
                           "/eval_count",
                           &ollama_advice};

const chat_protocol anthropic{"anthropic",
                              "/v1/messages",
                              "x-api-key",
                              "",
                              "anthropic-version",
                              "2023-06-01",
                              nullptr,
                              "max_tokens",
                              false,
                              false,
                              json_style::forced_tool,
                              false,
                              nullptr,
                              "",
                              shape::text_blocks,
                              "/usage/input_tokens",
                              "/usage/output_tokens",
                              nullptr};

const chat_protocol openai{"openai",
                           "/chat/completions",
                           "authorization",
                           "Bearer ",
                           nullptr,
                           nullptr,
                           nullptr,
                           "max_tokens",
                           true,
                           true,
                           json_style::response_format,
                           true,
                           "/choices/0/logprobs/content",
                           "/choices/0/message",
                           shape::text_or_null,
                           "/usage/prompt_tokens",
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

/// The input of a tool_use block of the verdict tool, as JSON text.
void append_verdict_input(const rapidjson::Value& block, std::string& text) {
  auto name = block.FindMember("name");
  auto input = block.FindMember("input");
  if (name == block.MemberEnd() || !name->value.IsString()
      || std::strcmp(name->value.GetString(), verdict_tool_name) != 0
      || input == block.MemberEnd() || !input->value.IsObject())
    return;
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  input->value.Accept(w);
  text.append(buf.GetString(), buf.GetSize());
}

/// The token list at the protocol's pointer ({token, logprob, top_logprobs}
/// entries; extra members such as bytes or llama.cpp's id are ignored), as
/// decision probabilities; empty when the body has none.
std::vector<double> read_decision_probs(const chat_protocol& p,
                                        const rapidjson::Document& doc) {
  if (!p.logprobs_pointer)
    return {};
  auto list = rapidjson::Pointer(p.logprobs_pointer).Get(doc);
  if (!list || !list->IsArray())
    return {};
  auto entry_of = [](const rapidjson::Value& v, std::string& token,
                     double& logprob) {
    if (!v.IsObject())
      return false;
    auto t = v.FindMember("token");
    auto l = v.FindMember("logprob");
    if (t == v.MemberEnd() || !t->value.IsString() || l == v.MemberEnd()
        || !l->value.IsNumber())
      return false;
    token.assign(t->value.GetString(), t->value.GetStringLength());
    logprob = l->value.GetDouble();
    return true;
  };
  std::vector<token_logprob> tokens;
  for (auto& v : list->GetArray()) {
    token_logprob t;
    if (!entry_of(v, t.token, t.logprob))
      return {}; // not the documented shape: nothing is read from it
    auto top = v.FindMember("top_logprobs");
    if (top != v.MemberEnd() && top->value.IsArray())
      for (auto& alt : top->value.GetArray()) {
        std::pair<std::string, double> a;
        if (entry_of(alt, a.first, a.second))
          t.top.push_back(std::move(a));
      }
    tokens.push_back(std::move(t));
  }
  return decision_probs_of(tokens);
}

void write_constraint(const chat_protocol& p,
                      rapidjson::Writer<rapidjson::StringBuffer>& w,
                      reply_constraint c) {
  auto raw = [&](std::string_view json) {
    w.RawValue(json.data(), json.size(), rapidjson::kObjectType);
  };
  auto str = [&](std::string_view text) {
    w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  };
  if (c == reply_constraint::grammar && p.accepts_grammar) {
    w.Key("structured_outputs"); // vLLM
    w.StartObject();
    w.Key("regex");
    str(verdict_regex());
    w.EndObject();
    w.Key("grammar"); // llama.cpp
    str(verdict_gbnf());
  }
  if (c != reply_constraint::json)
    return;
  switch (p.json_constraint) {
    case json_style::format_schema:
      w.Key("format");
      raw(verdict_json_schema());
      break;
    case json_style::response_format:
      w.Key("response_format");
      w.StartObject();
      w.Key("type");
      w.String("json_schema");
      w.Key("json_schema");
      w.StartObject();
      w.Key("name");
      w.String(verdict_tool_name);
      w.Key("strict");
      w.Bool(true);
      w.Key("schema");
      raw(verdict_json_schema());
      w.EndObject();
      w.EndObject();
      break;
    case json_style::forced_tool:
      w.Key("tools");
      w.StartArray();
      w.StartObject();
      w.Key("name");
      w.String(verdict_tool_name);
      w.Key("description");
      w.String("Record the verdict: the four fields the prompt asks for.");
      w.Key("input_schema");
      raw(verdict_json_schema());
      w.EndObject();
      w.EndArray();
      w.Key("tool_choice");
      w.StartObject();
      w.Key("type");
      w.String("tool");
      w.Key("name");
      w.String(verdict_tool_name);
      w.EndObject();
      break;
  }
}

caf::error read_content(const chat_protocol& p, const rapidjson::Value& content,
                        adapter_reply& out) {
  if (p.content == shape::text_blocks) {
    // Join every text block; thinking blocks and other tools' calls are not
    // the answer. The forced verdict tool's input is ("constrain": "json").
    for (auto& block : content.GetArray()) {
      if (!block.IsObject())
        continue;
      auto type = block.FindMember("type");
      if (type == block.MemberEnd() || !type->value.IsString())
        continue;
      auto text = block.FindMember("text");
      if (std::strcmp(type->value.GetString(), "text") == 0
          && text != block.MemberEnd() && text->value.IsString())
        out.text.append(text->value.GetString(), text->value.GetStringLength());
      if (std::strcmp(type->value.GetString(), "tool_use") == 0)
        append_verdict_input(block, out.text);
    }
    return {};
  }
  if (content.IsString()) {
    out.text.assign(content.GetString(), content.GetStringLength());
    return {};
  }
  if (content.IsNull())
    return {};
  return make_error(errc::bad_reply,
                    quoted_pointer(p.message_pointer, "content")
                      + " is neither a string nor null");
}

} // namespace

std::string_view verdict_regex() {
  return regex_text;
}

std::string_view verdict_gbnf() {
  return gbnf_text;
}

std::string_view verdict_json_schema() {
  return schema_text;
}

const chat_protocol* chat_protocol_for(const std::string& type) {
  for (auto* p : {&ollama, &anthropic, &openai})
    if (type == p->kind)
      return p;
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
  if (opts.logprobs && p.logprobs_pointer) {
    w.Key("logprobs");
    w.Bool(true);
    w.Key("top_logprobs");
    w.Uint(decision_top_logprobs);
  }
  write_constraint(p, w, opts.constrain);
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

caf::expected<adapter_reply> read_chat_reply(const chat_protocol& p,
                                             const std::string& body) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError())
    return make_error(errc::bad_reply,
                      std::string("malformed JSON (")
                        + rapidjson::GetParseError_En(doc.GetParseError())
                        + "): " + body_excerpt(body));
  if (!doc.IsObject())
    return make_error(errc::bad_reply,
                      "not a JSON object: " + body_excerpt(body));
  const rapidjson::Value* message =
    rapidjson::Pointer(p.message_pointer).Get(doc);
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
      return make_error(errc::bad_reply,
                        "server error: " + parse_api_error(body).message);
    if (p.content == shape::text_blocks)
      return make_error(errc::bad_reply,
                        "no " + quoted_pointer(p.message_pointer, "content")
                          + " array: " + body_excerpt(body));
    return make_error(errc::bad_reply, std::string{"no \""} + p.message_pointer
                                         + "\" object: " + body_excerpt(body));
  }
  adapter_reply out;
  if (content)
    if (auto err = read_content(p, *content, out))
      return err;
  out.input_tokens = count_at(doc, p.input_tokens_pointer);
  out.output_tokens = count_at(doc, p.output_tokens_pointer);
  out.decision_probs = read_decision_probs(p, doc);
  return out;
}

} // namespace ij
