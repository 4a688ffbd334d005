#pragma once
// The evaluation daemon behind `invjudge serve`: the HTTP API over runs that
// share the judge workers of one actor system (docs/ARCHITECTURE.md,
// "The daemon"). Requests are handled on the HTTP server's threads; each run
// has a thread of its own (daemon/daemon_run.hpp); actors never block.
//
// Endpoints (JSON; errors {"error": {"code", "message"}}):
//   POST /v1/runs                 {"config": {...}, "name"?} -> 201
//   POST /v1/runs/{id}/pairs      JSON Lines -> {"accepted", "rejected"}
//   POST /v1/runs/{id}/close      the input is complete
//   GET  /v1/runs, /v1/runs/{id}  state and counts
//   GET  /v1/runs/{id}/verdicts?after=N   JSON Lines with "seq"
//   GET  /v1/runs/{id}/audit      the audit trail
//   DELETE /v1/runs/{id}          cancel
//   GET  /metrics                 Prometheus text
//   GET  /healthz                 200 while serving
// Every endpoint but /healthz needs "Authorization: Bearer TOKEN" when a
// token is set.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include <caf/actor_system.hpp>

#include "adapters/response_cache.hpp"
#include "daemon/daemon_run.hpp"
#include "daemon/http_server.hpp"

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
  /// run; nullptr with `error`.
  static std::unique_ptr<daemon_service>
  open(caf::actor_system& sys, daemon_options options, std::string& error);
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

private:
  daemon_service(caf::actor_system& sys, daemon_options options);
  bool authorized(const http_request& req) const;
  bool ensure_workers(const run_config& cfg, std::string& error);
  std::shared_ptr<daemon_run> find(const std::string& id);
  http_response create_run(const http_request& req);
  http_reply run_request(const http_request& req, const std::string& id,
                            const std::string& rest);
  http_response list_runs(const http_request& req);
  http_response metrics(const http_request& req);

  caf::actor_system& sys_;
  daemon_options options_;
  std::unique_ptr<state_store> store_;
  std::shared_ptr<response_cache> cache_;
  daemon_context ctx_;
  std::mutex mtx_;
  std::map<std::string, std::shared_ptr<daemon_run>> runs_;
  std::set<std::string> served_judges_;
  std::mutex workers_mtx_;
  std::uint32_t resumed_ = 0;
  std::vector<std::string> resume_failures_;
};

/// A constant-time comparison (a token is not guessed byte by byte).
bool same_secret(const std::string& a, const std::string& b);

} // namespace ij
