// The daemon's HTTP side as a client (or an attacker) meets it: a timer per
// request phase (trickled headers, a stalled or a slow body, idle
// keep-alive), an empty upload, the Bearer scheme in any case, POST
// /v1/runs bodies checked field by field, 405 with Allow, and HTTPS (the
// server verified, client certificates, the clear-text warning).
#include <chrono>
#include <thread>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "tests/daemon/daemon_support.hpp"
#include "tests/error_text.hpp"

using namespace ij;
using namespace ij::test;

namespace {

std::string examples() {
  return read_file(source_dir() + "/examples/pairs.jsonl");
}

std::string body_of(const std::string& reply) {
  auto at = reply.find("\r\n\r\n");
  return at == std::string::npos ? std::string{} : reply.substr(at + 4);
}

/// Sends `bytes` one at a time, `ms` apart, until the server answers (or
/// closes); how many were sent.
std::size_t trickle(int fd, const std::string& bytes, int ms) {
  std::size_t sent = 0;
  for (char c : bytes) {
    if (readable_within(fd, 0) || !send_all(fd, std::string(1, c)))
      break;
    ++sent;
    if (readable_within(fd, ms))
      break;
  }
  return sent;
}

std::string create_run(api_client& api) {
  auto created = api.request("POST", "/v1/runs", "{}", "application/json");
  REQUIRE(created.status == 201);
  return field(created.body, "id");
}

} // namespace

TEST_CASE("daemon HTTP: headers trickled a byte at a time get their 408 after "
          "io_timeout_ms, "
          "named in the message") {
  temp_dir dir;
  // The idle timeout is far longer than the trickle: a 408 while trickling
  // can only be the headers' own timer.
  write_file(dir.file("serve.json"),
             R"({"io_timeout_ms":400,"idle_timeout_ms":120000})");
  started_daemon d{
    dir, dir.file("state"), {"--config", dir.file("serve.json")}};
  int fd = connect_to(d.port());
  std::string head = "GET /v1/runs HTTP/1.1\r\nHost: x\r\nX-Pad: "
                     + std::string(300, 'a') + "\r\n\r\n";
  auto sent = trickle(fd, head, 50);
  CHECK(sent < head.size());
  auto reply = read_until_closed(fd);
  ::close(fd);
  INFO(reply);
  CHECK(reply.rfind("HTTP/1.1 408", 0) == 0);
  CHECK(reply.find("\"code\":\"request_timeout\"") != std::string::npos);
  CHECK(reply.find("the request headers did not arrive within 400 ms")
        != std::string::npos);
  CHECK(reply.find("io_timeout_ms") != std::string::npos);
}

