#include "daemon/http_server.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <vector>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "messages/error.hpp"

namespace ij {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using boost::system::error_code;

struct http_server::impl {
  impl(http_server_options o, request_handler h)
      : options(std::move(o)), handler(std::move(h)),
        acceptor(net::make_strand(io)), drain(io) {}

  http_server_options options;
  request_handler handler;
  net::io_context io;
  /// On a strand of its own: accepting and closing never run at once.
  tcp::acceptor acceptor;
  /// The grace period's end once stopping.
  net::steady_timer drain;
  std::optional<ssl::context> tls;
  std::vector<std::thread> threads;
  std::atomic<std::uint32_t> busy{0};
  std::atomic<bool> stopping{false};

  void accept();
  /// A request is being handled or waits for an answer.
  void begin_work() { ++busy; }
  /// ... and no longer: a stopping server ends once none is.
  void end_work() {
    if (--busy == 0 && stopping.load())
      io.stop();
  }
};

namespace {

using tls_stream = beast::ssl_stream<beast::tcp_stream>;
template <class Stream>
constexpr bool is_tls = std::is_same_v<Stream, tls_stream>;

// What a connection waits for; the timer's expiry is answered by phase.
enum class phase { handshake, idle, headers, body, opening, waiting, writing };

template <class Stream>
class connection : public std::enable_shared_from_this<connection<Stream>> {
public:
  connection(http_server::impl* srv, Stream stream)
      : srv_(srv), stream_(std::move(stream)),
        timer_(beast::get_lowest_layer(stream_).get_executor()) {}

  // Everything from here runs on the connection's strand.
  void start() {
    net::dispatch(timer_.get_executor(), [self = this->shared_from_this()] {
      if constexpr (is_tls<Stream>)
        self->handshake();
      else
        self->next_request();
    });
  }

private:
  tcp::socket& socket() { return beast::get_lowest_layer(stream_).socket(); }

  // Our own timer, not the stream's (which closes the socket), so that a
  // late client can still be told 408. The generation tells a stale expiry
  // (one already queued when the timer was re-armed) from the current one.
  void arm(phase p, std::chrono::milliseconds after) {
    phase_ = p;
    expired_ = false;
    ++generation_;
    timer_.expires_after(after);
    timer_.async_wait(
      [self = this->shared_from_this(), gen = generation_](error_code ec) {
        if (ec || gen != self->generation_)
          return;
        if (self->phase_ == phase::waiting)
          return self->answer_late(); // no socket operation is pending
        if (self->phase_ == phase::opening)
          return self->open_late();
        self->expired_ = true;
        error_code ignored;
        // cancel() alone misses a read that a composed operation starts
        // after it (between two of its reads: a client trickling a byte at a
        // time got its whole request taken). Shut the receiving side: every
        // read from now on ends at once, and the 408 can still be written.
        self->socket().shutdown(tcp::socket::shutdown_receive, ignored);
        self->socket().cancel(ignored);
      });
  }

  void disarm() {
    ++generation_;
    timer_.cancel();
  }

  void handshake() {
    arm(phase::handshake, srv_->options.io_timeout);
    if constexpr (is_tls<Stream>)
      stream_.async_handshake(ssl::stream_base::server,
                              [self = this->shared_from_this()](error_code ec) {
                                if (ec)
                                  return self->close();
                                self->next_request();
                              });
  }

  // A request's first byte may take up to the idle timeout (silence then
  // closes the connection); its headers then have io_timeout from there.
  void next_request() {
    if (buffer_.size() > 0)
      return read_header();
    arm(phase::idle, srv_->options.idle_timeout);
    stream_.async_read_some(
      buffer_.prepare(sizeof piece_),
      [self = this->shared_from_this()](error_code ec, std::size_t n) {
        if (ec)
          return self->fail(ec);
        self->buffer_.commit(n);
        self->read_header();
      });
  }

  void read_header() {
    parser_.emplace();
    // The limit is applied once the headers say whether the body is
    // streamed (no limit) or read whole (on_header). Not boost::none: Beast
    // 1.74 compares the length with the empty optional and refuses.
    parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
    parser_->header_limit(srv_->options.max_header_bytes);
    arm(phase::headers, srv_->options.io_timeout);
    http::async_read_header(
      stream_, buffer_, *parser_,
      [self = this->shared_from_this()](error_code ec, std::size_t) {
        self->on_header(ec);
      });
  }

