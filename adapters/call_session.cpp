#include "adapters/call_session.hpp"

#include <algorithm>

#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>

#include "adapters/api_error.hpp"
#include "adapters/redaction.hpp"
#include "adapters/retry_policy.hpp"

namespace ij {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
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
  return ec == http::error::end_of_stream || ec == net::error::eof
         || ec == net::error::connection_reset || ec == net::error::broken_pipe
         || ec == net::error::connection_aborted
         || ec == ssl::error::stream_truncated;
}

std::string header(const http::response<http::string_body>& res,
                   const char* name) {
  auto it = res.find(name);
  return it == res.end() ? std::string{} : std::string(it->value());
}

} // namespace

call_session::call_session(call_environment env, http_post post,
                           http_handler done)
    : env_(env), post_(std::move(post)), done_(std::move(done)),
      deadline_timer_(env.io), backoff_timer_(env.io) {}

void call_session::begin() {
  const auto& base = env_.config.base;
  request_.method(post_.probe ? http::verb::get : http::verb::post);
  request_.target(post_.target);
  request_.version(11);
  request_.set(http::field::host, base.host_header());
  request_.set(http::field::user_agent, user_agent);
  if (!post_.probe)
    request_.set(http::field::content_type, "application/json");
  request_.set(http::field::accept, "application/json");
  for (auto& [name, value] : post_.headers)
    request_.set(name, value);
  request_.keep_alive(true);
  request_.body() = std::move(post_.body);
  request_.prepare_payload();
  // One deadline for the whole call: time queued and every retry count.
  deadline_ = clock_type::now() + post_.timeout;
  deadline_timer_.expires_at(deadline_);
  deadline_timer_.async_wait([self = shared_from_this()](error_code ec) {
    if (!ec)
      self->on_deadline();
  });
}

void call_session::refuse() {
  finish_error("the adapter is shutting down; call not sent",
               fault_kind::unavailable);
}

void call_session::start_attempt() {
  phase_ = phase::active;
  ++attempts_;
  // Overload replies to requests sent before the cap last fell are ignored.
  epoch_ = env_.limit.epoch();
  // A kept-alive connection skips resolve, connect and handshake.
  if (auto conn = env_.pool.take_idle()) {
    conn_ = std::move(conn);
    conn_reused_ = true;
    return send_request();
  }
  conn_ = env_.pool.make_new();
  conn_reused_ = false;
  resolve();
}

// Step 1: the host's addresses, looked up per connection so that a server
// that moved is found again.
void call_session::resolve() {
  const auto& base = env_.config.base;
  step_ = "resolving " + base.host;
  auto conn = conn_;
  conn->resolver.async_resolve(
    base.host, std::to_string(base.port),
    [self = shared_from_this(), conn](error_code ec,
                                      tcp::resolver::results_type where) {
      if (ec)
        return self->attempt_failed(ec);
      if (self->cut_short())
        return;
      self->connect(conn, where);
    });
}

// Step 2: TCP, bounded by the connect timeout (a black-holed address must
// not eat the whole call deadline on one attempt).
void call_session::connect(const connection_ptr& conn,
                           const tcp::resolver::results_type& where) {
  const auto& cfg = env_.config;
  step_ = "connecting to " + cfg.base.host_header();
  conn->lowest().expires_after(std::min(cfg.connect_timeout, time_left()));
  conn->lowest().async_connect(where, [self = shared_from_this(), conn](
                                        error_code ec, const tcp::endpoint&) {
    const auto& cfg = self->env_.config;
    if (ec == beast::error::timeout)
      return self->attempt_failed_text("connect to " + cfg.base.host_header()
                                         + " timed out after "
                                         + ms_text(cfg.connect_timeout),
                                       fault_kind::timeout);
    if (ec)
      return self->attempt_failed(ec);
    if (self->cut_short())
      return;
    // Requests are small and answered whole: no Nagle delay on them.
    conn->lowest().socket().set_option(tcp::no_delay(true), ec);
    if (conn->tls)
      return self->handshake(conn);
    conn->lowest().expires_never();
    self->send_request();
  });
}

