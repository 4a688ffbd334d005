#include "tests/http/fake_server.hpp"

#include <optional>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

namespace ij::test {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using boost::system::error_code;

struct fake_server::impl {
  impl(request_handler h, std::shared_ptr<ssl::context> t)
      : handler(std::move(h)), tls(std::move(t)), acceptor(io) {}

  request_handler handler;
  std::shared_ptr<ssl::context> tls;
  net::io_context io;
  tcp::acceptor acceptor;
  std::vector<std::thread> threads;
  std::uint16_t port = 0;

  mutable std::mutex mtx;
  std::uint64_t connections = 0;
  std::uint64_t requests = 0;
  std::uint32_t concurrent = 0;
  std::uint32_t max_concurrent = 0;
  std::vector<exchange> exchanges;

  void accept();

  std::uint64_t on_connection() {
    std::lock_guard<std::mutex> guard(mtx);
    return ++connections;
  }

  std::uint64_t on_request(std::uint64_t conn) {
    std::lock_guard<std::mutex> guard(mtx);
    auto index = requests++;
    ++concurrent;
    max_concurrent = std::max(max_concurrent, concurrent);
    exchanges.push_back({index, conn, clock::now(), {}});
    return index;
  }

  void on_replied(std::uint64_t index) {
    std::lock_guard<std::mutex> guard(mtx);
    --concurrent;
    exchanges[index].replied = clock::now();
  }
};

namespace {

template <class Stream>
class session : public std::enable_shared_from_this<session<Stream>> {
public:
  template <class... Args>
  session(fake_server::impl* srv, std::uint64_t id, Args&&... args)
      : srv_(srv), id_(id), stream_(std::forward<Args>(args)...),
        timer_(srv->io) {}

  void start() {
    if constexpr (std::is_same_v<Stream, beast::tcp_stream>) {
      read();
    } else {
      stream_.async_handshake(ssl::stream_base::server,
                              [self = this->shared_from_this()](error_code ec) {
                                if (!ec)
                                  self->read();
                              });
    }
  }

private:
  void read() {
    req_ = {};
    // Beast's default request body limit is 1 MiB; a batch upload is up to
    // 200 MB (OpenAI's file limit) or 256 MB (Anthropic's create body).
    parser_.emplace();
    parser_->body_limit(std::uint64_t{256} << 20);
    http::async_read(
      stream_, buffer_, *parser_,
      [self = this->shared_from_this()](error_code ec, std::size_t) {
        if (ec)
          return;
        self->req_ = self->parser_->release();
        self->on_request();
      });
  }

  void on_request() {
    auto index = srv_->on_request(id_);
    plan_ = srv_->handler(req_, request_context{id_, index});
    timer_.expires_after(plan_.delay);
    timer_.async_wait([self = this->shared_from_this(), index](error_code) {
      self->respond(index);
    });
  }

  void close(bool reset) {
    auto& sock = beast::get_lowest_layer(stream_).socket();
    error_code ignored;
    if (reset)
      sock.set_option(net::socket_base::linger(true, 0), ignored);
    sock.close(ignored);
  }

  void respond(std::uint64_t index) {
    using how = planned_reply::how;
    if (plan_.action == how::close_without_reply) {
      close(false);
      srv_->on_replied(index);
      return;
    }
    if (plan_.action == how::reset_mid_body) {
      raw_ = "HTTP/1.1 " + std::to_string(plan_.status)
             + " OK\r\nContent-Type: " + plan_.content_type
             + "\r\nContent-Length: " + std::to_string(plan_.body.size())
             + "\r\n\r\n" + plan_.body.substr(0, plan_.body.size() / 2);
      net::async_write(
        stream_, net::buffer(raw_),
        [self = this->shared_from_this(), index](error_code, std::size_t) {
          self->close(true);
          self->srv_->on_replied(index);
        });
      return;
    }
    res_ = {};
    res_.version(11);
    res_.result(plan_.status);
    res_.set(http::field::server, "ij-fake");
    res_.set(http::field::content_type, plan_.content_type);
    for (auto& [name, value] : plan_.headers)
      res_.set(name, value);
    res_.body() = plan_.body;
    res_.keep_alive(req_.keep_alive() && !plan_.close_after);
    res_.prepare_payload();
    http::async_write(
      stream_, res_,
      [self = this->shared_from_this(), index](error_code ec, std::size_t) {
        self->srv_->on_replied(index);
        if (ec)
          return;
        if (!self->res_.keep_alive() || self->plan_.drop_after)
          return self->close(false);
        self->read();
      });
  }

  fake_server::impl* srv_;
  std::uint64_t id_;
  Stream stream_;
  net::steady_timer timer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  fake_request req_;
  planned_reply plan_;
  http::response<http::string_body> res_;
  std::string raw_;
};

} // namespace

void fake_server::impl::accept() {
  acceptor.async_accept([this](error_code ec, tcp::socket sock) {
    if (ec)
      return; // the acceptor was closed
    auto id = on_connection();
    if (tls)
      std::make_shared<session<beast::ssl_stream<beast::tcp_stream>>>(
        this, id, std::move(sock), *tls)
        ->start();
    else
      std::make_shared<session<beast::tcp_stream>>(this, id, std::move(sock))
        ->start();
    accept();
  });
}

fake_server::fake_server(request_handler handler, unsigned threads,
                         std::shared_ptr<ssl::context> tls)
    : impl_(std::make_shared<impl>(std::move(handler), std::move(tls))) {
  tcp::endpoint ep(net::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(ep.protocol());
  impl_->acceptor.set_option(net::socket_base::reuse_address(true));
  impl_->acceptor.bind(ep);
  impl_->acceptor.listen(net::socket_base::max_listen_connections);
  impl_->port = impl_->acceptor.local_endpoint().port();
  impl_->accept();
  for (unsigned i = 0; i < std::max(threads, 1u); ++i)
    impl_->threads.emplace_back([s = impl_.get()] { s->io.run(); });
}

fake_server::~fake_server() {
  impl_->io.stop();
  for (auto& t : impl_->threads)
    t.join();
}

std::uint16_t fake_server::port() const {
  return impl_->port;
}

std::string fake_server::base_url() const {
  return std::string(impl_->tls ? "https" : "http")
         + "://127.0.0.1:" + std::to_string(impl_->port);
}

std::uint64_t fake_server::connections() const {
  std::lock_guard<std::mutex> guard(impl_->mtx);
  return impl_->connections;
}

std::uint64_t fake_server::requests() const {
  std::lock_guard<std::mutex> guard(impl_->mtx);
  return impl_->requests;
}

std::uint32_t fake_server::max_concurrent() const {
  std::lock_guard<std::mutex> guard(impl_->mtx);
  return impl_->max_concurrent;
}

std::vector<fake_server::exchange> fake_server::exchanges() const {
  std::lock_guard<std::mutex> guard(impl_->mtx);
  return impl_->exchanges;
}

} // namespace ij::test