  void on_header(error_code ec) {
    if (ec || expired_) // headers completed as their time ran out: late
      return fail(ec);
    if (srv_->options.streams && try_stream())
      return;
    // A body read whole is bounded by its Content-Length, checked here (the
    // parser's own limit is fixed before the headers are read).
    auto length = parser_->content_length();
    if (length && *length > srv_->options.max_body_bytes)
      return fail(http::error::body_limit);
    if (!length && parser_->chunked())
      return reply_and_close(json_error(
        411, "length_required",
        "a chunked body is taken only for pair uploads; send Content-Length"));
    if (parser_->is_done())
      return on_request();
    expect_continue(*parser_, [this] { read_body(); });
  }

  // A client that asks (curl does for bodies over 1 MB) is told to send the
  // body once its headers are accepted; otherwise it waits a second first.
  template <class Parser, class Next>
  void expect_continue(Parser& parser, Next next) {
    if (!beast::iequals(parser.get()[http::field::expect], "100-continue"))
      return next();
    continue_.version(parser.get().version());
    arm(phase::writing, srv_->options.io_timeout);
    http::async_write(
      stream_, continue_,
      [self = this->shared_from_this(), next](error_code ec, std::size_t) {
        if (ec)
          return self->fail(ec);
        next();
      });
  }

  // A body read whole, a read at a time: each must bring bytes within the
  // I/O timeout (a stalled body is a 408, a slow steady one is not).
  void read_body() {
    arm(phase::body, srv_->options.io_timeout);
    http::async_read_some(
      stream_, buffer_, *parser_,
      [self = this->shared_from_this()](error_code ec, std::size_t) {
        if (ec)
          return self->fail(ec);
        if (!self->parser_->is_done())
          return self->read_body();
        self->on_request();
      });
  }

  // A body the opener takes in pieces: read into a fixed buffer, handed on
  // piece by piece (buffer_body), never held whole. False: read it whole.
  bool try_stream() {
    auto d = srv_->options.streams(parser_->get());
    if (std::holds_alternative<read_whole>(d))
      return false;
    if (auto* refused = std::get_if<refuse_body>(&d))
      reply_and_close(std::move(refused->reply));
    else if (auto* later = std::get_if<decide_later>(&d))
      open_later(std::move(*later));
    else
      take(std::move(std::get<take_body>(d).stream));
    return true;
  }

  // What was decided later: refuse or take.
  void apply(later_decision d) {
    if (auto* refused = std::get_if<refuse_body>(&d))
      return reply_and_close(std::move(refused->reply));
    take(std::move(std::get<take_body>(d).stream));
  }

  void take(std::unique_ptr<body_stream> stream) {
    body_ = std::move(stream);
    streaming_.emplace(std::move(*parser_));
    streaming_->body_limit(std::numeric_limits<std::uint64_t>::max());
    // An empty body (Content-Length: 0) is complete now: answered at once.
    if (streaming_->is_done())
      return finish_stream();
    // Beast reads what the buffer has room for: grown to a piece, a 6 MB
    // upload is ~100 reads and appends instead of ~10,000 (and the run
    // following the file gets batches, not four lines at a time).
    buffer_.reserve(sizeof piece_);
    expect_continue(*streaming_, [this] { read_piece(); });
  }

  // The decision is an actor's: the headers wait (the body is not read)
  // until it answers, on the strand, or the deadline refuses.
  void open_later(decide_later d) {
    opening_late_ = std::move(d.late);
    arm(phase::opening, d.at_most);
    auto gen = generation_;
    srv_->begin_work();
    std::weak_ptr<connection> weak = this->shared_from_this();
    d.start([weak, gen](std::function<later_decision()> next) {
      auto self = weak.lock();
      if (!self)
        return;
      net::post(
        self->timer_.get_executor(), [self, gen, next = std::move(next)] {
          if (self->phase_ != phase::opening || self->generation_ != gen)
            return; // refused by its deadline meanwhile
          self->disarm();
          self->srv_->end_work();
          self->apply(next());
        });
    });
  }