// Step 3 (https only): TLS with SNI and the server's name verified against
// its certificate.
void call_session::handshake(const connection_ptr& conn) {
  const auto& cfg = env_.config;
  step_ = "TLS handshake with " + cfg.base.host;
  auto& stream = *conn->tls;
  // SNI takes DNS names only; IP literals are verified against the
  // certificate's IP addresses by host_name_verification.
  if (!is_ip_literal(cfg.base.host)
      && !SSL_set_tlsext_host_name(stream.native_handle(),
                                   cfg.base.host.c_str()))
    return attempt_failed_text("TLS: cannot set the server name (SNI)",
                               fault_kind::connection);
  stream.set_verify_mode(ssl::verify_peer);
  stream.set_verify_callback(ssl::host_name_verification(cfg.base.host));
  conn->lowest().expires_after(std::min(cfg.connect_timeout, time_left()));
  stream.async_handshake(
    ssl::stream_base::client, [self = shared_from_this(), conn](error_code ec) {
      if (ec == beast::error::timeout)
        return self->attempt_failed_text(
          "TLS handshake with " + self->env_.config.base.host + " timed out",
          fault_kind::timeout);
      if (ec)
        return self->attempt_failed(ec);
      if (self->cut_short())
        return;
      conn->lowest().expires_never();
      self->send_request();
    });
}

// Step 4: the request, on a fresh or a kept-alive connection. From here on
// only the call's deadline bounds the attempt (a model may think long).
void call_session::send_request() {
  step_ = "sending the request";
  // From here the server may see the call, whatever happens next.
  ++requests_sent_;
  sent_at_ = clock_type::now();
  parser_.emplace();
  parser_->body_limit(env_.config.max_response_bytes);
  auto conn = conn_;
  conn->with_stream([&](auto& stream) { write_request(conn, stream); });
}

template <class Stream>
void call_session::write_request(const connection_ptr& conn, Stream& stream) {
  http::async_write(
    stream, request_,
    [self = shared_from_this(), conn, &stream](error_code ec, std::size_t) {
      if (ec)
        return self->attempt_failed(ec);
      if (self->cut_short())
        return;
      self->read_header(conn, stream);
    });
}

// Step 5: the header alone first: Beast 1.74 loses the body_limit error for
// a Content-Length that arrives together with the body, so the announced
// length is checked here.
template <class Stream>
void call_session::read_header(const connection_ptr& conn, Stream& stream) {
  step_ = "waiting for the response";
  http::async_read_header(
    stream, conn->buffer, *parser_,
    [self = shared_from_this(), conn, &stream](error_code ec, std::size_t) {
      if (ec)
        return self->attempt_failed(ec);
      if (self->cut_short())
        return;
      auto length = self->parser_->content_length();
      if (length && *length > self->env_.config.max_response_bytes)
        return self->attempt_failed(http::error::body_limit);
      self->read_body(conn, stream);
    });
}

// Step 6: the body, within the response size limit.
template <class Stream>
void call_session::read_body(const connection_ptr& conn, Stream& stream) {
  step_ = "reading the response body";
  http::async_read(
    stream, conn->buffer, *parser_,
    [self = shared_from_this(), conn](error_code ec, std::size_t) {
      if (ec)
        return self->attempt_failed(ec);
      self->on_response();
    });
}