TEST_CASE("daemon HTTP: a stalled body is a 408 naming its progress, a slow "
          "steady one is "
          "taken, an idle connection is closed without a reply") {
  temp_dir dir;
  write_file(dir.file("serve.json"),
             R"({"io_timeout_ms":400,"idle_timeout_ms":600})");
  started_daemon d{
    dir, dir.file("state"), {"--config", dir.file("serve.json")}};
  api_client api{d.url(), ""};
  auto id = create_run(api);

  // A body read whole and a streamed upload, each stopping mid-way.
  auto stalled = raw_exchange(d.port(), "POST /v1/runs HTTP/1.1\r\nHost: x\r\n"
                                        "Content-Type: application/json\r\n"
                                        "Content-Length: 100\r\n\r\n{");
  CHECK(stalled.rfind("HTTP/1.1 408", 0) == 0);
  CHECK(
    stalled.find("the request body made no progress for 400 ms (io_timeout_ms)")
    != std::string::npos);
  auto stalled_upload = raw_exchange(
    d.port(),
    "POST /v1/runs/" + id
      + "/pairs HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/x-ndjson\r\nContent-Length: 1000\r\n\r\n"
        "{\"id\":\"s1\",\"a\":\"1\",\"b\":\"1\"}\n");
  CHECK(stalled_upload.rfind("HTTP/1.1 408", 0) == 0);
  CHECK(stalled_upload.find("made no progress for 400 ms")
        != std::string::npos);

  // 30 bytes a byte every 100 ms: three seconds in all, never 400 ms
  // without progress.
  std::string body = R"({"config":{},"name":"slow-1"})";
  int fd = connect_to(d.port());
  REQUIRE(
    send_all(fd, "POST /v1/runs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                 "Content-Type: application/json\r\nContent-Length: "
                   + std::to_string(body.size()) + "\r\n\r\n"));
  CHECK(trickle(fd, body, 100) == body.size());
  auto slow = read_until_closed(fd);
  ::close(fd);
  CHECK(slow.rfind("HTTP/1.1 201", 0) == 0);
  CHECK(field(body_of(slow), "name") == "slow-1");

  // A kept-alive connection that goes quiet is closed, silently.
  fd = connect_to(d.port());
  REQUIRE(send_all(fd, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
  REQUIRE(readable_within(fd, 10000));
  char buf[4096];
  auto n = ::read(fd, buf, sizeof buf);
  REQUIRE(n > 0);
  CHECK(std::string(buf, static_cast<std::size_t>(n)).rfind("HTTP/1.1 200", 0)
        == 0);
  CHECK(read_until_closed(fd) == "");
  ::close(fd);
}

TEST_CASE(
  "daemon HTTP: an upload with Content-Length: 0 is answered at once and the "
  "connection goes on") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state")}; // the default 30 s I/O timeout
  api_client api{d.url(), ""};
  auto id = create_run(api);
  int fd = connect_to(d.port());
  REQUIRE(send_all(
    fd, "POST /v1/runs/" + id
          + "/pairs HTTP/1.1\r\nHost: x\r\n"
            "Content-Type: application/x-ndjson\r\nContent-Length: 0\r\n\r\n"));
  REQUIRE(readable_within(fd, 5000));
  char buf[4096];
  auto n = ::read(fd, buf, sizeof buf);
  REQUIRE(n > 0);
  std::string reply(buf, static_cast<std::size_t>(n));
  CHECK(reply.rfind("HTTP/1.1 200", 0) == 0);
  CHECK(body_of(reply).find("{\"accepted\":0,\"rejected\":[]}") == 0);
  REQUIRE(
    send_all(fd, "GET /v1/runs/" + id
                   + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  auto again = read_until_closed(fd);
  ::close(fd);
  CHECK(again.rfind("HTTP/1.1 200", 0) == 0);
  CHECK(field(body_of(again), "state") == "open");
}

TEST_CASE(
  "daemon HTTP: the Bearer scheme is case-insensitive, the token is not") {
  temp_dir dir;
  write_file(dir.file("token"), "tok-Case-5e1\n");
  started_daemon d{dir, dir.file("state"), {"--token-file", dir.file("token")}};
  auto ask = [&](const std::string& auth) {
    auto reply = raw_exchange(d.port(), "GET /v1/runs HTTP/1.1\r\nHost: x\r\n"
                                        "Connection: close\r\n"
                                          + auth + "\r\n");
    return reply.substr(0, 12);
  };
  CHECK(ask("authorization: bearer tok-Case-5e1\r\n") == "HTTP/1.1 200");
  CHECK(ask("Authorization: BEARER tok-Case-5e1\r\n") == "HTTP/1.1 200");
  CHECK(ask("Authorization: Bearer   tok-Case-5e1\r\n") == "HTTP/1.1 200");
  CHECK(ask("Authorization: bearer tok-case-5e1\r\n") == "HTTP/1.1 401");
  CHECK(ask("Authorization: Basic tok-Case-5e1\r\n") == "HTTP/1.1 401");
  CHECK(ask("Authorization: Bearer\r\n") == "HTTP/1.1 401");
  CHECK(ask("Authorization: Bearertok-Case-5e1\r\n") == "HTTP/1.1 401");
  CHECK(ask("") == "HTTP/1.1 401");
}

TEST_CASE(
  "daemon API: POST /v1/runs refuses an unknown field by name, a configuration "
  "error names its source once, a wrong method lists the allowed ones") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};
  auto bogus = api.request("POST", "/v1/runs", R"({"config":{},"bogus":1})",
                           "application/json");
  CHECK(bogus.status == 400);
  CHECK(bogus.body.find("\"code\":\"unknown_field\"") != std::string::npos);
  CHECK(bogus.body.find("/bogus: unknown field") != std::string::npos);
  // Misspelt: refused, not run with the default configuration.
  CHECK(api
          .request("POST", "/v1/runs", R"({"confg":{"votes":3}})",
                   "application/json")
          .status
        == 400);
  CHECK(
    api.request("POST", "/v1/runs", R"({"name":7})", "application/json").status
    == 400);

  // Read by the configuration parser, and by the judges' binding.
  auto votes = api.request("POST", "/v1/runs", R"({"config":{"votes":0}})",
                           "application/json");
  CHECK(votes.status == 400);
  CHECK(votes.body.find("\"message\":\"/config: /votes: ")
        != std::string::npos);
  auto judge = api.request(
    "POST", "/v1/runs",
    R"({"config":{"judges":[{"type":"rules","model":"nope","temperature":0,"timeout_ms":1000,"max_in_flight":1}]}})",
    "application/json");
  CHECK(judge.status == 400);
  CHECK(judge.body.find("\"code\":\"bad_config\"") != std::string::npos);
  CHECK(judge.body.find("\"message\":\"/config: /judges/0")
        != std::string::npos);
  CHECK(judge.body.find("/config: /config") == std::string::npos);
  CHECK(judge.body.find("unknown rule judge 'nope'") != std::string::npos);

  auto put = api.request("PUT", "/v1/runs");
  CHECK(put.status == 405);
  CHECK(put.header("Allow") == "POST, GET");
  auto id = create_run(api);
  auto patch = api.request("PATCH", "/v1/runs/" + id);
  CHECK(patch.status == 405);
  CHECK(patch.header("Allow") == "GET, DELETE");
  CHECK(api.request("GET", "/v1/runs/" + id + "/nothing").status == 404);
  CHECK(api.request("GET", "/v1/runs/").status == 404);
}

TEST_CASE("daemon TLS: HTTPS with the server verified by its CA, client "
          "certificates when "
          "asked, and submit over https") {
  temp_dir dir;
  auto pki = dir.file("pki");
  REQUIRE(std::system((source_dir() + "/scripts/make-certs " + pki
                       + " 127.0.0.1 client" + " >/dev/null")
                        .c_str())
          == 0);
  auto cert = pki + "/127.0.0.1.pem", key = pki + "/127.0.0.1.key",
       ca = pki + "/ca.pem";
  started_daemon d{
    dir, dir.file("state"), {"--tls-cert", cert, "--tls-key", key}};
  auto https = "https://127.0.0.1:" + std::to_string(d.port());
  CHECK(d.log().find("(https)") != std::string::npos);

  api_client api{https, "", std::chrono::seconds(30), api_tls{ca, {}, {}}};
  CHECK(api.request("GET", "/healthz").status == 200);
  auto id = create_run(api);
  auto up = api.request("POST", "/v1/runs/" + id + "/pairs", examples(),
                        "application/x-ndjson");
  CHECK(up.body.find("\"accepted\":39") != std::string::npos);
  REQUIRE(api.request("POST", "/v1/runs/" + id + "/close").status == 200);
  CHECK(field(wait_until_ended(api, id), "state") == "done");
  auto audit = api.request("GET", "/v1/runs/" + id + "/audit");
  CHECK(audit.status == 200);
  CHECK(lines_of(audit.body).size() > 39);

  // The system's CAs do not know this one; plain HTTP gets no answer.
  api_client unverified{https, ""};
  auto refused = unverified.request("GET", "/healthz");
  CHECK(refused.status == 0);
  CHECK(::test::why(refused.error).find("certificate verify failed")
        != std::string::npos);
  api_client plain{"http://127.0.0.1:" + std::to_string(d.port()), ""};
  CHECK(plain.request("GET", "/healthz").status == 0);

  auto pairs = shell_quote(source_dir() + "/examples/pairs.jsonl");
  auto sub = invjudge(dir, "submit --server " + https + " --tls-ca " + ca
                             + " --pairs " + pairs + " --follow --out v.jsonl");
  INFO(sub.err);
  CHECK(sub.exit_code == 0);
  CHECK(lines_of(read_file(dir.file("v.jsonl"))).size() == 39 + 7);
  auto unsure = invjudge(dir, "submit --server " + https + " --pairs " + pairs);
  CHECK(unsure.exit_code == 4);
  CHECK(unsure.err.find("certificate verify failed") != std::string::npos);
  auto mixed = invjudge(dir, "submit --server " + d.url() + " --tls-ca " + ca
                               + " --pairs " + pairs);
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.err.find("need an https:// server URL") != std::string::npos);

  // --tls-ca on the server: only clients with a certificate it signed.
  started_daemon mutual{dir,
                        dir.file("state2"),
                        {"--tls-cert", cert, "--tls-key", key, "--tls-ca", ca},
                        "mutual"};
  auto murl = "https://127.0.0.1:" + std::to_string(mutual.port());
  api_client with_cert{murl, "", std::chrono::seconds(30),
                       api_tls{ca, pki + "/client.pem", pki + "/client.key"}};
  CHECK(with_cert.request("GET", "/v1/runs").status == 200);
  api_client without_cert{murl, "", std::chrono::seconds(30),
                          api_tls{ca, {}, {}}};
  CHECK(without_cert.request("GET", "/v1/runs").status == 0);
}

TEST_CASE("daemon TLS: unusable TLS files are a configuration error, and a "
          "token sent in "
          "clear text on the network is warned about") {
  temp_dir dir;
  auto missing =
    invjudge(dir, "serve --listen 127.0.0.1:0 --state s --tls-cert nope.pem "
                  "--tls-key nope.key");
  CHECK(missing.exit_code == 3);
  CHECK(missing.err.find("cannot use the TLS certificate nope.pem")
        != std::string::npos);
  auto half =
    invjudge(dir, "serve --listen 127.0.0.1:0 --state s --tls-ca ca.pem");
  CHECK(half.exit_code == 3);
  CHECK(half.err.find("needs the server's own certificate")
        != std::string::npos);
  // 192.0.2.1 (TEST-NET-1) is no address of this machine: the warning comes
  // before the bind fails, and nothing listens.
  write_file(dir.file("token"), "tok-clear-1\n");
  auto clear =
    invjudge(dir, "serve --listen 192.0.2.1:0 --state s --token-file token");
  CHECK(clear.err.find("without TLS: the bearer token travels in clear text")
        != std::string::npos);
  CHECK(clear.exit_code == 3);
  CHECK(clear.err.find("tok-clear-1") == std::string::npos);
}
