#include "bench/delay_proxy.hpp"

#include <atomic>
#include <deque>
#include <thread>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

namespace ij::bench {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;
using clock_type = std::chrono::steady_clock;

namespace {

struct connection;

/// One direction of a connection: what `from` sends reaches `to` a delay
/// later, in order.
struct pipe {
  tcp::socket& from;
  tcp::socket& to;
  net::steady_timer timer;
  std::vector<char> buffer = std::vector<char>(64 * 1024);
  std::deque<std::pair<clock_type::time_point, std::string>> due;
  bool writing = false;
  bool read_done = false;

  pipe(tcp::socket& f, tcp::socket& t, net::io_context& io)
      : from(f), to(t), timer(io) {}
};

struct connection : std::enable_shared_from_this<connection> {
  tcp::socket client;
  tcp::socket upstream;
  std::chrono::milliseconds delay;
  /// The proxy's partition flag (read on the I/O thread only).
  const bool& held;
  pipe up;
  pipe down;
  bool closed = false;

  connection(net::io_context& io, tcp::socket c, std::chrono::milliseconds d,
             const bool& partitioned)
      : client(std::move(c)), upstream(io), delay(d), held(partitioned),
        up(client, upstream, io), down(upstream, client, io) {}

  void start(const tcp::endpoint& target) {
    upstream.async_connect(target, [self = shared_from_this()](error_code ec) {
      if (ec)
        return self->close();
      error_code ignored;
      self->client.set_option(tcp::no_delay(true), ignored);
      self->upstream.set_option(tcp::no_delay(true), ignored);
      self->read(self->up);
      self->read(self->down);
    });
  }

  void read(pipe& p) {
    p.from.async_read_some(
      net::buffer(p.buffer),
      [self = shared_from_this(), &p](error_code ec, std::size_t n) {
        if (self->closed)
          return;
        if (ec) {
          p.read_done = true;
          return self->flush(p);
        }
        p.due.emplace_back(clock_type::now() + self->delay,
                           std::string(p.buffer.data(), n));
        self->flush(p);
        self->read(p);
      });
  }

  // Writes the oldest chunk once it is due; after the last one of a side
  // that closed, closes the other side's sending half.
  void flush(pipe& p) {
    if (p.writing || closed || held)
      return;
    if (p.due.empty()) {
      if (p.read_done) {
        error_code ignored;
        p.to.shutdown(tcp::socket::shutdown_send, ignored);
        if (up.read_done && down.read_done && up.due.empty()
            && down.due.empty())
          close();
      }
      return;
    }
    p.writing = true;
    p.timer.expires_at(p.due.front().first);
    p.timer.async_wait([self = shared_from_this(), &p](error_code ec) {
      if (ec || self->closed)
        return;
      if (self->held) { // partitioned meanwhile: sent once released
        p.writing = false;
        return;
      }
      net::async_write(p.to, net::buffer(p.due.front().second),
                       [self, &p](error_code ec, std::size_t) {
                         p.writing = false;
                         if (ec)
                           return self->close();
                         p.due.pop_front();
                         self->flush(p);
                       });
    });
  }

  void close() {
    if (closed)
      return;
    closed = true;
    error_code ignored;
    up.timer.cancel();
    down.timer.cancel();
    client.close(ignored);
    upstream.close(ignored);
  }
};

} // namespace

struct delay_proxy::impl {
  net::io_context io;
  net::executor_work_guard<net::io_context::executor_type> work{
    io.get_executor()};
  tcp::acceptor acceptor{io};
  tcp::endpoint target;
  std::chrono::milliseconds delay;
  std::atomic<std::uint64_t> accepted{0};
  std::vector<std::weak_ptr<connection>> live;
  bool held = false;
  std::thread thread;

  void accept() {
    // `this` outlives the I/O thread (the destructor joins it).
    acceptor.async_accept([this](error_code ec, tcp::socket s) {
      if (ec)
        return;
      ++accepted;
      auto c = std::make_shared<connection>(io, std::move(s), delay, held);
      live.push_back(c);
      c->start(target);
      accept();
    });
  }
};

delay_proxy::delay_proxy(std::string target_host, std::uint16_t target_port,
                         std::chrono::milliseconds one_way)
    : impl_(std::make_shared<impl>()) {
  impl_->delay = one_way;
  impl_->target =
    tcp::endpoint(net::ip::make_address(target_host), target_port);
  tcp::endpoint here(net::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(here.protocol());
  impl_->acceptor.set_option(tcp::acceptor::reuse_address(true));
  impl_->acceptor.bind(here);
  impl_->acceptor.listen();
  impl_->accept();
  impl_->thread = std::thread([i = impl_] { i->io.run(); });
}

delay_proxy::~delay_proxy() {
  net::post(impl_->io, [i = impl_.get()] {
    error_code ignored;
    i->acceptor.close(ignored);
    for (auto& w : i->live)
      if (auto c = w.lock())
        c->close();
    i->work.reset();
    i->io.stop();
  });
  impl_->thread.join();
}

std::uint16_t delay_proxy::port() const {
  return impl_->acceptor.local_endpoint().port();
}

std::string delay_proxy::address() const {
  return "127.0.0.1:" + std::to_string(port());
}

std::uint64_t delay_proxy::connections() const {
  return impl_->accepted.load();
}

void delay_proxy::sever() {
  net::post(impl_->io, [i = impl_.get()] {
    for (auto& w : i->live)
      if (auto c = w.lock())
        c->close();
    i->live.clear();
  });
}

void delay_proxy::hold(bool on) {
  net::post(impl_->io, [i = impl_.get(), on] {
    i->held = on;
    if (on)
      return;
    for (auto& w : i->live)
      if (auto c = w.lock()) {
        c->flush(c->up);
        c->flush(c->down);
      }
  });
}

} // namespace ij::bench
