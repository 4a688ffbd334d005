#include "tools/api_client.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/ssl.h>

#include "messages/error.hpp"

namespace ij {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
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
  std::string host, port, token;
  std::string ca_file;   // --tls-ca, for messages
  caf::error init_error; // the URL or a TLS file is unusable
  std::chrono::milliseconds timeout;
  net::io_context io;
  std::optional<ssl::context> tls; // https:// only
  std::optional<beast::tcp_stream> plain;
  std::optional<beast::ssl_stream<beast::tcp_stream>> secure;
  beast::flat_buffer buffer;

  bool connected() const { return plain || secure; }
  void drop() {
    plain.reset();
    secure.reset();
  }
  beast::tcp_stream& lowest() {
    return secure ? beast::get_lowest_layer(*secure) : *plain;
  }

  caf::error connect() {
    if (tls)
      secure.emplace(io, *tls);
    else
      plain.emplace(io);
    lowest().expires_after(timeout);
    beast::error_code ec;
    tcp::resolver resolver{io};
    auto results = resolver.resolve(host, port, ec);
    if (!ec)
      lowest().connect(results, ec);
    if (ec) {
      drop();
      return make_error(errc::unreachable, "cannot connect to " + host + ":"
                                             + port + ": " + ec.message());
    }
    if (secure) {
      // The server's name is checked (an IP address against the
      // certificate's IP entries); SNI names a host, never an address.
      net::ip::make_address(host, ec);
      if (ec)
        SSL_set_tlsext_host_name(secure->native_handle(), host.c_str());
      secure->set_verify_callback(ssl::host_name_verification(host));
      secure->handshake(ssl::stream_base::client, ec);
      if (ec) {
        drop();
        return make_error(errc::unreachable,
                          "TLS handshake with " + host + ":" + port
                            + " failed: " + ec.message() + handshake_hint(ec));
      }
    }
    buffer.clear();
    return caf::none;
  }

  // What a failed handshake most likely means, and what to do about it.
  std::string handshake_hint(const beast::error_code& ec) const {
    auto what = ec.message();
    if (what.find("certificate verify failed") != std::string::npos)
      return ": the daemon's certificate is not signed by a CA this client "
             "trusts ("
             + (ca_file.empty() ? std::string{"the system's CAs"}
                                : "--tls-ca " + ca_file)
             + "), or does not name " + host
             + "; give the CA that signed it with --tls-ca CA.pem";
    if (what.find("wrong version number") != std::string::npos
        || what.find("packet length too long") != std::string::npos)
      return ": the server does not speak TLS; use http://" + host + ":" + port;
    return {};
  }

  // A plain connection to a server that closed it, or answered something
  // that is not HTTP, without a reply: most likely an HTTPS daemon.
  std::string plain_hint(const beast::error_code& ec) const {
    if (secure)
      return {};
    bool closed = ec == http::error::end_of_stream || ec == net::error::eof
                  || ec == net::error::connection_reset;
    if (!closed
        && ec.category()
             != beast::error_code{http::error::end_of_stream}.category())
      return {};
    return ": the server closed the connection without an HTTP reply; if it "
           "serves HTTPS (invjudge serve --tls-cert), use https://"
           + host + ":" + port;
  }

  template <class Stream>
  void exchange(Stream& stream, const http::request<http::string_body>& req,
                http::response_parser<http::string_body>& parser,
                beast::error_code& ec) {
    http::write(stream, req, ec);
    if (!ec)
      http::read(stream, buffer, parser, ec);
  }

  api_reply once(const http::request<http::string_body>& req) {
    api_reply out;
    if (!connected() && (out.error = connect()))
      return out;
    beast::error_code ec;
    lowest().expires_after(timeout);
    http::response_parser<http::string_body> parser;
    parser.body_limit(std::uint64_t{1} << 32);
    if (secure)
      exchange(*secure, req, parser, ec);
    else
      exchange(*plain, req, parser, ec);
    if (ec) {
      out.interrupted = ec == net::error::interrupted;
      out.error = make_error(errc::unreachable,
                             "HTTP exchange with " + host + ":" + port
                               + " failed: " + ec.message() + plain_hint(ec));
      drop();
      return out;
    }
    auto res = parser.release();
    out.status = res.result_int();
    out.body = std::move(res.body());
    for (auto& f : res)
      out.headers.emplace_back(std::string{f.name_string()},
                               std::string{f.value()});
    if (!res.keep_alive())
      drop();
    return out;
  }