// Step 7: a complete response. A success answers; an error status answers
// unless the server or the status says another attempt may succeed.
void call_session::on_response() {
  bool keep = parser_->keep_alive();
  auto res = parser_->release();
  parser_.reset();
  http_result result;
  result.responded = true;
  result.status = res.result_int();
  result.body = std::move(res.body());
  result.request_id = header(res, "request-id");
  if (result.request_id.empty())
    result.request_id = header(res, "x-request-id");
  end_attempt(keep);
  auto& slots = env_.slots;
  slots.responded(clock_type::now() - sent_at_, post_.probe);
  // A probe's answer, whatever its status, is the round trip it timed.
  if (post_.probe || (result.status >= 200 && result.status < 300)) {
    if (!post_.probe)
      env_.limit.on_success();
    finish(std::move(result));
    return slots.pump();
  }
  if (result.status == 429 || result.status == 529)
    env_.limit.on_overload(epoch_);
  if (!should_retry_response(result.status, header(res, "x-should-retry"))) {
    finish(std::move(result));
    return slots.pump();
  }
  auto delay = server_retry_delay(header(res, "retry-after-ms"),
                                  header(res, "retry-after"),
                                  std::chrono::system_clock::now());
  auto text = "HTTP " + std::to_string(result.status) + ": "
              + parse_api_error(result.body).message;
  retry_or_finish(text, fault_kind::none, delay, std::move(result));
}

/// True (and the call answered) when the deadline or shutdown cut the call
/// while a step was completing: a step that succeeded just as its
/// connection was aborted must not start the next one (a resolve, for one,
/// would open a fresh socket past the abort).
bool call_session::cut_short() {
  if (!ending())
    return false;
  end_attempt(false);
  finish_cut();
  return true;
}

bool call_session::ending() const {
  return expired_ || aborted_ || env_.slots.stopping();
}

/// Ends the attempt's hold on its slot and connection.
void call_session::end_attempt(bool reusable) {
  env_.slots.attempt_ended();
  env_.pool.give_back(std::move(conn_), reusable && !env_.slots.stopping());
}

std::string call_session::describe(const error_code& ec) const {
  const auto& cfg = env_.config;
  if (ec == http::error::body_limit)
    return "response body exceeds the limit of "
           + std::to_string(cfg.max_response_bytes) + " bytes";
  if (ec == http::error::partial_message || ec == http::error::end_of_stream
      || ec == net::error::eof)
    return "connection closed by " + cfg.base.host_header() + " while " + step_;
  return step_ + ": " + ec.message();
}

void call_session::attempt_failed(const error_code& ec) {
  if (ending()) {
    end_attempt(false);
    return finish_cut();
  }
  bool nothing_received = !parser_ || !parser_->got_some();
  if (conn_reused_ && nothing_received && stale_connection_error(ec)) {
    // A pooled connection the server had already closed: not the backend's
    // failure, so try again at once on a fresh connection.
    end_attempt(false);
    --attempts_;
    --requests_sent_; // it went to a connection the server had closed
    phase_ = phase::queued;
    return env_.slots.wait_for_slot(shared_from_this(), true);
  }
  auto text = describe(ec);
  end_attempt(false);
  if (ec == http::error::body_limit) // a retry would read the same body
    return finish_error(text, fault_kind::unreadable_reply);
  if (ec.category() == net::error::get_ssl_category()
      && step_.rfind("TLS handshake", 0) == 0)
    // A certificate that fails verification will not pass on a retry.
    return finish_error(text
                          + " (check the server certificate, or name its "
                            "CA with ca_file)",
                        fault_kind::connection);
  retry_or_finish(text, fault_kind::connection, std::nullopt, std::nullopt);
}

void call_session::attempt_failed_text(const std::string& text,
                                       fault_kind fault) {
  end_attempt(false);
  if (ending())
    return finish_cut();
  retry_or_finish(text, fault, std::nullopt, std::nullopt);
}

