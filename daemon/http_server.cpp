#include "daemon/http_server.hpp"

#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace ij {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using boost::system::error_code;

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

struct http_server::impl {
  impl(http_server_options o, http_handler h)
    : options(std::move(o)), handler(std::move(h)), acceptor(io) {
  }

  http_server_options options;
  http_handler handler;
  net::io_context io;
  tcp::acceptor acceptor;
  std::vector<std::thread> threads;
  std::atomic<std::uint32_t> busy{0};
  std::atomic<bool> stopping{false};
  std::mutex mtx;

  void accept();
};

namespace {

class connection : public std::enable_shared_from_this<connection> {
public:
  connection(http_server::impl* srv, tcp::socket sock)
    : srv_(srv), stream_(std::move(sock)), timer_(srv->io) {
  }

  void read() {
    parser_.emplace();
    // The limit is applied once the headers say whether the body is
    // streamed (no limit) or read whole (on_header). Not boost::none: Beast
    // 1.74 compares the length with the empty optional and refuses.
    parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
    parser_->header_limit(srv_->options.max_header_bytes);
    // The first byte of a request may take up to the idle timeout; once it
    // has begun, the whole request must come within the I/O timeout. Our own
    // timer (not the stream's, which closes the socket) so that a late
    // client can still be told 408.
    stream_.expires_never();
    arm(buffer_.size() > 0 ? srv_->options.io_timeout
                           : srv_->options.idle_timeout);
    http::async_read_header(
      stream_, buffer_, *parser_,
      [self = shared_from_this()](error_code ec, std::size_t) {
        self->on_header(ec);
      });
  }

private:
  void arm(std::chrono::milliseconds after) {
    timed_out_ = false;
    timer_.expires_after(after);
    timer_.async_wait([self = shared_from_this()](error_code ec) {
      if (ec)
        return; // re-armed or cancelled
      self->timed_out_ = true;
      error_code ignored;
      self->stream_.socket().cancel(ignored);
    });
  }

  void on_header(error_code ec) {
    if (ec)
      return fail(ec, true);
    arm(srv_->options.io_timeout);
    if (srv_->options.streams && try_stream())
      return;
    // A body read whole is bounded by its Content-Length, checked here (the
    // parser's own limit is fixed before the headers are read).
    auto length = parser_->content_length();
    if (length && *length > srv_->options.max_body_bytes)
      return fail(http::error::body_limit, false);
    if (!length && parser_->chunked()) {
      timer_.cancel();
      return reply_and_close(json_error(
        411, "length_required",
        "a chunked body is taken only for pair uploads; send Content-Length"));
    }
    expect_continue(*parser_, [this] {
      http::async_read(stream_, buffer_, *parser_,
                       [self = shared_from_this()](error_code ec, std::size_t) {
                         self->on_request(ec);
                       });
    });
  }

  // A client that asks (curl does for bodies over 1 MB) is told to send the
  // body once its headers are accepted; otherwise it waits a second first.
  template <class Parser, class Next>
  void expect_continue(Parser& parser, Next next) {
    if (!beast::iequals(parser.get()[http::field::expect], "100-continue"))
      return next();
    continue_.version(parser.get().version());
    http::async_write(stream_, continue_,
                      [self = shared_from_this(), next](error_code ec,
                                                        std::size_t) {
                        if (ec)
                          return self->fail(ec, false);
                        next();
                      });
  }

  // A body the opener takes in pieces: read into a fixed buffer, handed on
  // piece by piece (buffer_body), never held whole.
  bool try_stream() {
    http_response refusal;
    refusal.result(http::status::unknown);
    auto stream = srv_->options.streams(parser_->get(), refusal);
    if (!stream && refusal.result() == http::status::unknown)
      return false;
    if (!stream) {
      timer_.cancel();
      reply_and_close(std::move(refusal));
      return true;
    }
    body_ = std::move(stream);
    streaming_.emplace(std::move(*parser_));
    streaming_->body_limit(std::numeric_limits<std::uint64_t>::max());
    // Beast reads what the buffer has room for: grown to a piece, a 6 MB
    // upload is ~100 reads and appends instead of ~10,000 (and the run
    // following the file gets batches, not four lines at a time).
    buffer_.reserve(sizeof piece_);
    expect_continue(*streaming_, [this] { read_piece(); });
    return true;
  }

  void read_piece() {
    auto& body = streaming_->get().body();
    body.data = piece_;
    body.size = sizeof piece_;
    arm(srv_->options.io_timeout);
    http::async_read_some(stream_, buffer_, *streaming_,
                          [self = shared_from_this()](error_code ec, std::size_t) {
                            self->on_piece(ec);
                          });
  }