  void setup_tls(const api_tls& t) {
    tls.emplace(ssl::context::tls_client);
    ca_file = t.ca_file;
    beast::error_code ec;
    // A file that cannot be read is named with the reason (OpenSSL's own
    // word for it is a bare "asio.ssl error"); one that can but does not
    // load is not PEM of its kind.
    auto step = [&](const std::string& what, const std::string& path,
                    const char* kind, auto load) {
      if (init_error)
        return;
      if (!path.empty() && !std::ifstream{path}) {
        init_error = make_error(
          errc::bad_config, what + ": cannot read: " + std::strerror(errno));
        return;
      }
      load();
      if (ec)
        init_error = make_error(
          errc::bad_config, what + ": "
                              + (path.empty() ? ec.message()
                                              : std::string{"not "} + kind
                                                  + " (" + ec.message() + ")"));
    };
    tls->set_verify_mode(ssl::verify_peer);
    if (t.ca_file.empty())
      step("the system's CA certificates", {}, "",
           [&] { tls->set_default_verify_paths(ec); });
    else
      step("--tls-ca " + t.ca_file, t.ca_file, "a PEM certificate",
           [&] { tls->load_verify_file(t.ca_file, ec); });
    if (!t.cert_file.empty())
      step("--tls-cert " + t.cert_file, t.cert_file, "a PEM certificate chain",
           [&] { tls->use_certificate_chain_file(t.cert_file, ec); });
    if (!t.key_file.empty())
      step("--tls-key " + t.key_file, t.key_file, "a PEM private key", [&] {
        tls->use_private_key_file(t.key_file, ssl::context::pem, ec);
      });
  }
};

api_client::api_client(std::string base_url, std::string token,
                       std::chrono::milliseconds timeout, api_tls tls)
    : impl_(std::make_unique<impl>()) {
  impl_->token = std::move(token);
  impl_->timeout = timeout;
  std::string rest;
  for (std::string scheme : {"http://", "https://"})
    if (base_url.compare(0, scheme.size(), scheme) == 0)
      rest = base_url.substr(scheme.size());
  if (rest.empty()) {
    impl_->init_error = make_error(
      errc::bad_config,
      "the server URL must start with http:// or https://: " + base_url);
    return;
  }
  rest = rest.substr(0, rest.find('/'));
  auto colon = rest.rfind(':');
  if (colon == std::string::npos || colon + 1 == rest.size()) {
    impl_->init_error = make_error(
      errc::bad_config, "the server URL must name a port: " + base_url);
    return;
  }
  impl_->host = rest.substr(0, colon);
  impl_->port = rest.substr(colon + 1);
  if (base_url.compare(0, 8, "https://") == 0)
    impl_->setup_tls(tls);
  else if (!tls.ca_file.empty() || !tls.cert_file.empty())
    impl_->init_error = make_error(
      errc::bad_config, "TLS options need an https:// server URL: " + base_url);
}

api_client::~api_client() = default;

caf::error api_client::check() const {
  return impl_->init_error;
}

api_reply api_client::request(const std::string& method,
                              const std::string& target,
                              const std::string& body,
                              const std::string& content_type) {
  if (impl_->init_error) {
    api_reply refused;
    refused.error = impl_->init_error;
    return refused;
  }
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
  bool reused = impl_->connected();
  auto out = impl_->once(req);
  // A kept-alive connection the server had closed meanwhile: once more
  // (not after a signal: the caller wants to stop).
  if (out.status == 0 && reused && !out.interrupted)
    out = impl_->once(req);
  return out;
}

} // namespace ij
