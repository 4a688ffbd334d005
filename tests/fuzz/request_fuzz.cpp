// libFuzzer harness of the daemon's request path, the parts a client
// controls before any run is touched: any bytes as an HTTP/1.1 request
// (Beast's parser with the daemon's header and body limits, so headers and
// body framing: Content-Length, chunked, junk), then routing (the daemon's
// route table), the bearer token check, the media type, the POST /v1/runs
// body (JSON, its fields, the run configuration) and pair lines (JSON Lines
// with duplicate ids). Whatever the bytes: no crash, hang or sanitizer
// report; every error rendered is JSON with a code; a matched route has its
// {id}. Run by scripts/fuzz beside the rule judges' harness.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http.hpp>
#include <rapidjson/document.h>

#include "daemon/api_result.hpp"
#include "daemon/api_routes.hpp"
#include "daemon/bearer_token.hpp"
#include "daemon/run_request.hpp"
#include "messages/error.hpp"
#include "runio/pair_reader.hpp"

namespace http = boost::beast::http;

namespace {

void require(bool ok) {
  if (!ok)
    __builtin_trap();
}

// A rendered error must be {"error": {"code": "...", "message": "..."}}.
void check_error(const ij::error_reply& e) {
  auto reply = ij::render_result(e);
  auto* res = std::get_if<ij::http_response>(&reply);
  require(res != nullptr);
  rapidjson::Document d;
  d.Parse(res->body());
  require(d.IsObject() && d.HasMember("error") && d["error"].IsObject()
          && d["error"].HasMember("code") && d["error"]["code"].IsString()
          && d["error"].HasMember("message"));
}

void pair_lines(std::string_view body) {
  ij::id_set ids;
  while (!body.empty()) {
    auto nl = body.find('\n');
    auto line = body.substr(0, nl);
    body.remove_prefix(nl == std::string_view::npos ? body.size() : nl + 1);
    auto pair = ij::parse_pair_line(line);
    if (pair)
      ids.insert(pair->id);
    else
      require(!ij::context_of(pair.error()).empty());
  }
}

void route(const ij::http_request& req) {
  std::string target{req.target()};
  auto path = target.substr(0, target.find('?'));
  auto match = ij::api_routes().find(req.method(), path);
  ij::bearer_matches(ij::header_value(req, http::field::authorization),
                     "tok-fuzz");
  ij::media_type(ij::header_value(req, http::field::content_type));
  if (!match.found)
    return;
  auto endpoint = match.found->handler.endpoint;
  auto& pattern = match.found->pattern;
  require(pattern.find("{id}") == std::string::npos
          || !match.params.get("id").empty());
  if (endpoint == ij::api_endpoint::create_run) {
    auto parsed = ij::parse_run_request(
      ij::header_value(req, http::field::content_type), req.body());
    if (auto* e = std::get_if<ij::error_reply>(&parsed))
      check_error(*e);
  } else if (endpoint == ij::api_endpoint::upload_pairs) {
    pair_lines(req.body());
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  http::request_parser<http::string_body> parser;
  parser.header_limit(16u << 10);
  parser.body_limit(1u << 20);
  parser.eager(true);
  boost::beast::error_code ec;
  std::size_t used = 0;
  while (used < size && !parser.is_done() && !ec) {
    auto n = parser.put(boost::asio::buffer(data + used, size - used), ec);
    used += n;
    // need_more asks for bytes beyond all those offered: Beast's read calls
    // put again only once more have come (the parser asserts it: it parsed
    // a final chunk's trailer start and expects a longer buffer), and a
    // fuzz input has no more. The client closed here.
    if (ec == http::error::need_more) {
      ec = {};
      break;
    }
  }
  // The client closed: the body ends here (as Beast's read does, only once
  // some bytes came).
  if (!ec && !parser.is_done() && parser.got_some())
    parser.put_eof(ec);
  if (!parser.is_header_done())
    return 0;
  if (ec) {
    check_error(
      {400, "bad_request", "malformed HTTP request: " + ec.message()});
    return 0;
  }
  if (parser.is_done())
    route(parser.get());
  return 0;
}
