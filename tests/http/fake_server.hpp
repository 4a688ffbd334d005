#pragma once
// A small HTTP/1.1 server on Beast for tests and the benchmark: listens on
// 127.0.0.1, port 0 (the OS picks), runs on its own thread(s), optionally
// over TLS, and asks a handler what to do with each request. It counts
// connections, requests and the peak number of requests handled at once,
// and can misbehave on request (delay, reset mid-body, close silently).
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/ssl/context.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

namespace ij::test {

using fake_request =
  boost::beast::http::request<boost::beast::http::string_body>;

struct planned_reply {
  enum class how {
    respond,             // a normal response
    reset_mid_body,      // headers and half the body, then a TCP reset
    close_without_reply, // close the connection instead of answering
  };
  unsigned status = 200;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  /// Time the server "thinks" before answering (other requests proceed).
  std::chrono::milliseconds delay{0};
  how action = how::respond;
  /// Send "Connection: close" and close after the reply.
  bool close_after = false;
  /// Close after the reply without saying so (a server dropping an idle
  /// keep-alive connection).
  bool drop_after = false;
};

struct request_context {
  std::uint64_t connection_id = 0; // 1-based, in accept order
  std::uint64_t index = 0;         // 0-based, in arrival order
};

using request_handler =
  std::function<planned_reply(const fake_request&, const request_context&)>;

class fake_server {
public:
  using clock = std::chrono::steady_clock;

  struct exchange {
    std::uint64_t index;
    std::uint64_t connection_id;
    clock::time_point received;
    clock::time_point replied; // when the reply was written (or dropped)
  };

  /// `tls`: serve HTTPS with this context (certificate already loaded).
  explicit fake_server(
    request_handler handler, unsigned threads = 1,
    std::shared_ptr<boost::asio::ssl::context> tls = nullptr);
  ~fake_server();
  fake_server(const fake_server&) = delete;
  fake_server& operator=(const fake_server&) = delete;

  std::uint16_t port() const;
  /// "http://127.0.0.1:PORT" (https for TLS).
  std::string base_url() const;

  std::uint64_t connections() const;
  std::uint64_t requests() const;
  std::uint32_t max_concurrent() const;
  std::vector<exchange> exchanges() const;

  struct impl;

private:
  std::shared_ptr<impl> impl_;
};

} // namespace ij::test
