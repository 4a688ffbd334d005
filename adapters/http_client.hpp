#pragma once
// The HTTP/TLS layer shared by the judge backends: Boost.Beast over Asio on
// the client's own I/O thread. The client (one per adapter) is the call
// scheduler: a queue in front of an adaptive in-flight cap
// (adapters/adaptive_limit.hpp). Its parts:
//   - adapters/connection_pool.hpp: the keep-alive connections (and TLS);
//   - adapters/call_session.hpp: one call, from queueing to its answer,
//     under a whole-call deadline covering every attempt: resolve, connect,
//     handshake, write, read, judge the response;
//   - adapters/retry_policy.hpp: whether and when an attempt is repeated.
//
// With queue_max, requests are sent ahead beyond the cap to a far endpoint,
// so that its slots do not idle a round trip between two calls (issue 31).
//
// `post` returns at once; `done` runs exactly once on the I/O thread. The
// destructor fails what is still pending ("shut down"), then joins the
// thread, so no call is lost and no handler outlives the client's state.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <caf/expected.hpp>

#include "adapters/url.hpp"
#include "messages/fault_kind.hpp"

namespace ij {

struct http_client_config {
  url base;
  /// PEM CA bundle for private deployments; empty: the system store.
  std::string ca_file;
  std::uint32_t max_in_flight = 4;
  /// Requests sent ahead beyond the in-flight cap to cover the endpoint's
  /// round trip, at most (issue 31; 0: none).
  std::uint32_t queue_max = 0;
  std::uint32_t max_attempts = 3;
  std::size_t max_response_bytes = 1 << 20;
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds retry_base_delay{500};
  std::chrono::milliseconds retry_max_delay{8000};
  /// Successes in a row that raise a lowered in-flight cap by one.
  std::uint32_t success_run = 8;
  /// Text never to let through into an error (the API key).
  std::string secret;
};

struct http_post {
  /// Full request target, e.g. "/v1/messages".
  std::string target;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  /// Deadline of the whole call, queueing and retries included.
  std::chrono::milliseconds timeout{60000};
  /// The caller's name for the call, for abort(); 0: none.
  std::uint64_t call_id = 0;
  /// A GET of `target` that times the round trip (the client's own, with
  /// queue_max): whatever the server answers, at once, is the answer.
  bool probe = false;
};

struct http_result {
  /// True when a complete HTTP response arrived (any status).
  bool responded = false;
  unsigned status = 0;
  std::string body;
  /// `request-id` / `x-request-id` of the response, for support requests.
  std::string request_id;
  /// When !responded: what failed. When responded with an error status,
  /// may say why no further attempt was made (deadline).
  std::string error;
  std::uint32_t attempts = 0;
  /// When !responded: the kind of failure (connection, timeout,
  /// unreadable_reply for an oversized body, unavailable after shutdown,
  /// aborted by abort()).
  fault_kind fault = fault_kind::none;
  /// Requests written to the server (a call aborted with none written never
  /// reached it).
  std::uint32_t requests_sent = 0;
};

using http_handler = std::function<void(http_result)>;

class http_client {
public:
  /// Fails (bad_config) when the TLS setup cannot be made, e.g. an
  /// unreadable CA file.
  static caf::expected<std::unique_ptr<http_client>>
  create(http_client_config config);

  ~http_client();
  http_client(const http_client&) = delete;
  http_client& operator=(const http_client&) = delete;

  /// Queues a POST; see the contract above.
  void post(http_post request, http_handler done);

  /// Ends the pending call named `call_id` now (its run was cancelled): a
  /// request under way has its connection closed, a queued or backing-off
  /// one is dropped; its slot is free at once and `done` answers with fault
  /// `aborted`. Unknown or answered ids are ignored. Returns at once.
  void abort(std::uint64_t call_id);

  /// The adaptive in-flight cap now in force.
  std::uint32_t current_concurrency() const;

  /// Requests it sends now beyond that cap, to cover the round trip: the
  /// round trip times the call rate (the cap over the server's own latency:
  /// a response's time less the round trip), at most queue_max
  /// (core/voting/queue_depth.hpp); 0 without queue_max. The round trip is
  /// timed by a GET of the base URL's path (a 404 is as good as any answer),
  /// every 30 s while calls come.
  std::uint32_t calls_ahead() const;

  /// Connections opened so far (keep-alive reuse keeps this low).
  std::uint64_t connections_opened() const;

  const url& base() const;

  struct core;

private:
  explicit http_client(std::shared_ptr<core> c);
  std::shared_ptr<core> core_;
  std::thread thread_;
};

} // namespace ij
