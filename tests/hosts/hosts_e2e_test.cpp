// Judge hosts end to end (SPEC §10, "Distribution"): `invjudge host`
// processes and a coordinator `invjudge run --host ...` on 127.0.0.1. Hosts
// are killed (-9), stopped (SIGSTOP) and restarted under a run that reads its
// pairs from a pipe, so that "in the middle of the run" is a place in the
// input, not a moment in time. Waits only guard against a hang (two minutes
// each); nothing asserts on time.
#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "bench/delay_proxy.hpp"
#include "tests/http/fake_apis.hpp"
#include "tests/tools/cli_support.hpp"

using namespace ij::test;

namespace {

/// One `invjudge host`, started and waited for ("listening on ADDR:PORT").
struct host_process {
  std::string err;
  std::unique_ptr<invjudge_process> proc;
  std::string address;

  host_process(const temp_dir& dir, const std::string& tag,
               std::vector<std::string> args) {
    err = dir.file(tag + ".err");
    args.insert(args.begin(), "host");
    proc = std::make_unique<invjudge_process>(args, dir.file(tag + ".out"), err,
                                              -1, dir.path());
    REQUIRE(wait_for_text(err, "listening on "));
    auto text = read_file(err);
    auto at = text.find("listening on ") + 13;
    address = text.substr(at, text.find('\n', at) - at);
  }

  std::string port() const { return address.substr(address.rfind(':') + 1); }
};

/// The coordinator's standard input: a pipe the test writes pairs into.
struct pair_pipe {
  int read_end = -1;
  int write_end = -1;
  pair_pipe() {
    int fds[2];
    REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
    read_end = fds[0];
    write_end = fds[1];
  }
  ~pair_pipe() {
    close_read();
    close_write();
  }
  void write(const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
      auto n = ::write(write_end, text.data() + done, text.size() - done);
      REQUIRE(n > 0);
      done += static_cast<std::size_t>(n);
    }
  }
  void close_read() {
    if (read_end >= 0)
      ::close(read_end);
    read_end = -1;
  }
  void close_write() {
    if (write_end >= 0)
      ::close(write_end);
    write_end = -1;
  }
};

std::vector<std::string> sorted_lines(const std::string& path) {
  auto lines = lines_of(read_file(path));
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines, std::size_t from,
                       std::size_t to) {
  std::string out;
  for (auto i = from; i < to && i < lines.size(); ++i)
    out += lines[i] + "\n";
  return out;
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos;
       at = text.find(what, at + what.size()))
    ++n;
  return n;
}

/// Waits (polling, bounded at two minutes like wait_for_text) until `path`
/// holds `what` at least `n` times. The audit is written by the run's logger
/// thread whatever the driver does (it may be blocked reading the pipe).
bool wait_for_count(const std::string& path, const std::string& what,
                    std::size_t n) {
  for (int i = 0; i < 2400; ++i) {
    if (count_of(read_file(path), what) >= n)
      return true;
    ::usleep(50 * 1000);
  }
  return false;
}

/// The invjudge processes these tests start are not leak-checked: at exit,
/// CAF 0.17.6's middleman sometimes keeps its BASP broker alive through a
/// cycle (a heartbeat tick or a down message reaching the broker while it
/// stops), and LeakSanitizer aborts a run that finished correctly (1 run in
/// 30 under load). Nothing of ours is in that cycle; the connector, host and
/// failover code stay leak-checked in tests/actors (in-process, without the
/// tick). AddressSanitizer's other checks stay on.
const bool children_skip_leak_check = [] {
  std::string options;
  if (auto* given = std::getenv("ASAN_OPTIONS"))
    options = std::string{given} + ":";
  ::setenv("ASAN_OPTIONS", (options + "detect_leaks=0").c_str(), 1);
  return true;
}();

const std::string verdict_record = "\"type\":\"verdict\"";

/// A proxy in front of a host, adding 10 ms each way (a 20 ms round trip).
std::unique_ptr<ij::bench::delay_proxy> far_away(const host_process& h) {
  return std::make_unique<ij::bench::delay_proxy>(
    "127.0.0.1", static_cast<std::uint16_t>(std::stoi(h.port())),
    std::chrono::milliseconds(10));
}

