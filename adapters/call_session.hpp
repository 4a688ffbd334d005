#pragma once
// One HTTP call, from the moment it is queued to its one answer. The deadline
// covers every attempt; each attempt is a chain of steps (resolve, connect,
// TLS handshake, write, read the header, read the body), then the response
// is judged: a success, a final error, or a retry after the wait the retry
// policy plans (adapters/retry_policy.hpp). The client that runs the session
// (adapters/http_client.cpp) owns the queue and the in-flight slots.
//
// Every handler runs on the client's I/O thread and holds the session by
// shared_ptr; the session ends by calling its `done` exactly once.
//
// Private to adapters/ (Beast and Asio types).
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http.hpp>

#include "adapters/adaptive_limit.hpp"
#include "adapters/connection_pool.hpp"
#include "adapters/http_client.hpp"

namespace ij {

class call_session;
using call_ptr = std::shared_ptr<call_session>;

/// What the client gives a session: the slots of its in-flight cap.
class call_slots {
public:
  virtual ~call_slots() = default;
  /// The session waits for a slot (ahead of the others for a retry).
  virtual void wait_for_slot(call_ptr call, bool ahead) = 0;
  /// The session no longer waits (its deadline passed in the queue).
  virtual void withdraw(const call_session& call) = 0;
  /// An attempt ended: its slot is free (pump() gives it out).
  virtual void attempt_ended() = 0;
  /// Starts waiting sessions while slots are free.
  virtual void pump() = 0;
  /// The session has answered.
  virtual void answered(const call_session& call) = 0;
  virtual bool stopping() const = 0;
  /// A request was answered `d` after it was written; `probe`: a round
  /// trip probe's (http_post::probe).
  virtual void responded(std::chrono::steady_clock::duration d, bool probe) = 0;
};

/// The client's parts a session uses.
struct call_environment {
  boost::asio::io_context& io;
  const http_client_config& config;
  connection_pool& pool;
  adaptive_limit& limit;
  std::mt19937_64& rng;
  call_slots& slots;
};

class call_session : public std::enable_shared_from_this<call_session> {
public:
  enum class phase { queued, active, backoff, finished };

  call_session(call_environment env, http_post post, http_handler done);

  /// Builds the request and starts the deadline; the client then queues it.
  void begin();
  /// Answers at once that the call was not sent (the client is stopping).
  void refuse();
  /// A slot was granted: the next attempt starts now.
  void start_attempt();
  /// The client shuts down: an attempt under way is aborted (its handler
  /// then answers), a waiting call answers at once.
  void shut_down();
  /// Its run was cancelled: as shut_down, answered as `aborted` with the
  /// requests that reached the server.
  void abort();

  /// The caller's name for the call (http_post::call_id), 0: none.
  std::uint64_t id() const { return post_.call_id; }
  bool is_probe() const { return post_.probe; }

  phase state() const { return phase_; }

private:
  using tcp = boost::asio::ip::tcp;
  using error_code = boost::system::error_code;

  // The steps of one attempt, in order.
  void resolve();
  void connect(const connection_ptr& conn,
               const tcp::resolver::results_type& where);
  void handshake(const connection_ptr& conn);
  void send_request();
  template <class Stream>
  void write_request(const connection_ptr& conn, Stream& stream);
  template <class Stream>
  void read_header(const connection_ptr& conn, Stream& stream);
  template <class Stream>
  void read_body(const connection_ptr& conn, Stream& stream);
  void on_response();

  // How an attempt ends.
  bool cut_short();
  /// The deadline, shutdown or an abort has ended the call.
  bool ending() const;
  void end_attempt(bool reusable);
  void attempt_failed(const error_code& ec);
  void attempt_failed_text(const std::string& text, fault_kind fault);
  std::string describe(const error_code& ec) const;
  void retry_or_finish(const std::string& error_text, fault_kind fault,
                       std::optional<std::chrono::milliseconds> server_delay,
                       std::optional<http_result> response);

  // How the call ends.
  void on_deadline();
  void finish_cut();
  void finish_error(const std::string& text, fault_kind fault);
  void finish(http_result result);

  std::chrono::milliseconds time_left() const;

  call_environment env_;
  http_post post_;
  http_handler done_;
  boost::beast::http::request<boost::beast::http::string_body> request_;
  std::chrono::steady_clock::time_point deadline_;
  boost::asio::steady_timer deadline_timer_;
  boost::asio::steady_timer backoff_timer_;
  phase phase_ = phase::queued;
  std::uint32_t attempts_ = 0;
  /// The adaptive cap's epoch when this attempt was sent.
  std::uint64_t epoch_ = 0;
  bool expired_ = false;
  /// abort() was called: the call ends as `aborted`.
  bool aborted_ = false;
  /// Requests written (or being written) to the server, over all attempts.
  std::uint32_t requests_sent_ = 0;
  /// Where the current attempt is, for error texts.
  std::string step_;
  /// Why the previous attempt failed, for the final error.
  std::string last_error_;
  connection_ptr conn_;
  bool conn_reused_ = false;
  /// When the current attempt's request was written.
  std::chrono::steady_clock::time_point sent_at_;
  std::optional<
    boost::beast::http::response_parser<boost::beast::http::string_body>>
    parser_;
};

} // namespace ij
