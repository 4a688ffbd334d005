#pragma once
// The keep-alive connections of one HTTP client (one per adapter), plain or
// TLS, to the one base URL the client serves. A call takes an idle
// connection that is still open, or a new one; after its attempt it gives the
// connection back (kept when the response allows keep-alive and the pool has
// room, else closed). Touched only on the client's I/O thread, except the
// counter of connections opened.
//
// Private to adapters/ (Beast and Asio types): the client and the call
// session use it; backends never see it.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <caf/expected.hpp>

#include "adapters/url.hpp"

namespace ij {

/// One connection: its resolver, its stream (plain or TLS over TCP) and the
/// read buffer that must survive between responses on it.
struct pooled_connection {
  pooled_connection(boost::asio::io_context& io,
                    boost::asio::ssl::context* tls_ctx);

  /// The TCP stream under TLS (or the plain stream): timeouts and closing.
  boost::beast::tcp_stream& lowest();

  /// Calls `f` with the stream a request is written to and read from.
  template <class F>
  void with_stream(F&& f) {
    if (tls)
      f(*tls);
    else
      f(*plain);
  }

  /// Cancels what is pending on it and closes the socket.
  void abort();

  bool open();

  boost::asio::ip::tcp::resolver resolver;
  std::unique_ptr<boost::beast::tcp_stream> plain;
  std::unique_ptr<boost::beast::ssl_stream<boost::beast::tcp_stream>> tls;
  boost::beast::flat_buffer buffer;
};

using connection_ptr = std::shared_ptr<pooled_connection>;

class connection_pool {
public:
  /// `tls_ctx` null: plain HTTP. At most `max_idle` connections are kept.
  connection_pool(boost::asio::io_context& io,
                  boost::asio::ssl::context* tls_ctx, std::size_t max_idle);

  /// An idle connection that is still open, or null.
  connection_ptr take_idle();

  /// A fresh, unconnected connection (counted in opened()).
  connection_ptr make_new();

  /// Ends an attempt's hold on `conn`: kept for reuse when `reusable`, the
  /// pool is not closed and has room, else closed.
  void give_back(connection_ptr conn, bool reusable);

  /// Closes every idle connection; later give_back calls close theirs.
  void close();

  bool uses_tls() const { return tls_ != nullptr; }

  /// Connections made so far (keep-alive reuse keeps this low); readable
  /// from any thread.
  std::uint64_t opened() const {
    return opened_.load(std::memory_order_relaxed);
  }

private:
  boost::asio::io_context& io_;
  boost::asio::ssl::context* tls_;
  std::size_t max_idle_;
  std::vector<connection_ptr> idle_;
  bool closed_ = false;
  std::atomic<std::uint64_t> opened_{0};
};

/// The TLS client context for `ca_file` (empty: the system store): TLS 1.2
/// or later, peers verified. Fails with bad_config (the CA file is the
/// judge's configuration) when the CA store cannot be loaded.
caf::expected<std::unique_ptr<boost::asio::ssl::context>>
make_tls_context(const std::string& ca_file);

/// That context when `tls` (an https URL), else none (a null pointer).
caf::expected<std::unique_ptr<boost::asio::ssl::context>>
tls_context_if(bool tls, const std::string& ca_file);

} // namespace ij
