#pragma once
// A small synchronous HTTP/1.1 client (Boost.Beast) for the daemon's API:
// `invjudge submit` and the daemon's tests use it. One keep-alive connection,
// reopened once when the server closed it. Plain http:// only (the daemon
// listens on loopback or behind a TLS proxy).
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ij {

struct api_reply {
  unsigned status = 0; // 0: no reply (error says why)
  std::string body;
  std::string error;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string header(const std::string& name) const;
};

class api_client {
public:
  /// `base_url` as "http://HOST:PORT"; `token` empty: no Authorization.
  api_client(std::string base_url, std::string token,
             std::chrono::milliseconds timeout = std::chrono::seconds(60));
  ~api_client();
  api_client(const api_client&) = delete;
  api_client& operator=(const api_client&) = delete;

  /// False with `error` when the URL is not http://HOST:PORT.
  bool valid(std::string& error) const;

  api_reply request(const std::string& method, const std::string& target,
                    const std::string& body = {},
                    const std::string& content_type = {});

  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace ij
