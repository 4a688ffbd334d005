#include "daemon/api_routes.hpp"

namespace ij {

const route_table<api_route>& api_routes() {
  using boost::beast::http::verb;
  using e = api_endpoint;
  static const auto table = [] {
    route_table<api_route> t;
    t.add(verb::get, "/healthz", {e::health, false});
    t.add(verb::get, "/metrics", {e::metrics});
    t.add(verb::post, "/v1/runs", {e::create_run});
    t.add(verb::get, "/v1/runs", {e::list_runs});
    t.add(verb::get, "/v1/runs/{id}", {e::get_run});
    t.add(verb::delete_, "/v1/runs/{id}", {e::cancel_run});
    t.add(verb::post, "/v1/runs/{id}/pairs", {e::upload_pairs});
    t.add(verb::post, "/v1/runs/{id}/close", {e::close_run});
    t.add(verb::get, "/v1/runs/{id}/verdicts", {e::verdicts});
    t.add(verb::get, "/v1/runs/{id}/audit", {e::audit});
    return t;
  }();
  return table;
}

} // namespace ij
