#include "adapters/api_error.hpp"

#include <rapidjson/document.h>

namespace ij {

namespace {

std::string string_member(const rapidjson::Value& obj, const char* name) {
  if (!obj.IsObject())
    return {};
  auto it = obj.FindMember(name);
  if (it == obj.MemberEnd() || !it->value.IsString())
    return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

} // namespace

std::string body_excerpt(const std::string& body, std::size_t max_chars) {
  std::string out;
  bool in_tag = false;
  bool space = false;
  for (unsigned char c : body) {
    if (out.size() >= max_chars)
      break;
    if (c == '<') {
      in_tag = true;
      space = true;
      continue;
    }
    if (in_tag) {
      if (c == '>')
        in_tag = false;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      space = true;
      continue;
    }
    if (space && !out.empty())
      out += ' ';
    space = false;
    out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
  }
  if (out.size() >= max_chars)
    out += "...";
  return out;
}

api_error parse_api_error(const std::string& body) {
  api_error out;
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (!doc.HasParseError() && doc.IsObject()) {
    auto err = doc.FindMember("error");
    if (err != doc.MemberEnd()) {
      if (err->value.IsString()) { // Ollama native
        out.message.assign(err->value.GetString(),
                           err->value.GetStringLength());
      } else if (err->value.IsObject()) { // Anthropic, OpenAI, vLLM, llama.cpp
        out.message = string_member(err->value, "message");
        out.type = string_member(err->value, "type");
      }
    }
    if (out.message.empty()) { // old vLLM flat shape
      out.message = string_member(doc, "message");
      if (out.type.empty() && string_member(doc, "object") == "error")
        out.type = string_member(doc, "type");
    }
    if (out.message.empty())
      out.message = string_member(doc, "detail"); // FastAPI-style servers
  }
  if (out.message.empty())
    out.message = body_excerpt(body);
  else
    out.message = body_excerpt(out.message, 400);
  if (out.message.empty())
    out.message = "(empty body)";
  return out;
}

fault_kind fault_of_status(unsigned status) {
  if (status == 401 || status == 403)
    return fault_kind::auth;
  if (status == 408)
    return fault_kind::timeout;
  if (status == 429 || status == 529)
    return fault_kind::rate_limited;
  if (status >= 500)
    return fault_kind::server_error;
  return fault_kind::bad_request;
}

} // namespace ij
