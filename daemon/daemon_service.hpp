#pragma once
// The evaluation daemon behind `invjudge serve`: the HTTP API over runs that
// share the judge workers of one actor system (docs/ARCHITECTURE.md,
// "The daemon"). Requests are handled on the HTTP server's threads, which
// do the blocking work a request needs (parsing, files, SQLite reads) and
// talk to the actors only by messages (issue 26, item 4): a live run is
// found through the run registry (daemon/run_registry) and asked by its
// actor (daemon/run_actor); the reply is written when the actor answers,
// and a request no actor answers within `reply_timeout` is answered 503
// `busy` rather than holding a thread. A finished run is read from the
// state (daemon/state_store): it keeps nothing in the process.
//
// Requests are routed by a table (daemon/api_routes: method + path
// pattern -> endpoint -> handler); each handler returns a typed result
// (daemon/api_result) rendered in one place. The endpoints, their bodies,
// statuses and errors are described in docs/openapi.yaml (a test checks
// that it and the table agree). Every endpoint but /healthz needs
// "Authorization: Bearer TOKEN" when a token is set.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <caf/actor_system.hpp>
#include <caf/error.hpp>
#include <caf/expected.hpp>

#include "adapters/response_cache.hpp"
#include "daemon/api_result.hpp"
#include "daemon/api_routes.hpp"
#include "daemon/batch_state_journal.hpp"
#include "daemon/bearer_token.hpp"
#include "daemon/http_server.hpp"
#include "daemon/run_actor.hpp"
#include "daemon/state_store.hpp"

namespace ij {

struct daemon_options {
  std::string state_dir;
  /// Empty: no authentication (only allowed on a loopback address).
  std::string token;
  /// The response cache shared by every run (opt-in: SERVE.json "cache").
  cache_config cache;
  /// A request an actor must answer gets 503 busy after this.
  std::chrono::milliseconds reply_timeout{10000};
  /// Retention of finished runs (SERVE.json "retention"; 0: keep all).
  std::int64_t keep_ms = 0;
  std::uint64_t keep_runs = 0;
  /// Lines for the daemon's log (the retention's removals).
  std::function<void(const std::string&)> log;
  /// Called when the last live run has ended (none is under way): `serve`
  /// gives the allocator's free memory back to the system then.
  std::function<void()> idle;
};

class daemon_service {
public:
  /// Opens the state under options.state_dir and resumes every unfinished
  /// run; io_failed naming what could not be opened.
  static caf::expected<std::unique_ptr<daemon_service>>
  open(caf::actor_system& sys, daemon_options options);
  ~daemon_service();

  /// The HTTP handler (thread-safe).
  http_reply handle(const http_request& req);

  /// The server's stream opener: pair uploads (POST /v1/runs/{id}/pairs)
  /// are taken in pieces, so memory stays bounded whatever the body size;
  /// refused at once (401, 415) or once the run has answered (404, 409,
  /// 410, 503) when they cannot be taken.
  stream_decision open_stream(const http_request& req);

  /// SIGTERM: every run is ended like Ctrl-C (it resumes at the next
  /// start), then the state database is checkpointed; waits at most
  /// `grace` (at least 5 s) for the runs.
  void shutdown(std::chrono::milliseconds grace);

  /// Runs resumed at open, and why the others could not be.
  std::uint32_t resumed() const { return resumed_; }
  const std::vector<std::string>& resume_failures() const {
    return resume_failures_;
  }

  /// A request as a handler sees it: the path's captured segments
  /// ("{id}") and the query string.
  struct api_request {
    const http_request& http;
    route_params params;
    std::string query;
  };
  using handler_fn = api_result (daemon_service::*)(const api_request&);
  /// The longest a follower may wait for verdicts (GET .../verdicts?wait_ms).
  static constexpr std::uint64_t max_wait_ms = 60000;
  /// GET /v1/runs: runs per page by default and at most.
  static constexpr std::size_t default_page = 100;
  static constexpr std::size_t max_page = 1000;
  /// The handler of each of the API's endpoints (daemon/api_routes).
  static handler_fn handler_of(api_endpoint e);

private:
  daemon_service(caf::actor_system& sys, daemon_options options);
  bool authorized(const http_request& req) const;
  caf::error resume_runs();
  caf::error resume(const run_row& row);

  /// Asks live run `id`'s actor `xs...` (waiting `wait` longer than the
  /// reply timeout): `live` makes the answer from its reply, `not_live`
  /// when no run of that id is live; a conflict the actor answers is a 409
  /// with code `conflict`. `idle`: a follower's wait.
  template <class R, class... Ts>
  api_result ask_live(const std::string& id, std::chrono::milliseconds wait,
                      std::function<api_result(R&)> live,
                      std::function<api_result()> not_live, bool idle,
                      const char* conflict, Ts... xs);
  /// A run that is not live, from the state: `found` makes the answer;
  /// 410 when the retention removed it, else 404.
  api_result stored(const std::string& id,
                    const std::function<api_result(run_row&)>& found);
  api_result lines_after(const std::string& id, std::uint64_t after,
                         run_state state);

  api_result health(const api_request& req);
  api_result metrics(const api_request& req);
  api_result create_run(const api_request& req);
  api_result list_runs(const api_request& req);
  api_result get_run(const api_request& req);
  api_result cancel_run(const api_request& req);
  api_result upload_pairs(const api_request& req);
  api_result close_run(const api_request& req);
  api_result verdicts(const api_request& req);
  api_result audit(const api_request& req);

  caf::actor_system& sys_;
  daemon_options options_;
  std::unique_ptr<state_store> store_;
  std::shared_ptr<response_cache> cache_;
  /// Where batched judges record their batches (daemon/batch_state_journal).
  std::shared_ptr<batch_state_journal> batch_journal_;
  daemon_context ctx_;
  run_registry_actor registry_;
  std::uint32_t resumed_ = 0;
  std::vector<std::string> resume_failures_;
};

} // namespace ij
