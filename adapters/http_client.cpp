#include "adapters/http_client.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <optional>
#include <random>
#include <unordered_set>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "adapters/adaptive_limit.hpp"
#include "adapters/api_error.hpp"
#include "adapters/redaction.hpp"
#include "adapters/retry_policy.hpp"

namespace ij {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using clock_type = std::chrono::steady_clock;
using boost::system::error_code;

namespace {

constexpr const char* user_agent = "invariance-judge/0.1";

std::string ms_text(std::chrono::milliseconds d) {
  return std::to_string(d.count()) + " ms";
}

bool is_ip_literal(const std::string& host) {
  error_code ec;
  net::ip::make_address(host, ec);
  return !ec;
}

/// Errors that mean a pooled connection was closed by the server while idle.
bool stale_connection_error(const error_code& ec) {
  return ec == http::error::end_of_stream || ec == net::error::eof ||
         ec == net::error::connection_reset ||
         ec == net::error::broken_pipe ||
         ec == net::error::connection_aborted ||
         ec == ssl::error::stream_truncated;
}

struct connection {
  connection(net::io_context& io, ssl::context* tls_ctx) : resolver(io) {
    if (tls_ctx)
      tls = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(io, *tls_ctx);
    else
      plain = std::make_unique<beast::tcp_stream>(io);
  }

  beast::tcp_stream& lowest() {
    return tls ? beast::get_lowest_layer(*tls) : *plain;
  }

  template <class F>
  void with_stream(F&& f) {
    if (tls)
      f(*tls);
    else
      f(*plain);
  }

  void abort() {
    resolver.cancel();
    error_code ignored;
    lowest().socket().close(ignored);
  }

  bool open() {
    return lowest().socket().is_open();
  }

  tcp::resolver resolver;
  std::unique_ptr<beast::tcp_stream> plain;
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls;
  beast::flat_buffer buffer;
};

using connection_ptr = std::shared_ptr<connection>;

enum class phase { queued, active, backoff, finished };

struct pending_call {
  pending_call(net::io_context& io, http_post p, http_handler h)
    : post(std::move(p)), done(std::move(h)), deadline_timer(io),
      backoff_timer(io) {
  }

  http_post post;
  http_handler done;
  http::request<http::string_body> request;
  clock_type::time_point deadline;
  net::steady_timer deadline_timer;
  net::steady_timer backoff_timer;
  phase state = phase::queued;
  std::uint32_t attempts = 0;
  std::uint64_t epoch = 0;
  bool expired = false;
  /// Where the current attempt is, for error texts.
  std::string step;
  /// Why the previous attempt failed, for the final error.
  std::string last_error;
  connection_ptr conn;
  bool conn_reused = false;
  std::optional<http::response_parser<http::string_body>> parser;
};

using call_ptr = std::shared_ptr<pending_call>;

} // namespace

struct http_client::core {
  core(http_client_config c, std::unique_ptr<ssl::context> tls_ctx)
    : cfg(std::move(c)), tls(std::move(tls_ctx)), work(io.get_executor()),
      limit(cfg.max_in_flight, cfg.success_run), rng(std::random_device{}()) {
  }

  http_client_config cfg;
  net::io_context io;
  std::unique_ptr<ssl::context> tls;
  net::executor_work_guard<net::io_context::executor_type> work;
  adaptive_limit limit;
  std::mt19937_64 rng;
  std::atomic<std::uint64_t> opened{0};

  // Everything below is touched only on the I/O thread.
  std::deque<call_ptr> queue;
  std::unordered_set<call_ptr> live;
  std::vector<connection_ptr> idle;
  std::uint32_t in_flight = 0;
  bool stopping = false;

  void submit(call_ptr call) {
    if (stopping) {
      live.insert(call);
      finish_error(call, "the adapter is shutting down; call not sent");
      return;
    }
    live.insert(call);
    build_request(*call);
    call->deadline = clock_type::now() + call->post.timeout;
    call->deadline_timer.expires_at(call->deadline);
    call->deadline_timer.async_wait([this, call](error_code ec) {
      if (!ec)
        on_deadline(call);
    });
    queue.push_back(call);
    pump();
  }

  void build_request(pending_call& call) {
    auto& req = call.request;
    req.method(http::verb::post);
    req.target(call.post.target);
    req.version(11);
    req.set(http::field::host, cfg.base.host_header());
    req.set(http::field::user_agent, user_agent);
    req.set(http::field::content_type, "application/json");
    req.set(http::field::accept, "application/json");
    for (auto& [name, value] : call.post.headers)
      req.set(name, value);
    req.keep_alive(true);
    req.body() = std::move(call.post.body);
    req.prepare_payload();
  }