/// Fast links for tests: pings every 100 ms, lost after 1.5 s without an
/// answer, retries at most every 300 ms; the middleman's own timeout is long
/// so that a stopped host's connection outlives its loss.
const char* fast_config = R"({"failover_wait_ms": 60000, "host_connection": {
  "heartbeat_ms": 100, "lost_after_ms": 1500, "connection_timeout_ms": 60000,
  "connect_timeout_ms": 5000, "retry_max_ms": 300}})";

} // namespace

TEST_CASE(
  "e2e hosts: three hosts give the verdicts of one process, and kill -9 "
  "of one mid-run loses nothing, and restarted it rejoins and serves "
  "again") {
  temp_dir dir;
  auto gen = invjudge(dir, "gen-pairs 300 --per-item 10");
  REQUIRE(gen.exit_code == 0);
  auto pairs = lines_of(gen.out);
  REQUIRE(pairs.size() == 300);
  write_file(dir.file("pairs.jsonl"), gen.out);
  // A killed host is found by its closed connection: pings may be slow (a
  // loaded machine, a sanitizer build) without any host being taken for lost.
  write_file(dir.file("fast.json"), R"({"host_connection": {
    "heartbeat_ms": 100, "lost_after_ms": 20000, "retry_max_ms": 300}})");
  auto base = invjudge(dir, "run --pairs pairs.jsonl --judge stub:numeric "
                            "--audit base.jsonl --out base.out --no-progress");
  REQUIRE(base.exit_code == 0);

  std::vector<std::unique_ptr<host_process>> hosts;
  for (int i = 0; i < 3; ++i)
    hosts.push_back(std::make_unique<host_process>(
      dir, "h" + std::to_string(i),
      std::vector<std::string>{"--listen", "127.0.0.1:0", "--judge",
                               "stub:numeric"}));
  pair_pipe input;
  std::vector<std::string> args{
    "run",          "--pairs",  "-",         "--judge",
    "stub:numeric", "--config", "fast.json", "--audit",
    "audit.jsonl",  "--out",    "out.jsonl", "--no-progress",
    "--window",     "2"};
  for (auto& h : hosts) {
    args.push_back("--host");
    args.push_back(h->address);
  }
  invjudge_process run{args, dir.file("run.out"), dir.file("run.err"),
                       input.read_end, dir.path()};
  input.close_read();
  input.write(join_lines(pairs, 0, 100));
  REQUIRE(wait_for_count(dir.file("audit.jsonl"), verdict_record, 100));
  // A host dies in the middle of the run; the run goes on with the others.
  auto killed_port = hosts[1]->port();
  auto event_of = [&](const std::string& event) {
    return "\"host\":\"" + hosts[1]->address + "\",\"event\":\"" + event + "\"";
  };
  hosts[1]->proc->signal(SIGKILL);
  hosts[1]->proc->wait();
  REQUIRE(wait_for_text(dir.file("audit.jsonl"), event_of("lost")));
  input.write(join_lines(pairs, 100, 200));
  REQUIRE(wait_for_count(dir.file("audit.jsonl"), verdict_record, 200));
  // Restarted on its port, it rejoins and gets votes again.
  hosts[1] = std::make_unique<host_process>(
    dir, "h1b",
    std::vector<std::string>{"--listen", "127.0.0.1:" + killed_port, "--judge",
                             "stub:numeric"});
  REQUIRE(wait_for_text(dir.file("audit.jsonl"), event_of("rejoined")));
  input.write(join_lines(pairs, 200, 300));
  input.close_write();
  INFO(read_file(dir.file("run.err")));
  CHECK(run.wait() == 0);

  CHECK(sorted_lines(dir.file("out.jsonl"))
        == sorted_lines(dir.file("base.out")));
  auto verify = invjudge(dir, "audit verify audit.jsonl");
  INFO(verify.out + verify.err);
  CHECK(verify.exit_code == 0);
  auto audit = read_file(dir.file("audit.jsonl"));
  CHECK(count_of(audit, "\"type\":\"verdict\"") == 300);
  CHECK(count_of(audit, "\"event\":\"connected\"") == 3);
  // Every judge call names its host; the restarted host served after it
  // rejoined.
  auto rejoined = audit.find(event_of("rejoined"));
  auto restarted = "\"host\":\"" + hosts[1]->address + "\"";
  CHECK(audit.find(restarted, rejoined) != std::string::npos);
  // Every vote is accounted for: the run end's totals agree with the records
  // (audit verify recounts them, moved votes and late replies included).
  CHECK(lines_of(audit).back().find("\"judge_calls\":") != std::string::npos);
  auto summary = read_file(dir.file("run.err"));
  CHECK(summary.find("hosts:") != std::string::npos);
  for (auto& h : hosts)
    h->proc->signal(SIGTERM);
  for (auto& h : hosts)
    CHECK(h->proc->wait() == 0);
}

