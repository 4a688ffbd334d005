#pragma once
// The daemon's HTTP/1.1 server (Boost.Beast): its own Asio threads (never a
// CAF scheduler thread), keep-alive, a timeout on every read and write, and
// limits on header and body sizes. A request that breaks a limit gets a
// clear 4xx with a JSON error and its connection is closed; the other
// connections never notice.
//
// The handler runs on a server thread and may block briefly (SQLite, an
// actor's answer): the pool has several threads so that one slow request
// does not hold the others.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <variant>

#include <boost/beast/http/file_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

namespace ij {

using http_request =
  boost::beast::http::request<boost::beast::http::string_body>;
using http_response =
  boost::beast::http::response<boost::beast::http::string_body>;
/// A file sent as it is read (an audit trail of any size, never held in
/// memory): the bytes it had when opened.
using http_file_response =
  boost::beast::http::response<boost::beast::http::file_body>;
using http_reply = std::variant<http_response, http_file_response>;
using http_handler = std::function<http_reply(const http_request&)>;

/// A request body taken in pieces as they arrive, so that memory stays
/// bounded whatever the body size (pair uploads).
class body_stream {
public:
  virtual ~body_stream() = default;
  virtual void chunk(std::string_view data) = 0;
  /// The body is complete: the reply.
  virtual http_response finish() = 0;
};

/// Asked once a request's headers are in (`req` has no body yet): a stream
/// for its body, or nullptr to read it whole for the handler. Setting
/// `refusal`'s status refuses the request at once (the body is not read,
/// the connection is closed after the reply).
using stream_opener = std::function<std::unique_ptr<body_stream>(
  const http_request& req, http_response& refusal)>;

struct http_server_options {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0; // 0: the system picks a free one
  unsigned threads = 4;
  /// Reading a request (headers and body) and writing a reply, each.
  std::chrono::milliseconds io_timeout{30000};
  /// An idle keep-alive connection is closed after this.
  std::chrono::milliseconds idle_timeout{60000};
  std::uint64_t max_body_bytes = 64ull << 20;
  std::uint32_t max_header_bytes = 16u << 10;
  /// Streamed bodies (see stream_opener) have no size limit.
  stream_opener streams;
};

/// `{"error": {"code": code, "message": message}}` with `status`.
http_response json_error(unsigned status, const std::string& code,
                         const std::string& message, unsigned version = 11);

class http_server {
public:
  /// Binds and listens; throws std::runtime_error naming the address when
  /// it cannot.
  http_server(http_server_options options, http_handler handler);
  ~http_server();
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  /// The port bound (the one picked for port 0).
  std::uint16_t port() const;

  /// Stops accepting, lets the requests being handled finish (at most
  /// `grace`), then closes every connection and joins the threads.
  void stop(std::chrono::milliseconds grace);

  /// Requests being handled now.
  std::uint32_t busy() const;

  struct impl;

private:
  std::shared_ptr<impl> impl_;
};

} // namespace ij
