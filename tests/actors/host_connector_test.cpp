// Judge hosts across CAF's middleman: two actor systems in one process on
// 127.0.0.1, a host in one, a coordinator's connector and directory in the
// other (SPEC §10, "Distribution"). Waits only guard against a hang; nothing
// asserts on time.
#include <chrono>
#include <functional>
#include <thread>

#include <caf/io/middleman.hpp>
#include <caf/scoped_actor.hpp>
#include <catch2/catch.hpp>

#include "actors/host_connector.hpp"
#include "actors/judge_directory.hpp"
#include "actors/judge_host.hpp"
#include "actors/local_workers.hpp"
#include "actors/remoting.hpp"
#include "adapters/stub_judges.hpp"
#include "core/prompts/prompt.hpp"
#include "messages/error.hpp"
#include "messages/registration.hpp"
#include "test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

host_connection fast_links() {
  host_connection c;
  c.heartbeat = std::chrono::milliseconds(50);
  c.lost_after = std::chrono::milliseconds(2000);
  c.connection_timeout = std::chrono::milliseconds(60000);
  c.connect_timeout = std::chrono::milliseconds(5000);
  c.retry_max = std::chrono::milliseconds(200);
  return c;
}

struct remote_config : caf::actor_system_config {
  remote_config() {
    ij::add_message_types(*this);
    set("scheduler.max-threads", std::size_t{2});
    configure_remoting(*this, fast_links());
    // No BASP heartbeat in these in-process systems: CAF 0.17.6's middleman,
    // stopped while a 50 ms heartbeat tick is pending, sometimes never
    // finalizes its broker, and LeakSanitizer reports the broker and its
    // servants (1 run in 8 under load; none in 160 without the tick). The
    // connectors' own pings still use fast_links().heartbeat, and a host
    // going away here closes its connection, which needs no heartbeat.
    set("middleman.heartbeat-interval", caf::timespan{0});
  }
};

/// A judge host in its own actor system: stub:numeric, published on a free
/// port of 127.0.0.1.
struct host_side {
  remote_config cfg;
  caf::actor_system sys{cfg};
  judge_directory_actor directory = spawn_judge_directory(sys);
  judge_host_impl_actor host;
  std::uint16_t port = 0;
  std::string name;

  explicit host_side(std::string prompt_id = {}) {
    auto hello = describe_host("127.0.0.1:0");
    if (!prompt_id.empty())
      hello.prompt_id = prompt_id;
    host = sys.spawn(judge_host, hello, directory, std::size_t{1});
    auto published = sys.middleman().publish(
      caf::actor_cast<judge_host_actor>(host), 0, "127.0.0.1", true);
    REQUIRE(published);
    port = *published;
    name = "127.0.0.1:" + std::to_string(port);
    caf::anon_send(host, host_atom::value, name);
    std::vector<judge_binding> judges;
    judges.push_back(test_binding(numeric_judge(), 4));
    REQUIRE(start_local_workers(sys, directory, std::move(judges), name));
  }

  // Workers known to another node are referenced from there: end them, or
  // the actor system waits for them forever.
  ~host_side() {
    caf::scoped_actor self{sys};
    stop_local_workers(self, directory);
    caf::anon_send_exit(host, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(directory, caf::exit_reason::user_shutdown);
  }
};

/// A coordinator's side: a directory and one connector.
struct coordinator_side {
  remote_config cfg;
  caf::actor_system sys{cfg};
  judge_directory_actor directory = spawn_judge_directory(sys);
  host_connector_actor connector;

  explicit coordinator_side(const std::string& host) {
    auto own = describe_host("local");
    own.message_types = registered_message_types(sys.config());
    connector = sys.spawn(host_connector, host, fast_links(), directory,
                          connection_manager(sys, false), own);
  }