TEST_CASE("e2e hosts: a host stopped with SIGSTOP is detected, its votes "
          "move, and after SIGCONT its late replies are dropped and recorded") {
  temp_dir dir;
  // Each host judges through its own slow fake backend, so that calls are in
  // flight at the host when it stops.
  std::vector<std::unique_ptr<fake_api>> backends;
  for (int i = 0; i < 2; ++i) {
    fake_api_options o;
    o.model = "judge-model";
    o.reply_text = "DECISION: EQUIVALENT\nREASON: same\nNUMERIC_A: NULL\n"
                   "NUMERIC_B: NULL";
    o.latency = std::chrono::milliseconds(200);
    o.threads = 4;
    backends.push_back(std::make_unique<fake_api>(o));
  }
  auto judge = [](const fake_api& f) {
    return "openai:judge-model@" + f.base_url();
  };
  std::vector<std::unique_ptr<host_process>> hosts;
  for (int i = 0; i < 2; ++i)
    hosts.push_back(std::make_unique<host_process>(
      dir, "h" + std::to_string(i),
      std::vector<std::string>{"--listen", "127.0.0.1:0", "--judge",
                               judge(*backends[i])}));
  write_file(dir.file("fast.json"), fast_config);
  auto gen = invjudge(dir, "gen-pairs 60");
  auto pairs = lines_of(gen.out);
  REQUIRE(pairs.size() == 60);
  // Each host 20 ms away (issue 31): with 32 pairs open against two hosts
  // of capacity 4, their workers queue votes sent ahead, and the stopped
  // host's queued votes move with its calls in flight. (The driver reads
  // the pipe in batches of 16, half the window: the test writes whole ones.)
  auto far0 = far_away(*hosts[0]), far1 = far_away(*hosts[1]);
  pair_pipe input;
  invjudge_process run{{"run", "--pairs", "-", "--judge", judge(*backends[0]),
                        "--config", "fast.json", "--host", far0->address(),
                        "--host", far1->address(), "--audit", "audit.jsonl",
                        "--out", "out.jsonl", "--no-progress", "--window",
                        "32"},
                       dir.file("run.out"),
                       dir.file("run.err"),
                       input.read_end,
                       dir.path()};
  input.close_read();
  input.write(join_lines(pairs, 0, 16));
  REQUIRE(wait_for_count(dir.file("audit.jsonl"), verdict_record, 16));
  // Stop the second host while it has calls at its backend.
  auto before = backends[1]->prompts().size();
  input.write(join_lines(pairs, 16, 60));
  for (int i = 0; i < 2400 && backends[1]->prompts().size() == before; ++i)
    ::usleep(50 * 1000);
  REQUIRE(backends[1]->prompts().size() > before);
  hosts[1]->proc->signal(SIGSTOP);
  REQUIRE(wait_for_text(dir.file("audit.jsonl"), "\"type\":\"vote_moved\""));
  hosts[1]->proc->signal(SIGCONT);
  REQUIRE(wait_for_text(dir.file("audit.jsonl"), "\"type\":\"late_reply\""));
  input.close_write();
  INFO(read_file(dir.file("run.err")));
  CHECK(run.wait() == 0);
  auto verify = invjudge(dir, "audit verify audit.jsonl");
  INFO(verify.out + verify.err);
  CHECK(verify.exit_code == 0);
  auto audit = read_file(dir.file("audit.jsonl"));
  CHECK(count_of(audit, "\"type\":\"verdict\"") == 60);
  CHECK(count_of(audit, "\"rule\":\"I2\"") == 0); // nothing became a fault
  CHECK(audit.find("no answer to pings") != std::string::npos);
  auto end = lines_of(audit).back();
  // The run end counts what moved and what came late (top-level totals,
  // before the per-host lines).
  INFO(end);
  CHECK(end.find("],\"votes_moved\":0,") == std::string::npos);
  CHECK(end.find("\"late_replies\":0,\"hosts\"") == std::string::npos);
  CHECK(end.find("\"votes_moved\":") < end.find("\"hosts\""));
  for (auto& h : hosts)
    h->proc->signal(SIGTERM);
  for (auto& h : hosts)
    CHECK(h->proc->wait() == 0);
}

