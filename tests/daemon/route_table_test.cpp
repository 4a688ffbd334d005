// The route table alone: patterns with {name} segments, the captured
// values, 405's allowed methods and what is not a match (an empty segment,
// a trailing slash, a longer or shorter path).
#include <catch2/catch.hpp>

#include "daemon/api_routes.hpp"
#include "daemon/bearer_token.hpp"

using namespace ij;
using boost::beast::http::verb;

TEST_CASE("route table: patterns capture their segments, 405 lists the path's "
          "methods") {
  route_table<int> t;
  t.add(verb::get, "/v1/runs", 1);
  t.add(verb::post, "/v1/runs", 2);
  t.add(verb::get, "/v1/runs/{id}", 3);
  t.add(verb::post, "/v1/runs/{id}/pairs", 4);
  auto m = t.find(verb::post, "/v1/runs/run-7/pairs");
  REQUIRE(m.found);
  CHECK(m.found->handler == 4);
  CHECK(m.params.get("id") == "run-7");
  CHECK(m.params.get("other").empty());
  auto wrong = t.find(verb::delete_, "/v1/runs");
  CHECK(!wrong.found);
  CHECK(wrong.allowed == std::vector<verb>{verb::get, verb::post});
  for (auto path : {"/v1/runs/", "/v1/runs//pairs", "/v1/runs/x/pairs/", "/v1",
                    "", "v1/runs", "/v1/runs/x/y/pairs"}) {
    INFO(path);
    auto none = t.find(verb::get, path);
    CHECK(!none.found);
  }
  CHECK(t.find(verb::get, "/v1/runs/x").found->handler == 3);
}

TEST_CASE("the API's routes: only /healthz without a token") {
  std::size_t open = 0;
  for (auto& r : api_routes().routes())
    if (!r.handler.needs_token) {
      ++open;
      CHECK(r.pattern == "/healthz");
    }
  CHECK(open == 1);
  CHECK(
    api_routes().find(verb::get, "/v1/runs/abc/audit").found->handler.endpoint
    == api_endpoint::audit);
}

TEST_CASE("bearer tokens: the scheme in any case, the token exactly") {
  CHECK(bearer_matches("Bearer t0k", "t0k"));
  CHECK(bearer_matches("bearer t0k", "t0k"));
  CHECK(bearer_matches("bEaReR   t0k  ", "t0k"));
  CHECK(!bearer_matches("Bearer T0k", "t0k"));
  CHECK(!bearer_matches("Bearer t0k1", "t0k"));
  CHECK(!bearer_matches("Bearer", "t0k"));
  CHECK(!bearer_matches("Bearer ", "t0k"));
  CHECK(!bearer_matches("Basic t0k", "t0k"));
  CHECK(!bearer_matches("Bearert0k", "t0k"));
  CHECK(!bearer_matches("", "t0k"));
}
