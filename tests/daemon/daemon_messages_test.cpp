// Issue 27 item 4 against a daemon started here: every refusal says what to
// do. HEAD is answered as GET without a body (HEAD /healthz needs no token);
// submit names INVJUDGE_TOKEN and the daemon's --token-file on a 401,
// --tls-ca for a certificate it does not trust, https:// for a plain
// request to an HTTPS daemon, and a TLS file it cannot read; Ctrl-C on
// submit --follow says the run goes on and how to cancel it; a map that
// is empty or fitted on another confidence is a 400 saying so.
#include <csignal>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "core/calibration/calibration.hpp"
#include "core/config/run_config.hpp"
#include "tests/daemon/daemon_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

std::string pairs_file() {
  return shell_quote(source_dir() + "/examples/pairs.jsonl");
}

// The status line and headers of a raw reply, and what follows them.
std::pair<std::string, std::string> split_reply(const std::string& reply) {
  auto at = reply.find("\r\n\r\n");
  REQUIRE(at != std::string::npos);
  return {reply.substr(0, at), reply.substr(at + 4)};
}

} // namespace

TEST_CASE("daemon: HEAD is answered as GET without a body, and /healthz needs "
          "no token") {
  temp_dir dir;
  write_file(dir.file("token"), "tok-head-1\n");
  started_daemon d{dir, dir.file("state"), {"--token-file", dir.file("token")}};
  auto [head, body] = split_reply(raw_exchange(
    d.port(),
    "HEAD /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  INFO(head);
  CHECK(head.rfind("HTTP/1.1 200", 0) == 0);
  CHECK(head.find("Content-Length: 3") != std::string::npos); // "ok\n", as GET
  CHECK(body.empty());
  // An endpoint that needs the token: 401 without it, the GET's headers
  // with it, and never a body.
  auto [refused, refused_body] = split_reply(raw_exchange(
    d.port(),
    "HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  CHECK(refused.rfind("HTTP/1.1 401", 0) == 0);
  CHECK(refused_body.empty());
  auto [metrics, metrics_body] = split_reply(raw_exchange(
    d.port(), "HEAD /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
              "tok-head-1\r\nConnection: close\r\n\r\n"));
  CHECK(metrics.rfind("HTTP/1.1 200", 0) == 0);
  CHECK(metrics.find("Content-Length: 0") == std::string::npos);
  CHECK(metrics_body.empty());
  // A kept-alive connection goes on after a HEAD: the next reply is whole.
  auto two = raw_exchange(
    d.port(), "HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
              "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  CHECK(two.find("HTTP/1.1 200") != two.rfind("HTTP/1.1 200"));
  CHECK(two.size() >= 3);
  CHECK(two.substr(two.size() - 3) == "ok\n");
}

TEST_CASE("submit: a 401 names INVJUDGE_TOKEN and the daemon's --token-file") {
  temp_dir dir;
  write_file(dir.file("token"), "tok-401-1\n");
  started_daemon d{dir, dir.file("state"), {"--token-file", dir.file("token")}};
  auto none =
    invjudge(dir, "submit --server " + d.url() + " --pairs " + pairs_file());
  INFO(none.err);
  CHECK(none.exit_code == 3);
  CHECK(none.err.find("HTTP 401") != std::string::npos);
  CHECK(none.err.find("the daemon needs a bearer token: set INVJUDGE_TOKEN")
        != std::string::npos);
  CHECK(none.err.find("--token-file") != std::string::npos);
  ::setenv("INVJUDGE_TOKEN", "not-the-token", 1);
  auto bad =
    invjudge(dir, "submit --server " + d.url() + " --pairs " + pairs_file());
  ::unsetenv("INVJUDGE_TOKEN");
  INFO(bad.err);
  CHECK(bad.exit_code == 3);
  CHECK(bad.err.find("the token in INVJUDGE_TOKEN is not the daemon's")
        != std::string::npos);
  CHECK(bad.err.find("not-the-token") == std::string::npos);
}

TEST_CASE(
  "submit over TLS says what to do: --tls-ca for an untrusted certificate, "
  "https:// for an HTTPS daemon, and a TLS file it cannot read by name") {
  temp_dir dir;
  auto pki = dir.file("pki");
  REQUIRE(std::system((source_dir() + "/scripts/make-certs " + pki
                       + " 127.0.0.1 >/dev/null")
                        .c_str())
          == 0);
  started_daemon d{dir,
                   dir.file("state"),
                   {"--tls-cert", pki + "/127.0.0.1.pem", "--tls-key",
                    pki + "/127.0.0.1.key"}};
  auto port = std::to_string(d.port());
  auto untrusted = invjudge(dir, "submit --server https://127.0.0.1:" + port
                                   + " --pairs " + pairs_file());
  INFO(untrusted.err);
  CHECK(untrusted.exit_code == 4);
  CHECK(untrusted.err.find("certificate verify failed") != std::string::npos);
  CHECK(untrusted.err.find("give the CA that signed it with --tls-ca")
        != std::string::npos);
  auto plain = invjudge(dir, "submit --server http://127.0.0.1:" + port
                               + " --pairs " + pairs_file());
  INFO(plain.err);
  CHECK(plain.exit_code == 4);
  CHECK(plain.err.find("use https://127.0.0.1:" + port) != std::string::npos);
  auto missing =
    invjudge(dir, "submit --server https://127.0.0.1:" + port
                    + " --tls-ca nope.pem --pairs " + pairs_file());
  INFO(missing.err);
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find(
          "--tls-ca nope.pem: cannot read: No such file or directory")
        != std::string::npos);
  CHECK(missing.err.find("asio.ssl error") == std::string::npos);
  auto serve =
    invjudge(dir, "serve --listen 127.0.0.1:0 --state s2 --tls-cert nope.pem "
                  "--tls-key nope.key");
  CHECK(serve.exit_code == 3);
  CHECK(serve.err.find("nope.pem: cannot read it: No such file or directory")
        != std::string::npos);
  CHECK(serve.err.find("asio.ssl error") == std::string::npos);
}

TEST_CASE(
  "submit --follow interrupted says the run goes on at the daemon and how to "
  "cancel it") {
  temp_dir dir;
  silent_server judge; // keeps the run busy: it never answers
  started_daemon d{dir, dir.file("state")};
  write_file(dir.file("c.json"), judge.config());
  invjudge_process sub{{"submit", "--server", d.url(), "--pairs",
                        source_dir() + "/examples/pairs.jsonl", "--config",
                        dir.file("c.json"), "--follow", "--out",
                        dir.file("v.jsonl")},
                       dir.file("sub.out"),
                       dir.file("sub.err")};
  api_client api{d.url(), ""};
  // Following: the run is created and its input closed.
  std::string id;
  bool following = eventually([&] {
    auto said = read_file(dir.file("sub.err"));
    auto at = said.find("invjudge submit: run ");
    auto end = at == std::string::npos ? at : said.find('\n', at);
    if (end == std::string::npos)
      return false;
    id = said.substr(at + 21, end - at - 21);
    return !id.empty()
           && api.request("GET", "/v1/runs/" + id).body.find("\"closed\":true")
                != std::string::npos;
  });
  INFO(read_file(dir.file("sub.err")));
  INFO(api.request("GET", "/v1/runs").body);
  REQUIRE(following);
  sub.signal(SIGINT);
  CHECK(sub.wait() == 4);
  auto err = read_file(dir.file("sub.err"));
  INFO(err);
  CHECK(err.find("interrupted: run " + id + " goes on at the daemon")
        != std::string::npos);
  CHECK(err.find("curl -X DELETE " + d.url() + "/v1/runs/" + id)
        != std::string::npos);
  // It does go on; cancelled here, as the message says.
  CHECK(field(api.request("GET", "/v1/runs/" + id).body, "state") == "running");
  CHECK(api.request("DELETE", "/v1/runs/" + id).status == 200);
}

TEST_CASE(
  "daemon: an empty map, or one fitted on another confidence, is a 400 saying "
  "so and how to make a good one") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state"), {}, "serve", dir.path()};
  api_client api{d.url(), ""};
  auto submit = [&](const std::string& config) {
    return api.request("POST", "/v1/runs", "{\"config\":" + config + "}",
                       "application/json");
  };
  write_file(dir.file("empty.json"), "");
  auto empty =
    submit("{\"judge\":\"stub:noisy:0.1\",\"calibration\":\"empty.json\"}");
  INFO(empty.body);
  CHECK(empty.status == 400);
  CHECK(empty.body.find(
          "empty.json: the file is empty, not a calibration map; write one "
          "with `invjudge calibrate")
        != std::string::npos);
  CHECK(empty.body.find("Resource temporarily unavailable")
        == std::string::npos);

  std::string config =
    R"({"judges":[{"name":"held","type":"openai","model":"m",)"
    R"("base_url":"http://127.0.0.1:1/v1","temperature":0,"timeout_ms":2000,)"
    R"("max_in_flight":2}],)"
    R"("calibration":"probs.json"})";
  auto cfg = parse_config(config, "test");
  REQUIRE(cfg);
  calibration_fit f;
  f.map = {
    judge_id_of(cfg->judges.front()), "decision_probs", {0.5, 0.9}, {0.6, 0.9}};
  f.votes = 100;
  write_file(dir.file("probs.json"), calibration_file_json({f}, fit_options{}));
  auto other = submit(config);
  INFO(other.body);
  CHECK(other.status == 400);
  CHECK(other.body.find("was fitted on decision log-probabilities")
        != std::string::npos);
  CHECK(other.body.find("but this run's judge gives vote shares")
        != std::string::npos);
}

TEST_CASE(
  "submit --follow whose output is closed stops following as Ctrl-C does: the "
  "run goes on") {
  temp_dir dir;
  silent_server judge; // keeps the run busy: it never answers
  started_daemon d{dir, dir.file("state")};
  write_file(dir.file("c.json"), judge.config());
  // A pipe nobody reads: the first verdict lines (the absent answers', I1)
  // cannot be written.
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  ::close(fds[0]);
  invjudge_process sub{{"submit", "--server", d.url(), "--pairs",
                        source_dir() + "/examples/pairs.jsonl", "--config",
                        dir.file("c.json"), "--follow"},
                       dir.file("sub.out"),
                       dir.file("sub.err"),
                       -1,
                       {},
                       fds[1]};
  ::close(fds[1]);
  CHECK(sub.wait() == 4);
  auto err = read_file(dir.file("sub.err"));
  INFO(err);
  auto at = err.find("invjudge submit: run ");
  REQUIRE(at != std::string::npos);
  auto id = err.substr(at + 21, err.find('\n', at) - at - 21);
  CHECK(err.find("interrupted: run " + id + " goes on at the daemon")
        != std::string::npos);
  api_client api{d.url(), ""};
  CHECK(field(api.request("GET", "/v1/runs/" + id).body, "state") == "running");
  CHECK(api.request("DELETE", "/v1/runs/" + id).status == 200);
}