TEST_CASE("e2e hosts: 20 ms away with votes queued, kill -9 of one host and a "
          "partition of another lose and double nothing: the verdicts of a run "
          "without fault") {
  temp_dir dir;
  fake_api_options o;
  o.model = "judge-model";
  o.reply_text = "DECISION: EQUIVALENT\nREASON: same\nNUMERIC_A: NULL\n"
                 "NUMERIC_B: NULL";
  o.latency = std::chrono::milliseconds(50);
  o.threads = 16;
  o.record_requests = false;
  fake_api backend(o); // one backend: every host serves the same judge
  auto judge = "openai:judge-model@" + backend.base_url();
  auto gen = invjudge(dir, "gen-pairs 240");
  auto pairs = lines_of(gen.out);
  REQUIRE(pairs.size() == 240);
  write_file(dir.file("pairs.jsonl"), gen.out);
  auto base =
    invjudge(dir, "run --pairs pairs.jsonl --judge " + judge
                    + " --audit base.jsonl --out base.out --no-progress");
  REQUIRE(base.exit_code == 0);
  std::vector<std::unique_ptr<host_process>> hosts;
  std::vector<std::unique_ptr<ij::bench::delay_proxy>> far;
  for (int i = 0; i < 3; ++i) {
    hosts.push_back(std::make_unique<host_process>(
      dir, "h" + std::to_string(i),
      std::vector<std::string>{"--listen", "127.0.0.1:0", "--judge", judge}));
    far.push_back(far_away(*hosts.back()));
  }
  write_file(dir.file("fast.json"), fast_config);
  pair_pipe input;
  std::vector<std::string> args{"run",       "--pairs",   "-",
                                "--judge",   judge,       "--config",
                                "fast.json", "--audit",   "audit.jsonl",
                                "--out",     "out.jsonl", "--no-progress"};
  for (auto& f : far) {
    args.push_back("--host");
    args.push_back(f->address());
  }
  invjudge_process run{args, dir.file("run.out"), dir.file("run.err"),
                       input.read_end, dir.path()};
  input.close_read();
  auto lost = [&](int i) {
    return "\"host\":\"" + far[i]->address() + "\",\"event\":\"lost\"";
  };
  // The hosts are busy (their four slots and queues full) when one dies...
  input.write(join_lines(pairs, 0, 160));
  REQUIRE(wait_for_count(dir.file("audit.jsonl"), verdict_record, 20));
  hosts[0]->proc->signal(SIGKILL);
  hosts[0]->proc->wait();
  REQUIRE(wait_for_text(dir.file("audit.jsonl"), lost(0)));
  // ...and when another goes silent past lost_after, then comes back.
  REQUIRE(wait_for_count(dir.file("audit.jsonl"), verdict_record, 60));
  far[1]->hold(true);
  REQUIRE(wait_for_text(dir.file("audit.jsonl"), lost(1)));
  far[1]->hold(false);
  input.write(join_lines(pairs, 160, 240));
  input.close_write();
  INFO(read_file(dir.file("run.err")));
  CHECK(run.wait() == 0);
  CHECK(sorted_lines(dir.file("out.jsonl"))
        == sorted_lines(dir.file("base.out")));
  auto verify = invjudge(dir, "audit verify audit.jsonl");
  INFO(verify.out + verify.err);
  CHECK(verify.exit_code == 0);
  auto audit = read_file(dir.file("audit.jsonl"));
  CHECK(count_of(audit, verdict_record) == 240);
  CHECK(count_of(audit, "\"rule\":\"I2\"") == 0); // nothing became a fault
  CHECK(count_of(audit, "\"type\":\"vote_moved\"") > 0);
  for (std::size_t i = 1; i < hosts.size(); ++i)
    hosts[i]->proc->signal(SIGTERM);
  for (std::size_t i = 1; i < hosts.size(); ++i)
    CHECK(hosts[i]->proc->wait() == 0);
}

