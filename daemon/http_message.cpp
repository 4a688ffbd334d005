#include "daemon/http_message.hpp"

#include <cctype>

#include <boost/beast/http.hpp>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace ij {

namespace http = boost::beast::http;

std::string media_type(std::string_view content_type) {
  std::string v{content_type.substr(0, content_type.find(';'))};
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t'))
    v.pop_back();
  for (auto& c : v)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return v;
}

http_response json_error(unsigned status, const std::string& code,
                         const std::string& message, unsigned version) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  w.StartObject();
  w.Key("error");
  w.StartObject();
  w.Key("code");
  w.String(code);
  w.Key("message");
  w.String(message);
  w.EndObject();
  w.EndObject();
  http_response res{static_cast<http::status>(status), version};
  res.set(http::field::content_type, "application/json");
  res.body().assign(sb.GetString(), sb.GetSize());
  res.body() += '\n';
  res.prepare_payload();
  return res;
}

http_ready_reply ready_reply(http_reply reply) {
  if (auto* r = std::get_if<http_response>(&reply))
    return std::move(*r);
  if (auto* f = std::get_if<http_file_response>(&reply))
    return std::move(*f);
  return json_error(500, "internal", "a deferred reply was deferred again");
}

} // namespace ij