  void on_piece(error_code ec) {
    if (ec == http::error::need_buffer)
      ec = {};
    if (ec)
      return fail(ec, false);
    auto used = sizeof piece_ - streaming_->get().body().size;
    if (used > 0)
      body_->chunk({piece_, used});
    if (!streaming_->is_done())
      return read_piece();
    timer_.cancel();
    auto keep = streaming_->get().keep_alive();
    auto version = streaming_->get().version();
    ++srv_->busy;
    http_response res;
    try {
      res = body_->finish();
    } catch (const std::exception& e) {
      res = json_error(500, "internal", e.what());
    }
    --srv_->busy;
    body_.reset();
    streaming_.reset();
    res.version(version);
    res.keep_alive(keep && !srv_->stopping.load());
    res.prepare_payload();
    write(std::move(res));
  }

  void fail(error_code ec, bool before_header) {
    timer_.cancel();
    if (timed_out_)
      ec = beast::error::timeout;
    if (ec == http::error::end_of_stream || ec == net::error::eof
        || ec == net::error::operation_aborted
        || ec == net::error::connection_reset)
      return close();
    if (ec == beast::error::timeout) {
      if (before_header && buffer_.size() == 0)
        return close(); // an idle keep-alive connection
      return reply_and_close(json_error(
        408, "request_timeout",
        "the request did not arrive within "
          + std::to_string(srv_->options.io_timeout.count()) + " ms"));
    }
    if (ec == http::error::body_limit)
      return reply_and_close(json_error(
        413, "body_too_large",
        "the request body is over the limit of "
          + std::to_string(srv_->options.max_body_bytes) + " bytes"));
    if (ec == http::error::header_limit)
      return reply_and_close(json_error(431, "headers_too_large",
                                        "the request headers are too large"));
    reply_and_close(json_error(400, "bad_request",
                               "malformed HTTP request: " + ec.message()));
  }

  void on_request(error_code ec) {
    if (ec)
      return fail(ec, false);
    timer_.cancel();
    auto req = parser_->release();
    ++srv_->busy;
    http_reply reply;
    try {
      reply = srv_->handler(req);
    } catch (const std::exception& e) {
      reply = json_error(500, "internal", e.what());
    }
    --srv_->busy;
    std::visit(
      [&](auto& res) {
        res.version(req.version());
        res.keep_alive(req.keep_alive() && !srv_->stopping.load());
        res.prepare_payload();
      },
      reply);
    write(std::move(reply));
  }

  void write(http_reply reply) {
    res_ = std::move(reply);
    stream_.expires_after(srv_->options.io_timeout);
    std::visit(
      [this](auto& res) {
        http::async_write(stream_, res,
                          [self = shared_from_this()](error_code ec, std::size_t) {
                            bool keep = std::visit(
                              [](auto& r) { return r.keep_alive(); }, self->res_);
                            if (ec || !keep)
                              return self->close();
                            self->read();
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
    timer_.cancel();
    error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  http_server::impl* srv_;
  beast::tcp_stream stream_;
  net::steady_timer timer_;
  bool timed_out_ = false;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::optional<http::request_parser<http::buffer_body>> streaming_;
  std::unique_ptr<body_stream> body_;
  char piece_[64 * 1024];
  http_reply res_;
  http::response<http::empty_body> continue_{http::status::continue_, 11};
};

} // namespace

void http_server::impl::accept() {
  // `this` outlives every handler: the io_context is a member, and its
  // pending handlers are destroyed with it.
  acceptor.async_accept([this](error_code ec, tcp::socket sock) {
    if (ec || stopping)
      return; // closed
    std::make_shared<connection>(this, std::move(sock))->read();
    accept();
  });
}

http_server::http_server(http_server_options options, http_handler handler)
  : impl_(std::make_shared<impl>(std::move(options), std::move(handler))) {
  auto& o = impl_->options;
  error_code ec;
  auto addr = net::ip::make_address(o.address, ec);
  if (ec)
    throw std::runtime_error("cannot listen on " + o.address + ": not an IP "
                             "address");
  tcp::endpoint ep(addr, o.port);
  impl_->acceptor.open(ep.protocol(), ec);
  if (!ec)
    impl_->acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec)
    impl_->acceptor.bind(ep, ec);
  if (!ec)
    impl_->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error("cannot listen on " + o.address + ":"
                             + std::to_string(o.port) + ": " + ec.message());
  impl_->accept();
  for (unsigned i = 0; i < std::max(o.threads, 1u); ++i)
    impl_->threads.emplace_back([s = impl_.get()] { s->io.run(); });
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
  net::post(impl_->io, [s = impl_.get()] {
    error_code ignored;
    s->acceptor.close(ignored);
  });
  // The requests being handled finish and are answered (bounded wait).
  auto until = std::chrono::steady_clock::now() + grace;
  while (impl_->busy.load() > 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  impl_->io.stop();
  for (auto& t : impl_->threads)
    t.join();
  impl_->threads.clear();
  error_code ignored;
  impl_->acceptor.close(ignored); // no thread runs the io_context now
}

} // namespace ij