TEST_CASE("e2e hosts: mutual TLS works with certificates of one CA and "
          "refuses a coordinator without one or with another CA's, and a host "
          "refuses a non-loopback address without TLS") {
  temp_dir dir;
  auto script = source_dir() + "/scripts/make-certs";
  REQUIRE(std::system((script + " " + dir.file("pki") + " host coordinator"
                       + " >/dev/null")
                        .c_str())
          == 0);
  REQUIRE(
    std::system(
      (script + " " + dir.file("other") + " intruder" + " >/dev/null").c_str())
    == 0);
  auto pki = [&](const std::string& f) { return dir.file("pki/" + f); };
  host_process host{dir,
                    "h",
                    {"--listen", "127.0.0.1:0", "--judge", "stub:numeric",
                     "--tls-cert", pki("host.pem"), "--tls-key",
                     pki("host.key"), "--tls-ca", pki("ca.pem")}};
  write_file(dir.file("pairs.jsonl"), invjudge(dir, "gen-pairs 20").out);
  write_file(dir.file("fast.json"), fast_config);
  auto base = "run --pairs pairs.jsonl --judge stub:numeric --config fast.json "
              "--no-progress --host "
              + host.address;
  auto ok =
    invjudge(dir, base + " --audit ok.jsonl --tls-cert "
                    + pki("coordinator.pem") + " --tls-key "
                    + pki("coordinator.key") + " --tls-ca " + pki("ca.pem"));
  INFO(ok.err);
  CHECK(ok.exit_code == 0);
  CHECK(lines_of(ok.out).size() == 22); // 20 pairs, 2 items
  auto plain = invjudge(dir, base + " --audit plain.jsonl");
  CHECK(plain.exit_code == 3);
  CHECK(plain.err.find("host " + host.address + " not reachable")
        != std::string::npos);
  CHECK(plain.err.find("no worker serves judge stub:numeric")
        != std::string::npos);
  auto other = dir.file("other/");
  auto intruder =
    invjudge(dir, base + " --audit intruder.jsonl --tls-cert " + other
                    + "intruder.pem --tls-key " + other
                    + "intruder.key --tls-ca " + other + "ca.pem");
  CHECK(intruder.exit_code == 3);
  CHECK(intruder.err.find("same CA") != std::string::npos);
  // A coordinator's certificate that its own CA did not sign is caught
  // before anything starts.
  auto mixed =
    invjudge(dir, base + " --tls-cert " + other + "intruder.pem" + " --tls-key "
                    + other + "intruder.key" + " --tls-ca " + pki("ca.pem"));
  CHECK(mixed.exit_code == 3);
  CHECK(mixed.err.find("is not signed by --tls-ca") != std::string::npos);
  host.proc->signal(SIGTERM);
  CHECK(host.proc->wait() == 0);
  auto open = invjudge(dir, "host --listen 0.0.0.0:0 --judge stub:numeric");
  CHECK(open.exit_code == 3);
  CHECK(open.err.find("refusing to listen on 0.0.0.0:0 without TLS")
        != std::string::npos);
}