  void open_late() {
    srv_->end_work();
    auto late = std::move(opening_late_);
    opening_late_ = nullptr;
    reply_and_close(late ? late()
                         : json_error(503, "busy", "no answer in time"));
  }

  void read_piece() {
    auto& body = streaming_->get().body();
    body.data = piece_;
    body.size = sizeof piece_;
    arm(phase::body, srv_->options.io_timeout);
    http::async_read_some(
      stream_, buffer_, *streaming_,
      [self = this->shared_from_this()](error_code ec, std::size_t) {
        self->on_piece(ec);
      });
  }

  void on_piece(error_code ec) {
    if (ec == http::error::need_buffer)
      ec = {};
    if (ec)
      return fail(ec);
    auto used = sizeof piece_ - streaming_->get().body().size;
    if (used > 0)
      body_->chunk({piece_, used});
    if (!streaming_->is_done())
      return read_piece();
    finish_stream();
  }

  void finish_stream() {
    disarm();
    auto keep = streaming_->get().keep_alive();
    auto version = streaming_->get().version();
    srv_->begin_work();
    http_response res;
    try {
      res = body_->finish();
    } catch (const std::exception& e) {
      res = json_error(500, "internal", e.what());
    }
    srv_->end_work();
    body_.reset();
    streaming_.reset();
    res.version(version);
    res.keep_alive(keep && !srv_->stopping.load());
    res.prepare_payload();
    write(std::move(res));
  }

  void fail(error_code ec) {
    disarm();
    // A cut-off stream keeps the complete lines it brought (its destructor).
    body_.reset();
    streaming_.reset();
    if (expired_)
      return on_expiry();
    if (ec == http::error::body_limit)
      return reply_and_close(json_error(
        413, "body_too_large",
        "the request body is over the limit of "
          + std::to_string(srv_->options.max_body_bytes) + " bytes"));
    if (ec == http::error::header_limit)
      return reply_and_close(json_error(431, "headers_too_large",
                                        "the request headers are too large"));
    if (ec.category() == net::error::get_system_category()
        || ec.category() == net::error::get_misc_category()
        || ec == http::error::end_of_stream
        || ec == net::ssl::error::stream_truncated
        || ec.category() == net::error::get_ssl_category())
      return close(); // the peer left (or the transport failed)
    if (ec == http::error::partial_message)
      return close();
    reply_and_close(json_error(400, "bad_request",
                               "malformed HTTP request: " + ec.message()));
  }

  // The timer of the phase the connection was in has run out.
  void on_expiry() {
    auto ms = std::to_string(srv_->options.io_timeout.count());
    switch (phase_) {
      case phase::headers:
        return reply_and_close(
          json_error(408, "request_timeout",
                     "the request headers did not arrive within " + ms
                       + " ms of its first byte (io_timeout_ms)"));
      case phase::body:
        return reply_and_close(
          json_error(408, "request_timeout",
                     "the request body made no progress for " + ms
                       + " ms (io_timeout_ms)"));
      default: // idle, a handshake or a reply the client does not read
        return close();
    }
  }

  void on_request() {
    disarm();
    auto req = parser_->release();
    parser_.reset();
    version_ = req.version();
    keep_alive_ = req.keep_alive();
    head_ = req.method() == http::verb::head;
    srv_->begin_work();
    http_reply reply;
    try {
      reply = srv_->handler(req);
    } catch (const std::exception& e) {
      reply = json_error(500, "internal", e.what());
    }
    answer(std::move(reply));
  }

  // A reply ready now is written; a deferred one waits (the request still
  // counts as work under way unless it is a follower's idle wait).
  void answer(http_reply reply) {
    if (auto* d = std::get_if<http_deferred>(&reply))
      return wait_for(std::move(*d));
    srv_->end_work();
    write_ready(ready_reply(std::move(reply)));
  }