// After a failed attempt: wait and try again as the retry policy plans, or
// answer with the last response (or error) when it plans no retry.
void call_session::retry_or_finish(
  const std::string& error_text, fault_kind fault,
  std::optional<std::chrono::milliseconds> server_delay,
  std::optional<http_result> response) {
  const auto& cfg = env_.config;
  last_error_ = error_text;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
    deadline_ - clock_type::now());
  auto plan =
    plan_retry({cfg.max_attempts, cfg.retry_base_delay, cfg.retry_max_delay},
               attempts_, server_delay, left, post_.timeout, unit(env_.rng));
  if (!plan.retry) {
    if (response) {
      response->error = plan.no_time;
      finish(std::move(*response));
    } else {
      finish_error(plan.no_time.empty() ? error_text
                                        : error_text + "; " + plan.no_time,
                   fault);
    }
    return env_.slots.pump();
  }
  phase_ = phase::backoff;
  backoff_timer_.expires_after(plan.delay);
  backoff_timer_.async_wait([self = shared_from_this()](error_code ec) {
    if (ec || self->phase_ != phase::backoff)
      return; // cancelled by the deadline or shutdown, which answer
    self->phase_ = phase::queued;
    self->env_.slots.wait_for_slot(self, true);
  });
  env_.slots.pump();
}

void call_session::on_deadline() {
  if (phase_ == phase::finished)
    return;
  expired_ = true;
  switch (phase_) {
    case phase::queued:
      env_.slots.withdraw(*this);
      finish_cut();
      break;
    case phase::backoff:
      backoff_timer_.cancel();
      finish_cut();
      break;
    case phase::active:
      // The pending step completes with an error and answers.
      conn_->abort();
      break;
    case phase::finished: break;
  }
}

void call_session::shut_down() {
  if (phase_ == phase::active) {
    conn_->abort(); // its handler answers
  } else if (phase_ != phase::finished) {
    env_.slots.withdraw(*this);
    backoff_timer_.cancel();
    finish_cut();
  }
}

// The connection of a request under way is closed (the server sees the
// client go); the slot is given back when the step's handler answers, at
// once on this thread.
void call_session::abort() {
  if (phase_ == phase::finished || aborted_)
    return;
  aborted_ = true;
  shut_down();
}

/// Answers a call cut short by an abort, its deadline or shutdown.
void call_session::finish_cut() {
  std::string text;
  fault_kind fault = fault_kind::timeout;
  if (aborted_) {
    text = "aborted: its run was cancelled ("
           + std::string{requests_sent_ > 0 ? "the request had been sent"
                                            : "nothing had been sent"}
           + ")";
    fault = fault_kind::aborted;
  } else if (expired_) {
    text = "no reply within the call's deadline of " + ms_text(post_.timeout);
    if (phase_ == phase::active)
      text += " (" + step_ + ")";
    else if (phase_ == phase::queued && attempts_ == 0)
      text += " (still queued behind the in-flight cap)";
  } else {
    text = "the adapter shut down before the call completed";
    fault = fault_kind::unavailable;
  }
  if (!last_error_.empty())
    text += "; last error: " + last_error_;
  finish_error(text, fault);
  env_.slots.pump();
}

void call_session::finish_error(const std::string& text, fault_kind fault) {
  http_result r;
  r.error = text;
  r.fault = fault;
  finish(std::move(r));
}

void call_session::finish(http_result result) {
  if (phase_ == phase::finished)
    return;
  auto keep_alive = shared_from_this(); // the client may drop its reference
  phase_ = phase::finished;
  deadline_timer_.cancel();
  backoff_timer_.cancel();
  result.attempts = attempts_;
  result.requests_sent = requests_sent_;
  result.error = redact(std::move(result.error), env_.config.secret);
  env_.slots.answered(*this);
  auto done = std::move(done_);
  try {
    done(std::move(result));
  } catch (...) {
    // A throwing handler must not take the I/O thread down with it.
  }
}

/// What is left of the deadline, at least 1 ms (for a step's own timeout).
std::chrono::milliseconds call_session::time_left() const {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
    deadline_ - clock_type::now());
  return std::max(left, std::chrono::milliseconds(1));
}

} // namespace ij
