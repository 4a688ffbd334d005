#pragma once
// A small synchronous HTTP/1.1 client (Boost.Beast) for the daemon's API:
// `invjudge submit` and the daemon's tests use it. One keep-alive
// connection, reopened once when the server closed it. http:// or https://
// (Beast's ssl_stream): the server's certificate is verified against the
// system's CAs or the given CA file, and its name against the URL's host.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <caf/error.hpp>

namespace ij {

struct api_reply {
  unsigned status = 0; // 0: no reply (error says why)
  std::string body;
  /// Why there is no reply: unreachable (connect, TLS, the exchange) or
  /// bad_config (the client's URL or TLS files).
  caf::error error;
  /// The exchange was cut by a signal (EINTR: Ctrl-C while waiting).
  bool interrupted = false;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string header(const std::string& name) const;
};

/// https:// settings: empty ca_file means the system's CAs; cert_file and
/// key_file are this client's certificate for a server that asks for one.
struct api_tls {
  std::string ca_file, cert_file, key_file;
};

class api_client {
public:
  /// `base_url` as "http://HOST:PORT" or "https://HOST:PORT"; `token`
  /// empty: no Authorization.
  api_client(std::string base_url, std::string token,
             std::chrono::milliseconds timeout = std::chrono::seconds(60),
             api_tls tls = {});
  ~api_client();
  api_client(const api_client&) = delete;
  api_client& operator=(const api_client&) = delete;

  /// bad_config when the URL is not http(s)://HOST:PORT or a TLS file
  /// cannot be used.
  caf::error check() const;

  api_reply request(const std::string& method, const std::string& target,
                    const std::string& body = {},
                    const std::string& content_type = {});

  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace ij