  // No thread is held while it waits; the answer comes through the strand,
  // and whichever of it and the timer comes first answers (the other finds
  // the phase moved on: a late answer is dropped unrun).
  void wait_for(http_deferred d) {
    late_ = std::move(d.late);
    idle_wait_ = d.idle;
    if (idle_wait_)
      srv_->end_work();
    arm(phase::waiting, d.at_most);
    auto gen = generation_;
    std::weak_ptr<connection> weak = this->shared_from_this();
    d.start([weak, gen](http_continuation next) {
      auto self = weak.lock();
      if (!self)
        return;
      net::post(
        self->timer_.get_executor(), [self, gen, next = std::move(next)] {
          if (self->phase_ == phase::waiting && self->generation_ == gen)
            self->run_continuation(next);
        });
    });
  }

  void run_continuation(const http_continuation& next) {
    disarm();
    late_ = nullptr;
    if (idle_wait_)
      srv_->begin_work();
    http_reply reply;
    try {
      reply = next();
    } catch (const std::exception& e) {
      reply = json_error(500, "internal", e.what());
    }
    answer(std::move(reply));
  }

  void answer_late() {
    auto late = std::move(late_);
    late_ = nullptr;
    run_continuation(late ? late : http_continuation{[] {
      return http_reply{json_error(503, "busy", "no answer in time")};
    }});
  }

  void write_ready(http_ready_reply reply) {
    std::visit(
      [&](auto& res) {
        res.version(version_);
        res.keep_alive(keep_alive_ && !srv_->stopping.load());
        res.prepare_payload();
      },
      reply);
    if (head_) // the GET's headers, Content-Length included; no body
      reply = std::visit(
        [](auto& res) -> http_ready_reply {
          return http_response{std::move(res.base())};
        },
        reply);
    write(std::move(reply));
  }

  void write(http_ready_reply reply) {
    res_ = std::move(reply);
    arm(phase::writing, srv_->options.io_timeout);
    std::visit(
      [this](auto& res) {
        http::async_write(
          stream_, res,
          [self = this->shared_from_this()](error_code ec, std::size_t) {
            bool keep =
              std::visit([](auto& r) { return r.keep_alive(); }, self->res_);
            self->res_ = http_response{};
            if (ec || !keep)
              return self->close();
            self->next_request();
          });
      },
      res_);
  }

  void reply_and_close(http_response res) {
    res.keep_alive(false);
    res.prepare_payload();
    write(std::move(res));
  }

  void close() {
    disarm();
    error_code ignored;
    socket().shutdown(tcp::socket::shutdown_both, ignored);
    socket().close(ignored);
  }

  http_server::impl* srv_;
  Stream stream_;
  net::steady_timer timer_;
  phase phase_ = phase::idle;
  bool expired_ = false;
  std::uint64_t generation_ = 0;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::optional<http::request_parser<http::buffer_body>> streaming_;
  std::unique_ptr<body_stream> body_;
  char piece_[64 * 1024];
  http_ready_reply res_;
  http_continuation late_; // a deferred reply's, while waiting
  bool idle_wait_ = false;
  std::function<http_response()> opening_late_; // a stream decision's
  unsigned version_ = 11;
  bool keep_alive_ = false;
  bool head_ = false; // the request being answered is a HEAD
  http::response<http::empty_body> continue_{http::status::continue_, 11};
};

caf::error load_tls(ssl::context& ctx, const http_server_options& o) {
  auto use = [](const std::string& what, const std::string& path,
                auto load) -> caf::error {
    // A file that cannot be read is named with the reason (OpenSSL's own
    // word for it is a bare "asio.ssl error").
    if (!std::ifstream{path})
      return make_error(errc::bad_config,
                        "cannot use the TLS " + what + " " + path
                          + ": cannot read it: " + std::strerror(errno));
    error_code ec;
    load(ec);
    if (ec)
      return make_error(errc::bad_config, "cannot use the TLS " + what + " "
                                            + path + ": " + ec.message());
    return {};
  };
  ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2
                  | ssl::context::no_sslv3 | ssl::context::no_tlsv1
                  | ssl::context::no_tlsv1_1);
  if (auto err = use("certificate", o.tls_cert, [&](error_code& ec) {
        ctx.use_certificate_chain_file(o.tls_cert, ec);
      }))
    return err;
  if (auto err = use("key", o.tls_key, [&](error_code& ec) {
        ctx.use_private_key_file(o.tls_key, ssl::context::pem, ec);
      }))
    return err;
  if (o.tls_ca.empty())
    return {};
  if (auto err = use("CA", o.tls_ca, [&](error_code& ec) {
        ctx.load_verify_file(o.tls_ca, ec);
      }))
    return err;
  ctx.set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
  return {};
}

} // namespace