TEST_CASE("e2e hosts: a host whose judge uses another prompt is refused, "
          "naming the host and the field") {
  temp_dir dir;
  host_process host{dir,
                    "h",
                    {"--listen", "127.0.0.1:0", "--judge", "stub:numeric",
                     "--announce-prompt-id", "invariance-checker/judge/v0"}};
  write_file(dir.file("pairs.jsonl"), invjudge(dir, "gen-pairs 5").out);
  auto r = invjudge(dir, "run --pairs pairs.jsonl --judge stub:numeric "
                         "--no-progress --audit a.jsonl --host "
                           + host.address);
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("host " + host.address
                   + " refused: prompt_id differs "
                     "(host: invariance-checker/judge/v0")
        != std::string::npos);
  host.proc->signal(SIGTERM);
  CHECK(host.proc->wait() == 0);
}

namespace {

/// A TCP listener on 127.0.0.1 that never accepts: the kernel completes
/// the connection into its backlog, and nothing ever answers on it.
struct silent_listener {
  int fd = -1;
  std::string address;
  silent_listener() {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(fd >= 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(::listen(fd, 16) == 0);
    socklen_t len = sizeof a;
    REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0);
    address = "127.0.0.1:" + std::to_string(ntohs(a.sin_port));
  }
  ~silent_listener() { ::close(fd); }
};

/// Short connect attempts: each failure is known within seconds.
const char* quick_connect =
  R"({"host_connection": {"connect_timeout_ms": 2000}})";

/// A coordinator run of 5 pairs on `judge` against `hosts`, with `extra`
/// options; its stderr and exit code.
cli_result coordinate(const temp_dir& dir, const std::string& judge,
                      const std::vector<std::string>& hosts,
                      const std::string& audit, const std::string& extra = {}) {
  write_file(dir.file("pairs.jsonl"), invjudge(dir, "gen-pairs 5").out);
  write_file(dir.file("quick.json"), quick_connect);
  auto args = "run --pairs pairs.jsonl --judge " + judge
              + " --config quick.json --no-progress --audit " + audit + extra;
  for (auto& h : hosts)
    args += " --host " + h;
  return invjudge(dir, args);
}

} // namespace

TEST_CASE("e2e hosts: a host serving another model or temperature is refused "
          "naming the host, what it serves and the field that differs") {
  temp_dir dir;
  host_process other_model{
    dir, "m", {"--listen", "127.0.0.1:0", "--judge", "stub:equivalent"}};
  write_file(
    dir.file("warm.json"),
    R"({"judges":[{"name":"stub:numeric","type":"stub","model":"numeric",)"
    R"("temperature":0.7,"max_in_flight":4,"timeout_ms":10000}]})");
  host_process warm{
    dir, "t", {"--listen", "127.0.0.1:0", "--config", dir.file("warm.json")}};
  auto r = coordinate(dir, "stub:numeric", {other_model.address}, "a.jsonl");
  INFO(r.err);
  CHECK(r.exit_code == 3);
  CHECK(
    r.err.find("no worker serves judge stub:numeric (stub:numeric t=0 prompt=")
    != std::string::npos);
  CHECK(
    r.err.find(
      "host " + other_model.address
      + " serves judge stub:equivalent (stub, model equivalent, temperature "
        "0): "
        "model differs (host: equivalent, here: numeric); nothing was judged")
    != std::string::npos);
  CHECK(r.err.find("no host that serves it could be used")
        == std::string::npos);
  auto t = coordinate(dir, "stub:numeric", {warm.address}, "b.jsonl");
  INFO(t.err);
  CHECK(t.exit_code == 3);
  CHECK(
    t.err.find(
      "host " + warm.address
      + " serves judge stub:numeric (stub, model numeric, temperature 0.7): "
        "temperature differs (host: 0.7, here: 0)")
    != std::string::npos);
  for (auto* h : {&other_model, &warm}) {
    h->proc->signal(SIGTERM);
    CHECK(h->proc->wait() == 0);
  }
}

