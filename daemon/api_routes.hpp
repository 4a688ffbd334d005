#pragma once
// The daemon's API as routes: method + path pattern -> endpoint, one table
// shared by the daemon (daemon_service binds each endpoint to its handler),
// the test that holds docs/openapi.yaml to it, and the request fuzzer.
#include "daemon/route_table.hpp"

namespace ij {

enum class api_endpoint {
  health,
  metrics,
  create_run,
  list_runs,
  get_run,
  cancel_run,
  upload_pairs,
  close_run,
  verdicts,
  audit,
};

struct api_route {
  api_endpoint endpoint;
  /// Every endpoint but /healthz needs the bearer token (when one is set).
  bool needs_token = true;
};

/// The routes, built once.
const route_table<api_route>& api_routes();

} // namespace ij