void http_server::impl::accept() {
  // `this` outlives every handler: the io_context is a member, and its
  // pending handlers are destroyed with it. The acceptor's handlers run on
  // its strand; each connection gets a strand of its own: its handlers
  // never run at once on the pool's threads.
  acceptor.async_accept(net::make_strand(io),
                        [this](error_code ec, tcp::socket sock) {
                          if (ec || stopping)
                            return; // closed
                          if (tls)
                            std::make_shared<connection<tls_stream>>(
                              this, tls_stream{std::move(sock), *tls})
                              ->start();
                          else
                            std::make_shared<connection<beast::tcp_stream>>(
                              this, beast::tcp_stream{std::move(sock)})
                              ->start();
                          accept();
                        });
}

http_server::http_server(http_server_options options, request_handler handler)
    : impl_(std::make_shared<impl>(std::move(options), std::move(handler))) {}

caf::expected<std::unique_ptr<http_server>>
http_server::start(http_server_options options, request_handler handler) {
  std::unique_ptr<http_server> server{
    new http_server(std::move(options), std::move(handler))};
  if (auto err = server->listen())
    return err;
  return server;
}

caf::error http_server::listen() {
  auto& o = impl_->options;
  if (!o.tls_cert.empty() || !o.tls_key.empty()) {
    if (o.tls_cert.empty() || o.tls_key.empty())
      return make_error(errc::bad_config,
                        "TLS needs both a certificate and its key");
    impl_->tls.emplace(ssl::context::tls_server);
    if (auto err = load_tls(*impl_->tls, o))
      return err;
  } else if (!o.tls_ca.empty()) {
    return make_error(errc::bad_config, "a TLS CA for client certificates "
                                        "needs the server's own certificate "
                                        "and key");
  }
  error_code ec;
  auto addr = net::ip::make_address(o.address, ec);
  if (ec)
    return make_error(errc::bad_config,
                      "cannot listen on " + o.address + ": not an IP address");
  tcp::endpoint ep(addr, o.port);
  impl_->acceptor.open(ep.protocol(), ec);
  if (!ec)
    impl_->acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec)
    impl_->acceptor.bind(ep, ec);
  if (!ec)
    impl_->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec)
    return make_error(errc::bad_config, "cannot listen on " + o.address + ":"
                                          + std::to_string(o.port) + ": "
                                          + ec.message());
  impl_->accept();
  for (unsigned i = 0; i < std::max(o.threads, 1u); ++i)
    impl_->threads.emplace_back([s = impl_.get()] { s->io.run(); });
  return {};
}

http_server::~http_server() {
  stop(std::chrono::milliseconds(0));
}

std::uint16_t http_server::port() const {
  error_code ec;
  return impl_->acceptor.local_endpoint(ec).port();
}

std::uint32_t http_server::busy() const {
  return impl_->busy.load();
}

void http_server::stop(std::chrono::milliseconds grace) {
  if (impl_->threads.empty())
    return;
  impl_->stopping = true;
  auto* s = impl_.get();
  net::post(s->acceptor.get_executor(), [s] {
    error_code ignored;
    s->acceptor.close(ignored);
  });
  // The requests under way finish and are answered: the io_context stops
  // when the last ends (end_work) or when the grace period is over.
  net::post(s->io, [s, grace] {
    s->drain.expires_after(grace);
    s->drain.async_wait([s](error_code ec) {
      if (!ec)
        s->io.stop();
    });
    if (s->busy.load() == 0)
      s->io.stop();
  });
  for (auto& t : impl_->threads)
    t.join();
  impl_->threads.clear();
  error_code ignored;
  impl_->acceptor.close(ignored); // no thread runs the io_context now
}

} // namespace ij