TEST_CASE("e2e hosts: a host serving the same model with another vote setting "
          "(seed, max "
          "tokens) is refused naming the setting, while its own timeout and "
          "attempts are its "
          "own (issue 26)") {
  temp_dir dir;
  auto host_with = [&](const std::string& tag, const std::string& extra) {
    write_file(
      dir.file(tag + ".json"),
      R"({"judges":[{"name":"stub:numeric","type":"stub","model":"numeric",)"
      R"("temperature":0,"max_in_flight":4)"
        + extra + "}]}");
    return host_process{
      dir,
      tag,
      {"--listen", "127.0.0.1:0", "--config", dir.file(tag + ".json")}};
  };
  auto seeded = host_with("seed", R"(,"timeout_ms":60000,"seed":3)");
  auto shorter = host_with("tokens", R"(,"timeout_ms":60000,"max_tokens":64)");
  // The coordinator's judge: 60 s, 4 in flight, 3 attempts; the host's own.
  auto own = host_with("own", R"(,"timeout_ms":5000,"max_attempts":1)");
  auto r = coordinate(dir, "stub:numeric", {seeded.address}, "a.jsonl");
  INFO(r.err);
  CHECK(r.exit_code == 3);
  CHECK(
    r.err.find(
      "host " + seeded.address
      + " serves judge stub:numeric (stub, model numeric, temperature 0): seed "
        "differs (host: 3, here: none); nothing was judged")
    != std::string::npos);
  auto t = coordinate(dir, "stub:numeric", {shorter.address}, "b.jsonl");
  INFO(t.err);
  CHECK(t.exit_code == 3);
  CHECK(t.err.find("max_tokens differs (host: 64, here: 256)")
        != std::string::npos);
  auto ok = coordinate(dir, "stub:numeric", {own.address}, "c.jsonl");
  INFO(ok.err);
  CHECK(ok.exit_code == 0);
  CHECK(count_of(read_file(dir.file("c.jsonl")), verdict_record) == 5);
  for (auto* h : {&seeded, &shorter, &own}) {
    h->proc->signal(SIGTERM);
    CHECK(h->proc->wait() == 0);
  }
}

TEST_CASE(
  "e2e hosts: a host serving another model while another host matches is "
  "connected with a warning naming it, what it serves and the field") {
  temp_dir dir;
  host_process other_model{
    dir, "m", {"--listen", "127.0.0.1:0", "--judge", "stub:equivalent"}};
  host_process same{
    dir, "s", {"--listen", "127.0.0.1:0", "--judge", "stub:numeric"}};
  auto r = coordinate(dir, "stub:numeric", {other_model.address, same.address},
                      "a.jsonl");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(count_of(r.err, "warning: host ") == 1);
  CHECK(
    r.err.find(
      "invjudge: warning: host " + other_model.address
      + " serves judge stub:equivalent (stub, model equivalent, temperature "
        "0), "
        "which differs from judge stub:numeric: model differs (host: "
        "equivalent, here: numeric); it serves no judge of this run, so its "
        "workers are not used")
    != std::string::npos);
  CHECK(count_of(read_file(dir.file("a.jsonl")), verdict_record) == 5);
  for (auto* h : {&other_model, &same}) {
    h->proc->signal(SIGTERM);
    CHECK(h->proc->wait() == 0);
  }
}

