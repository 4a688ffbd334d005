#include "adapters/connection_pool.hpp"

#include "messages/error.hpp"

namespace ij {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace ssl = net::ssl;
using boost::system::error_code;

pooled_connection::pooled_connection(net::io_context& io, ssl::context* tls_ctx)
    : resolver(io) {
  if (tls_ctx)
    tls = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(io, *tls_ctx);
  else
    plain = std::make_unique<beast::tcp_stream>(io);
}

beast::tcp_stream& pooled_connection::lowest() {
  return tls ? beast::get_lowest_layer(*tls) : *plain;
}

void pooled_connection::abort() {
  resolver.cancel();
  error_code ignored;
  lowest().socket().close(ignored);
}

bool pooled_connection::open() {
  return lowest().socket().is_open();
}

connection_pool::connection_pool(net::io_context& io, ssl::context* tls_ctx,
                                 std::size_t max_idle)
    : io_(io), tls_(tls_ctx), max_idle_(max_idle) {}

connection_ptr connection_pool::take_idle() {
  while (!idle_.empty()) {
    auto conn = std::move(idle_.back());
    idle_.pop_back();
    // The server may have closed it while it idled; such a one is dropped.
    if (conn->open())
      return conn;
  }
  return nullptr;
}

connection_ptr connection_pool::make_new() {
  opened_.fetch_add(1, std::memory_order_relaxed);
  return std::make_shared<pooled_connection>(io_, tls_);
}

void connection_pool::give_back(connection_ptr conn, bool reusable) {
  if (!conn)
    return;
  if (reusable && !closed_ && conn->open() && idle_.size() < max_idle_) {
    // Whatever a response left unread must not be read as the next one.
    conn->buffer.consume(conn->buffer.size());
    idle_.push_back(std::move(conn));
  } else {
    conn->abort();
  }
}

void connection_pool::close() {
  closed_ = true;
  for (auto& conn : idle_)
    conn->abort();
  idle_.clear();
}

caf::expected<std::unique_ptr<ssl::context>>
tls_context_if(bool tls, const std::string& ca_file) {
  if (!tls)
    return std::unique_ptr<ssl::context>{};
  return make_tls_context(ca_file);
}

caf::expected<std::unique_ptr<ssl::context>>
make_tls_context(const std::string& ca_file) {
  auto tls = std::make_unique<ssl::context>(ssl::context::tls_client);
  error_code ec;
  tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2
                     | ssl::context::no_sslv3 | ssl::context::no_tlsv1
                     | ssl::context::no_tlsv1_1,
                   ec);
  if (ca_file.empty())
    tls->set_default_verify_paths(ec);
  else
    tls->load_verify_file(ca_file, ec);
  if (ec)
    return make_error(errc::bad_config,
                      ca_file.empty()
                        ? "cannot load the system CA store: " + ec.message()
                        : "cannot load CA file '" + ca_file
                            + "': " + ec.message());
  tls->set_verify_mode(ssl::verify_peer);
  return tls;
}

} // namespace ij