  void pump() {
    while (!stopping && !queue.empty() && in_flight < limit.current()) {
      auto call = queue.front();
      queue.pop_front();
      start_attempt(call);
    }
  }

  void start_attempt(const call_ptr& call) {
    call->state = phase::active;
    ++in_flight;
    ++call->attempts;
    call->epoch = limit.epoch();
    while (!idle.empty()) {
      auto conn = idle.back();
      idle.pop_back();
      if (conn->open()) {
        call->conn = conn;
        call->conn_reused = true;
        send(call);
        return;
      }
    }
    auto conn = std::make_shared<connection>(io, tls.get());
    opened.fetch_add(1, std::memory_order_relaxed);
    call->conn = conn;
    call->conn_reused = false;
    call->step = "resolving " + cfg.base.host;
    conn->resolver.async_resolve(
      cfg.base.host, std::to_string(cfg.base.port),
      [this, call, conn](error_code ec, tcp::resolver::results_type results) {
        if (ec)
          return attempt_failed(call, ec);
        if (cut_short(call))
          return;
        connect(call, conn, results);
      });
  }

  /// True (and the call finished) when the deadline or shutdown cut the
  /// call while a step was completing: a step that succeeded just as its
  /// connection was aborted must not start the next one (a resolve, for
  /// one, would open a fresh socket past the abort).
  bool cut_short(const call_ptr& call) {
    if (!call->expired && !stopping)
      return false;
    release(*call, false);
    finish_cut(call);
    return true;
  }

  std::chrono::milliseconds remaining(const pending_call& call) const {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      call.deadline - clock_type::now());
    return std::max(left, std::chrono::milliseconds(1));
  }

  void connect(const call_ptr& call, const connection_ptr& conn,
               const tcp::resolver::results_type& results) {
    call->step = "connecting to " + cfg.base.host_header();
    conn->lowest().expires_after(std::min(cfg.connect_timeout, remaining(*call)));
    conn->lowest().async_connect(
      results, [this, call, conn](error_code ec, const tcp::endpoint&) {
        if (ec == beast::error::timeout)
          return attempt_failed_text(call, "connect to " + cfg.base.host_header() +
                                             " timed out after " +
                                             ms_text(cfg.connect_timeout));
        if (ec)
          return attempt_failed(call, ec);
        if (cut_short(call))
          return;
        conn->lowest().socket().set_option(tcp::no_delay(true), ec);
        if (conn->tls)
          return handshake(call, conn);
        conn->lowest().expires_never();
        send(call);
      });
  }

  void handshake(const call_ptr& call, const connection_ptr& conn) {
    call->step = "TLS handshake with " + cfg.base.host;
    auto& stream = *conn->tls;
    // SNI takes DNS names only; IP literals are verified against the
    // certificate's IP addresses by host_name_verification.
    if (!is_ip_literal(cfg.base.host) &&
        !SSL_set_tlsext_host_name(stream.native_handle(), cfg.base.host.c_str()))
      return attempt_failed_text(call, "TLS: cannot set the server name (SNI)");
    stream.set_verify_mode(ssl::verify_peer);
    stream.set_verify_callback(ssl::host_name_verification(cfg.base.host));
    conn->lowest().expires_after(std::min(cfg.connect_timeout, remaining(*call)));
    stream.async_handshake(ssl::stream_base::client,
                           [this, call, conn](error_code ec) {
                             if (ec == beast::error::timeout)
                               return attempt_failed_text(
                                 call, "TLS handshake with " + cfg.base.host +
                                         " timed out");
                             if (ec)
                               return attempt_failed(call, ec);
                             if (cut_short(call))
                               return;
                             conn->lowest().expires_never();
                             send(call);
                           });
  }

  void send(const call_ptr& call) {
    auto conn = call->conn;
    call->step = "sending the request";
    call->parser.emplace();
    call->parser->body_limit(cfg.max_response_bytes);
    conn->with_stream([&](auto& stream) {
      http::async_write(stream, call->request,
                        [this, call, conn, &stream](error_code ec, std::size_t) {
                          if (ec)
                            return attempt_failed(call, ec);
                          if (cut_short(call))
                            return;
                          call->step = "waiting for the response";
                          // Header first: Beast 1.74 loses the body_limit
                          // error for a Content-Length that arrives together
                          // with the body, so the length is checked here.
                          http::async_read_header(
                            stream, conn->buffer, *call->parser,
                            [this, call, conn, &stream](error_code ec2, std::size_t) {
                              if (ec2)
                                return attempt_failed(call, ec2);
                              if (cut_short(call))
                                return;
                              auto length = call->parser->content_length();
                              if (length && *length > cfg.max_response_bytes)
                                return attempt_failed(call, http::error::body_limit);
                              call->step = "reading the response body";
                              http::async_read(stream, conn->buffer, *call->parser,
                                               [this, call](error_code ec3, std::size_t) {
                                                 if (ec3)
                                                   return attempt_failed(call, ec3);
                                                 got_response(call);
                                               });
                            });
                        });
    });
  }