// What CAF 0.17.6 lets a coordinator observe: a refused TCP connection
// (cannot_connect_to_node, "ip_connect failed"), a handshake nobody answers
// (connection_timeout or the connect request's timeout) and a TLS handshake
// that fails (disconnect_during_handshake for a plain coordinator at a TLS
// host, cannot_connect_to_node for a TLS coordinator at a plain host). A TLS
// coordinator at a silent listener is not tried: CAF's OpenSSL transport
// does not give that attempt up.
TEST_CASE(
  "e2e hosts: a refused connection, a timeout and a failed TLS handshake are "
  "told apart") {
  temp_dir dir;
  auto script = source_dir() + "/scripts/make-certs";
  REQUIRE(
    std::system(
      (script + " " + dir.file("pki") + " host coordinator >/dev/null").c_str())
    == 0);
  auto pki = [&](const std::string& f) { return dir.file("pki/" + f); };
  const std::string refused =
    "not reachable: connection refused: nothing accepts TCP "
    "connections on that address and port";
  const std::string timed_out =
    "not reachable: timed out: the host did not complete the "
    "handshake in time (connect_timeout_ms 2000)";
  const std::string closed_in_handshake =
    "not reachable: the host closed the connection during the handshake: the "
    "host likely "
    "requires TLS, which this coordinator does not use";
  const std::string tls_failed =
    "not reachable: TLS handshake failed: the host does not "
    "speak TLS, or its certificate is not signed by this "
    "coordinator's --tls-ca";
  const std::vector<std::string> all = {refused, timed_out, closed_in_handshake,
                                        tls_failed};
  auto only = [&](const cli_result& r, const std::string& which) {
    INFO(r.err);
    CHECK(r.exit_code == 3);
    for (auto& m : all)
      CHECK((r.err.find(m) != std::string::npos) == (m == which));
    CHECK(r.err.find("(a host with TLS refuses a coordinator without)")
          == std::string::npos);
  };
  // Port 1 on 127.0.0.1: nothing listens there.
  only(coordinate(dir, "stub:numeric", {"127.0.0.1:1"}, "r.jsonl"), refused);
  silent_listener silent;
  only(coordinate(dir, "stub:numeric", {silent.address}, "s.jsonl"), timed_out);
  host_process tls_host{dir,
                        "tls",
                        {"--listen", "127.0.0.1:0", "--judge", "stub:numeric",
                         "--tls-cert", pki("host.pem"), "--tls-key",
                         pki("host.key"), "--tls-ca", pki("ca.pem")}};
  only(coordinate(dir, "stub:numeric", {tls_host.address}, "t.jsonl"),
       closed_in_handshake);
  host_process plain_host{
    dir, "plain", {"--listen", "127.0.0.1:0", "--judge", "stub:numeric"}};
  only(coordinate(dir, "stub:numeric", {plain_host.address}, "p.jsonl",
                  " --tls-cert " + pki("coordinator.pem") + " --tls-key "
                    + pki("coordinator.key") + " --tls-ca " + pki("ca.pem")),
       tls_failed);
  for (auto* h : {&tls_host, &plain_host}) {
    h->proc->signal(SIGTERM);
    CHECK(h->proc->wait() == 0);
  }
}

TEST_CASE("e2e hosts: a host must serve the same declared prompt: the same "
          "bytes vote, other "
          "bytes are refused naming the prompt") {
  temp_dir dir;
  auto judges = [](const std::string& file) {
    return R"({"judges":[{"name":"llm","type":"stub","model":"equivalent","temperature":0,)"
           R"("max_in_flight":4,"timeout_ms":10000,"prompt":{"id":"team/v1","file":")"
           + file + R"("}}],"host_connection":{"connect_timeout_ms":2000}})";
  };
  write_file(dir.file("host.txt"), "A: {{answer_a}}\nB: {{answer_b}}\n");
  write_file(dir.file("host.json"), judges("host.txt"));
  host_process host{
    dir, "h", {"--listen", "127.0.0.1:0", "--config", dir.file("host.json")}};
  write_file(dir.file("pairs.jsonl"), invjudge(dir, "gen-pairs 5").out);
  // The coordinator's copy of the template, next to its configuration.
  write_file(dir.file("same.txt"), "A: {{answer_a}}\nB: {{answer_b}}\n");
  write_file(dir.file("same.json"), judges("same.txt"));
  auto same =
    invjudge(dir, "run --pairs pairs.jsonl --config same.json --no-progress "
                  "--audit a.jsonl --host "
                    + host.address);
  INFO(same.err);
  CHECK(same.exit_code == 0);
  CHECK(read_file(dir.file("a.jsonl")).find(R"("prompt_id":"team/v1")")
        != std::string::npos);
  write_file(dir.file("other.txt"),
             "A: {{answer_a}}\nB: {{answer_b}}\nBe strict.\n");
  write_file(dir.file("other.json"), judges("other.txt"));
  auto other =
    invjudge(dir, "run --pairs pairs.jsonl --config other.json --no-progress "
                  "--audit b.jsonl --host "
                    + host.address);
  INFO(other.err);
  CHECK(other.exit_code == 3);
  CHECK(other.err.find("prompt differs (host: team/v1#") != std::string::npos);
  CHECK(other.err.find("nothing was judged") != std::string::npos);
  host.proc->signal(SIGTERM);
  CHECK(host.proc->wait() == 0);
}
