#include "daemon/api_client.hpp"

#include <optional>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace ij {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

std::string api_reply::header(const std::string& name) const {
  for (auto& [k, v] : headers)
    if (beast::iequals(k, name))
      return v;
  return {};
}

struct api_client::impl {
  std::string host, port, token, url_error;
  std::chrono::milliseconds timeout;
  net::io_context io;
  std::optional<beast::tcp_stream> stream;
  beast::flat_buffer buffer;

  bool connect(std::string& error) {
    stream.emplace(io);
    stream->expires_after(timeout);
    beast::error_code ec;
    tcp::resolver resolver{io};
    auto results = resolver.resolve(host, port, ec);
    if (!ec)
      stream->connect(results, ec);
    if (ec) {
      error = "cannot connect to " + host + ":" + port + ": " + ec.message();
      stream.reset();
      return false;
    }
    buffer.clear();
    return true;
  }

  api_reply once(const http::request<http::string_body>& req) {
    api_reply out;
    if (!stream && !connect(out.error))
      return out;
    beast::error_code ec;
    stream->expires_after(timeout);
    http::write(*stream, req, ec);
    http::response_parser<http::string_body> parser;
    parser.body_limit(std::uint64_t{1} << 32);
    if (!ec)
      http::read(*stream, buffer, parser, ec);
    if (ec) {
      out.error = "HTTP exchange with " + host + ":" + port + " failed: "
                  + ec.message();
      stream.reset();
      return out;
    }
    auto res = parser.release();
    out.status = res.result_int();
    out.body = std::move(res.body());
    for (auto& f : res)
      out.headers.emplace_back(std::string{f.name_string()},
                               std::string{f.value()});
    if (!res.keep_alive())
      stream.reset();
    return out;
  }
};

api_client::api_client(std::string base_url, std::string token,
                       std::chrono::milliseconds timeout)
  : impl_(std::make_unique<impl>()) {
  impl_->token = std::move(token);
  impl_->timeout = timeout;
  const std::string scheme = "http://";
  if (base_url.compare(0, scheme.size(), scheme) != 0) {
    impl_->url_error = "the server URL must start with http://: " + base_url;
    return;
  }
  auto rest = base_url.substr(scheme.size());
  rest = rest.substr(0, rest.find('/'));
  auto colon = rest.rfind(':');
  if (colon == std::string::npos || colon + 1 == rest.size()) {
    impl_->url_error = "the server URL must name a port: " + base_url;
    return;
  }
  impl_->host = rest.substr(0, colon);
  impl_->port = rest.substr(colon + 1);
}

api_client::~api_client() = default;

bool api_client::valid(std::string& error) const {
  error = impl_->url_error;
  return error.empty();
}

api_reply api_client::request(const std::string& method,
                              const std::string& target,
                              const std::string& body,
                              const std::string& content_type) {
  if (!impl_->url_error.empty())
    return {0, {}, impl_->url_error, {}};
  http::request<http::string_body> req{http::string_to_verb(method), target,
                                       11};
  req.set(http::field::host, impl_->host);
  req.set(http::field::user_agent, "invjudge-submit");
  if (!impl_->token.empty())
    req.set(http::field::authorization, "Bearer " + impl_->token);
  if (!content_type.empty())
    req.set(http::field::content_type, content_type);
  req.body() = body;
  req.keep_alive(true);
  req.prepare_payload();
  bool reused = impl_->stream.has_value();
  auto out = impl_->once(req);
  // A kept-alive connection the server had closed meanwhile: once more.
  if (out.status == 0 && reused)
    out = impl_->once(req);
  return out;
}

} // namespace ij