  /// Ends the attempt's hold on its slot and connection.
  void release(pending_call& call, bool reusable) {
    --in_flight;
    auto conn = std::move(call.conn);
    if (!conn)
      return;
    if (reusable && !stopping && conn->open() &&
        idle.size() < limit.configured()) {
      conn->buffer.consume(conn->buffer.size());
      idle.push_back(std::move(conn));
    } else {
      conn->abort();
    }
  }

  std::string describe(const pending_call& call, const error_code& ec) const {
    if (ec == http::error::body_limit)
      return "response body exceeds the limit of " +
             std::to_string(cfg.max_response_bytes) + " bytes";
    if (ec == http::error::partial_message || ec == http::error::end_of_stream ||
        ec == net::error::eof)
      return "connection closed by " + cfg.base.host_header() + " while " +
             call.step;
    return call.step + ": " + ec.message();
  }

  void attempt_failed(const call_ptr& call, const error_code& ec) {
    if (call->expired || stopping) {
      release(*call, false);
      return finish_cut(call);
    }
    bool nothing_received = !call->parser || !call->parser->got_some();
    if (call->conn_reused && nothing_received && stale_connection_error(ec)) {
      // A pooled connection the server had already closed: not the
      // backend's failure, so try again at once on a fresh connection.
      release(*call, false);
      --call->attempts;
      call->state = phase::queued;
      queue.push_front(call);
      return pump();
    }
    auto text = describe(*call, ec);
    release(*call, false);
    if (ec == http::error::body_limit)
      return finish_error(call, text);  // a retry would read the same body
    if (ec.category() == net::error::get_ssl_category() &&
        call->step.rfind("TLS handshake", 0) == 0)
      // A certificate that fails verification will not pass on a retry.
      return finish_error(call, text + " (check the server certificate, or "
                                       "name its CA with ca_file)");
    retry_or_finish(call, text, std::nullopt, std::nullopt);
  }

  void attempt_failed_text(const call_ptr& call, const std::string& text) {
    if (call->expired || stopping) {
      release(*call, false);
      return finish_cut(call);
    }
    release(*call, false);
    retry_or_finish(call, text, std::nullopt, std::nullopt);
  }

  static std::string header(const http::response<http::string_body>& res,
                            const char* name) {
    auto it = res.find(name);
    return it == res.end() ? std::string{} : std::string(it->value());
  }

  void got_response(const call_ptr& call) {
    bool keep = call->parser->keep_alive();
    http_result result;
    result.responded = true;
    {
      auto res = call->parser->release();
      result.status = res.result_int();
      result.body = std::move(res.body());
      result.request_id = header(res, "request-id");
      if (result.request_id.empty())
        result.request_id = header(res, "x-request-id");
      call->parser.reset();
      release(*call, keep);
      if (result.status >= 200 && result.status < 300) {
        limit.on_success();
        finish(call, std::move(result));
        return pump();
      }
      if (result.status == 429 || result.status == 529)
        limit.on_overload(call->epoch);
      auto override_retry = parse_should_retry(header(res, "x-should-retry"));
      bool retry = override_retry ? *override_retry
                                  : retryable_status(result.status);
      if (!retry) {
        finish(call, std::move(result));
        return pump();
      }
      auto delay = server_retry_delay(header(res, "retry-after-ms"),
                                      header(res, "retry-after"),
                                      std::chrono::system_clock::now());
      auto err = parse_api_error(result.body);
      std::string text = "HTTP " + std::to_string(result.status) + ": " + err.message;
      retry_or_finish(call, text, delay, std::move(result));
    }
    pump();
  }

  void retry_or_finish(const call_ptr& call, const std::string& error_text,
                       std::optional<std::chrono::milliseconds> server_delay,
                       std::optional<http_result> response) {
    call->last_error = error_text;
    if (call->attempts >= cfg.max_attempts) {
      if (response) {
        finish(call, std::move(*response));
      } else {
        finish_error(call, error_text);
      }
      return pump();
    }
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    auto delay = server_delay ? *server_delay
                              : backoff_delay(call->attempts - 1,
                                              cfg.retry_base_delay,
                                              cfg.retry_max_delay, unit(rng));
    if (clock_type::now() + delay >= call->deadline) {
      std::string why = "no time left before the call's deadline of " +
                        ms_text(call->post.timeout) + " for a retry in " +
                        ms_text(delay);
      if (response) {
        response->error = why;
        finish(call, std::move(*response));
      } else {
        finish_error(call, error_text + "; " + why);
      }
      return pump();
    }
    call->state = phase::backoff;
    call->backoff_timer.expires_after(delay);
    call->backoff_timer.async_wait([this, call](error_code ec) {
      if (ec || call->state != phase::backoff)
        return;  // cancelled by the deadline or shutdown, which finish it
      call->state = phase::queued;
      queue.push_front(call);
      pump();
    });
    pump();
  }

