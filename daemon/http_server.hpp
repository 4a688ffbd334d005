#pragma once
// The daemon's HTTP/1.1 server (Boost.Beast, as its advanced server
// examples): its own Asio threads (never a CAF scheduler thread), each
// connection on a strand of its own (its reads, writes and timer never run
// at once), plain TCP or TLS (Beast's ssl_stream), keep-alive, a timer per
// request phase and limits on header and body sizes. A request that breaks
// a limit gets a clear 4xx with a JSON error and its connection is closed;
// the other connections never notice.
//
// The phases and their timers: an idle connection waits idle_timeout for a
// request's first byte (then it is closed silently); from that byte the
// headers must be complete within io_timeout (else 408); a body must make
// progress (some bytes) within every io_timeout (else 408); a reply must be
// written within io_timeout; a TLS handshake must end within io_timeout; a
// deferred reply (http_deferred) is answered by its own deadline.
//
// The handler runs on a server thread and may block briefly (SQLite, a
// file), never on an actor: what an actor must answer is a deferred reply,
// written when the answer comes (issue 26, item 4). The acceptor has a
// strand of its own too; stop() closes it there and waits for the requests
// under way by events (their count reaching zero, or the grace period's
// timer), not by polling.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include <caf/error.hpp>
#include <caf/expected.hpp>

#include "daemon/http_message.hpp"

namespace ij {

/// Answers a request (on a server thread; see above). An http_deferred
/// reply waits on the connection's strand without holding the thread.
using request_handler = std::function<http_reply(const http_request&)>;

/// A request body taken in pieces as they arrive, so that memory stays
/// bounded whatever the body size (pair uploads).
class body_stream {
public:
  virtual ~body_stream() = default;
  virtual void chunk(std::string_view data) = 0;
  /// The body is complete: the reply.
  virtual http_response finish() = 0;
};

// What to do with a request's body, decided once its headers are in
// (stream_decision): one of these four.

/// Read it whole, for the handler.
struct read_whole {};

/// Refuse the request at once: the body is not read, the connection is
/// closed after `reply`.
struct refuse_body {
  http_response reply;
};

/// Take the body in pieces.
struct take_body {
  std::unique_ptr<body_stream> stream;
};

/// What a decision made later may be: refuse or take.
using later_decision = std::variant<refuse_body, take_body>;

/// Decide later (an actor's answer): `start(answer)` is called once, no
/// thread waits, `answer(next)` may come from any thread and `next` runs on
/// the connection's strand; without an answer within `at_most`, `late()`
/// refuses.
struct decide_later {
  std::chrono::milliseconds at_most{0};
  std::function<void(std::function<void(std::function<later_decision()>)>)>
    start;
  std::function<http_response()> late;
};

/// Read whole (the default), refuse, take in pieces, or decide later.
using stream_decision =
  std::variant<read_whole, refuse_body, take_body, decide_later>;

/// Asked once a request's headers are in (`req` has no body yet).
using stream_opener = std::function<stream_decision(const http_request& req)>;

struct http_server_options {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0; // 0: the system picks a free one
  unsigned threads = 4;
  /// A request's headers (from its first byte), each step of its body's
  /// progress, a reply's writing, a TLS handshake: each.
  std::chrono::milliseconds io_timeout{30000};
  /// An idle connection (no byte of a request yet) is closed after this.
  std::chrono::milliseconds idle_timeout{60000};
  std::uint64_t max_body_bytes = 64ull << 20;
  std::uint32_t max_header_bytes = 16u << 10;
  /// Streamed bodies (see stream_opener) have no size limit.
  stream_opener streams;
  /// HTTPS when set: the server's certificate chain and key (PEM); with
  /// `tls_ca`, every client must present a certificate that CA signed.
  std::string tls_cert, tls_key, tls_ca;
};

class http_server {
public:
  /// Binds and listens: the server, or bad_config naming the TLS file or
  /// the address when it cannot.
  static caf::expected<std::unique_ptr<http_server>>
  start(http_server_options options, request_handler handler);
  ~http_server();
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  /// The port bound (the one picked for port 0).
  std::uint16_t port() const;

  /// Stops accepting, lets the requests being handled or waiting for an
  /// actor's answer finish (at most `grace`; a follower waiting for
  /// verdicts is not waited for), then closes every connection and joins
  /// the threads.
  void stop(std::chrono::milliseconds grace);

  /// Requests being handled or waiting for an answer now.
  std::uint32_t busy() const;

  struct impl;

private:
  http_server(http_server_options options, request_handler handler);
  caf::error listen();

  std::shared_ptr<impl> impl_;
};

} // namespace ij