  ~coordinator_side() {
    caf::anon_send_exit(connector, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(directory, caf::exit_reason::user_shutdown);
  }

  host_event ready() {
    caf::scoped_actor self{sys};
    host_event out;
    self->request(connector, std::chrono::seconds(60), ready_atom::value)
      .receive([&](host_event& e) { out = std::move(e); },
               [&](caf::error& err) { FAIL(render_error(err)); });
    return out;
  }

  std::vector<worker_entry> workers() {
    caf::scoped_actor self{sys};
    std::vector<worker_entry> out;
    self->request(directory, std::chrono::seconds(10), list_atom::value)
      .receive([&](std::vector<worker_entry>& xs) { out = std::move(xs); },
               [&](caf::error& err) { FAIL(render_error(err)); });
    return out;
  }

  host_event status() {
    caf::scoped_actor self{sys};
    host_event out;
    self->request(connector, std::chrono::seconds(10), status_atom::value)
      .receive([&](host_event& e) { out = std::move(e); },
               [&](caf::error& err) { FAIL(render_error(err)); });
    return out;
  }

  /// Polls until `done` (bounded: a broken build must not hang the suite).
  bool eventually(const std::function<bool()>& done) {
    for (int i = 0; i < 1200; ++i) {
      if (done())
        return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
};

} // namespace

TEST_CASE("a connector joins a host's workers to the directory, and they "
          "leave when the host is lost") {
  auto host = std::make_unique<host_side>();
  coordinator_side c{host->name};
  auto first = c.ready();
  CHECK(first.kind == host_event_kind::connected);
  CHECK(first.host == host->name);
  auto ws = c.workers();
  REQUIRE(ws.size() == 1);
  CHECK(ws[0].info.host == host->name);
  CHECK(ws[0].info.worker_id
        == "test-judge#"
             + ws[0].info.worker_id.substr(ws[0].info.worker_id.find('#') + 1));
  CHECK(ws[0].info.prompt_sha256 == judge_prompt_template_sha256());
  // The host process goes away: its connection closes, the host is lost.
  host.reset();
  CHECK(c.eventually([&] { return c.workers().empty(); }));
  CHECK(c.eventually([&] {
    auto k = c.status().kind;
    return k == host_event_kind::lost || k == host_event_kind::cooled_down;
  }));
}

TEST_CASE("a host announcing another prompt is refused, naming the host and "
          "the field") {
  host_side host{"another/prompt/v9"};
  coordinator_side c{host.name};
  auto e = c.ready();
  CHECK(e.kind == host_event_kind::refused);
  CHECK(e.detail.find(host.name) != std::string::npos);
  CHECK(e.detail.find("prompt_id differs") != std::string::npos);
  CHECK(e.detail.find("another/prompt/v9") != std::string::npos);
  CHECK(c.workers().empty());
}

TEST_CASE("a host nobody listens on is not reachable: the first attempt "
          "ends with the reason") {
  // A port that was free a moment ago: nothing listens there.
  std::string name;
  {
    host_side h;
    name = h.name;
  }
  coordinator_side c{name};
  auto e = c.ready();
  CHECK(e.kind != host_event_kind::connected);
  CHECK(e.detail.find("not reachable") != std::string::npos);
}

TEST_CASE(
  "connect_failure tells a refused connection, a timeout and a failed TLS "
  "handshake apart") {
  host_connection plain;
  host_connection tls;
  tls.tls_cert = "c.pem";
  tls.tls_key = "c.key";
  tls.tls_ca = "ca.pem";
  auto refused =
    caf::make_error(caf::sec::cannot_connect_to_node, "ip_connect failed",
                    "127.0.0.1", std::uint16_t{1});
  for (auto* c : {&plain, &tls})
    CHECK(connect_failure(refused, *c).rfind("connection refused: ", 0) == 0);
  for (auto code : {caf::sec::connection_timeout, caf::sec::request_timeout})
    CHECK(connect_failure(caf::make_error(code), plain).rfind("timed out: ", 0)
          == 0);
  auto closed = caf::make_error(caf::sec::disconnect_during_handshake);
  CHECK(connect_failure(closed, plain).find("likely requires TLS")
        != std::string::npos);
  CHECK(connect_failure(closed, tls).rfind("TLS handshake failed: ", 0) == 0);
  auto no_tls = caf::make_error(caf::sec::cannot_connect_to_node);
  CHECK(connect_failure(no_tls, tls).rfind("TLS handshake failed: ", 0) == 0);
  CHECK(connect_failure(no_tls, tls).find("same CA") != std::string::npos);
  // Anything else is said in CAF's words.
  CHECK(connect_failure(caf::make_error(caf::sec::invalid_argument), plain)
          .find("TLS")
        == std::string::npos);
}
