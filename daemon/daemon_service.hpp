#pragma once
// The evaluation daemon behind `invjudge serve`: the HTTP API over runs that
// share the judge workers of one actor system (docs/ARCHITECTURE.md,
// "The daemon"). Requests are handled on the HTTP server's threads; each run
// is an actor fed by its uploads (daemon/daemon_run.hpp, daemon/run_actor.hpp);
// actors never block.
//
// Requests are routed by a table (daemon/api_routes: method + path
// pattern -> endpoint -> handler); each handler returns a typed result
// (daemon/api_result) rendered in one place. The endpoints, their bodies,
// statuses and errors are described in docs/openapi.yaml (a test checks
// that it and the table agree). Every endpoint but /healthz needs
// "Authorization: Bearer TOKEN" when a token is set.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include <caf/actor_system.hpp>
#include <caf/error.hpp>
#include <caf/expected.hpp>

#include "adapters/batch_judge.hpp"
#include "adapters/response_cache.hpp"
#include "daemon/api_result.hpp"
#include "daemon/api_routes.hpp"
#include "daemon/batch_state_journal.hpp"
#include "daemon/bearer_token.hpp"
#include "daemon/daemon_run.hpp"
#include "daemon/http_server.hpp"
#include "daemon/run_events.hpp"

namespace ij {

struct daemon_options {
  std::string state_dir;
  /// Empty: no authentication (only allowed on a loopback address).
  std::string token;
  /// The response cache shared by every run (opt-in: SERVE.json "cache").
  cache_config cache;
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
  /// refused at once (401, 404, 409, 415) when they cannot be taken.
  std::unique_ptr<body_stream> open_stream(const http_request& req,
                                           http_response& refusal);

  /// SIGTERM: every run is ended like Ctrl-C (it resumes at the next start),
  /// then the state database is checkpointed.
  void shutdown();

  /// Runs resumed at open, and why the others could not be.
  std::uint32_t resumed() const {
    return resumed_;
  }
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
  /// The handler of each of the API's endpoints (daemon/api_routes).
  static handler_fn handler_of(api_endpoint e);

private:
  daemon_service(caf::actor_system& sys, daemon_options options);
  bool authorized(const http_request& req) const;
  /// bad_config when a judge cannot be bound or started.
  caf::error ensure_workers(const run_config& cfg);
  void resume_runs();
  /// Hands every batched judge the open batches of run `run_id` (from the
  /// batch journal), before the run's session starts.
  caf::error adopt_batches(const std::string& run_id);
  /// Cancels run `run_id`'s batches at the providers.
  void cancel_batches(const std::string& run_id);
  caf::expected<std::shared_ptr<daemon_run>> resume(const run_row& row);
  std::shared_ptr<daemon_run> find(const std::string& id);
  /// The run `id` as now (live or stored); nullopt when there is none.
  std::optional<run_row> lookup(const std::string& id,
                                std::shared_ptr<daemon_run>& run);

  api_result health(const api_request& req);
  api_result metrics(const api_request& req);
  api_result create_run(const api_request& req);
  api_result list_runs(const api_request& req);
  api_result get_run(const api_request& req);
  api_result cancel_run(const api_request& req);
  api_result upload_pairs(const api_request& req);
  api_result close_run(const api_request& req);
  api_result verdicts(const api_request& req);
  api_result verdicts_after(const std::string& id, std::uint64_t after);
  api_result audit(const api_request& req);

  caf::actor_system& sys_;
  daemon_options options_;
  run_events events_; // before store_: the store's writer signals it
  std::unique_ptr<state_store> store_;
  std::shared_ptr<response_cache> cache_;
  /// Where batched judges record their batches (daemon/batch_state_journal).
  std::shared_ptr<batch_state_journal> batch_journal_;
  daemon_context ctx_;
  std::mutex mtx_;
  std::map<std::string, std::shared_ptr<daemon_run>> runs_;
  std::set<std::string> served_judges_;
  /// The batched judges among the workers' (under workers_mtx_).
  std::vector<std::shared_ptr<batch_judge>> batch_judges_;
  std::mutex workers_mtx_;
  std::uint32_t resumed_ = 0;
  std::vector<std::string> resume_failures_;
};

} // namespace ij