  void on_deadline(const call_ptr& call) {
    if (call->state == phase::finished)
      return;
    call->expired = true;
    switch (call->state) {
      case phase::queued:
        queue.erase(std::remove(queue.begin(), queue.end(), call), queue.end());
        finish_cut(call);
        break;
      case phase::backoff:
        call->backoff_timer.cancel();
        finish_cut(call);
        break;
      case phase::active:
        // The pending operation completes with an error and finishes it.
        call->conn->abort();
        break;
      case phase::finished:
        break;
    }
  }

  /// Finishes a call cut short by its deadline or by shutdown.
  void finish_cut(const call_ptr& call) {
    std::string text;
    if (call->expired) {
      text = "no reply within the call's deadline of " +
             ms_text(call->post.timeout);
      if (call->state == phase::active)
        text += " (" + call->step + ")";
      else if (call->state == phase::queued && call->attempts == 0)
        text += " (still queued behind the in-flight cap)";
    } else {
      text = "the adapter shut down before the call completed";
    }
    if (!call->last_error.empty())
      text += "; last error: " + call->last_error;
    finish_error(call, text);
    pump();
  }

  void finish_error(const call_ptr& call, const std::string& text) {
    http_result r;
    r.error = text;
    finish(call, std::move(r));
  }

  void finish(const call_ptr& call, http_result result) {
    if (call->state == phase::finished)
      return;
    call->state = phase::finished;
    call->deadline_timer.cancel();
    call->backoff_timer.cancel();
    result.attempts = call->attempts;
    result.error = redact(std::move(result.error), cfg.secret);
    live.erase(call);
    auto done = std::move(call->done);
    try {
      done(std::move(result));
    } catch (...) {
      // A throwing handler must not take the I/O thread down with it.
    }
  }

  void shutdown() {
    stopping = true;
    std::vector<call_ptr> calls(live.begin(), live.end());
    for (auto& call : calls) {
      if (call->state == phase::active)
        call->conn->abort();  // its handler finishes it
      else if (call->state != phase::finished) {
        queue.erase(std::remove(queue.begin(), queue.end(), call), queue.end());
        call->backoff_timer.cancel();
        finish_cut(call);
      }
    }
    for (auto& conn : idle)
      conn->abort();
    idle.clear();
    work.reset();
  }
};

std::unique_ptr<http_client> http_client::create(http_client_config config,
                                                 std::string& error) {
  std::unique_ptr<ssl::context> tls;
  if (config.base.tls) {
    tls = std::make_unique<ssl::context>(ssl::context::tls_client);
    error_code ec;
    tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                       ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                       ssl::context::no_tlsv1_1,
                     ec);
    if (config.ca_file.empty())
      tls->set_default_verify_paths(ec);
    else
      tls->load_verify_file(config.ca_file, ec);
    if (ec) {
      error = config.ca_file.empty()
                ? "cannot load the system CA store: " + ec.message()
                : "cannot load CA file '" + config.ca_file + "': " + ec.message();
      return nullptr;
    }
    tls->set_verify_mode(ssl::verify_peer);
  }
  config.max_in_flight = std::max<std::uint32_t>(config.max_in_flight, 1);
  config.max_attempts = std::max<std::uint32_t>(config.max_attempts, 1);
  auto c = std::make_shared<core>(std::move(config), std::move(tls));
  return std::unique_ptr<http_client>(new http_client(std::move(c)));
}

http_client::http_client(std::shared_ptr<core> c) : core_(std::move(c)) {
  // The thread holds the state too, so a client destroyed from inside one
  // of its own handlers can detach and let the thread wind down safely.
  thread_ = std::thread([c = core_] { c->io.run(); });
}

http_client::~http_client() {
  net::post(core_->io, [c = core_.get()] { c->shutdown(); });
  if (thread_.get_id() == std::this_thread::get_id())
    thread_.detach();
  else
    thread_.join();
}

void http_client::post(http_post request, http_handler done) {
  auto call = std::make_shared<pending_call>(core_->io, std::move(request),
                                             std::move(done));
  net::post(core_->io, [c = core_.get(), call] { c->submit(call); });
}

std::uint32_t http_client::current_concurrency() const {
  return core_->limit.current();
}

std::uint64_t http_client::connections_opened() const {
  return core_->opened.load(std::memory_order_relaxed);
}

const url& http_client::base() const {
  return core_->cfg.base;
}

} // namespace ij
