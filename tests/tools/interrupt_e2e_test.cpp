// Ctrl-C ends a run cleanly: exit 4, the audit ends with a run_end record
// marked interrupted, and it verifies as interrupted (intact, not edited).
//
// The judge is an OpenAI-compatible server that accepts connections and
// never answers (a listening socket nobody accepts from), so the run is
// certainly mid-way when SIGINT arrives: no timing is involved.
#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <thread>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rapidjson/document.h>

#include "cli_support.hpp"

extern char** environ;

using namespace ij::test;

namespace {

/// A TCP port on 127.0.0.1 that accepts connections (the kernel completes
/// the handshake for the backlog) but never reads or replies.
class silent_server {
public:
  silent_server() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd_ >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(::listen(fd_, 64) == 0);
    socklen_t len = sizeof addr;
    REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
    port_ = ntohs(addr.sin_port);
  }
  ~silent_server() {
    ::close(fd_);
  }
  int port() const {
    return port_;
  }

private:
  int fd_ = -1;
  int port_ = 0;
};

/// Starts invjudge with `args` (absolute paths), stdout and stderr to files.
pid_t spawn_invjudge(const std::vector<std::string>& args, const std::string& out,
                     const std::string& err) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> all{invjudge_path()};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  REQUIRE(rc == 0);
  return pid;
}

/// Waits (polling) until `path` holds at least `n` complete lines. The
/// bound only keeps a broken build from hanging the suite.
bool wait_for_lines(const std::string& path, std::size_t n) {
  auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  while (std::chrono::steady_clock::now() < give_up) {
    auto text = read_file(path);
    std::size_t lines = 0;
    for (char c : text)
      lines += c == '\n';
    if (lines >= n)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

int wait_exit(pid_t pid) {
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace

TEST_CASE("SIGINT mid-run ends it cleanly: exit 4, run_end interrupted, audit intact") {
  temp_dir dir;
  silent_server server;
  write_file(dir.file("c.json"),
             R"({"judges":[{"name":"silent","type":"openai","model":"m",)"
             R"("base_url":"http://127.0.0.1:)" + std::to_string(server.port())
               + R"(/v1","temperature":0,"timeout_ms":600000,"max_in_flight":4,)"
                 R"("max_attempts":1}],"vote_deadline_ms":600000})");
  std::string pairs;
  for (int i = 0; i < 50; ++i)
    pairs += R"({"id":"p)" + std::to_string(i) + R"(","a":"1","b":"1"})" "\n";
  // One absent pair: judged at once (I1) without the judge, so its verdict
  // is written before the interruption and must survive it.
  pairs += R"({"id":"absent","a":"","b":"1"})" "\n";
  write_file(dir.file("p.jsonl"), pairs);
  auto audit = dir.file("a.jsonl");
  pid_t pid = spawn_invjudge({"run", "--pairs", dir.file("p.jsonl"), "--config",
                              dir.file("c.json"), "--audit", audit, "--out",
                              dir.file("v.jsonl")},
                             dir.file("out.txt"), dir.file("err.txt"));
  // The manifest is written after the handler is installed and before any
  // judge call; the absent pair's verdict follows without the judge.
  bool started = wait_for_lines(audit, 1);
  if (!started)
    ::kill(pid, SIGKILL);
  REQUIRE(started);
  REQUIRE(wait_for_lines(dir.file("v.jsonl"), 1));
  REQUIRE(::kill(pid, SIGINT) == 0);
  int code = wait_exit(pid);
  auto err = read_file(dir.file("err.txt"));
  INFO(err);
  CHECK(code == 4);
  CHECK(err.find("run INTERRUPTED") != std::string::npos);

  auto lines = lines_of(read_file(audit));
  REQUIRE_FALSE(lines.empty());
  rapidjson::Document last;
  last.Parse(lines.back().c_str());
  REQUIRE_FALSE(last.HasParseError());
  CHECK(last["type"].GetString() == std::string{"run_end"});
  REQUIRE(last.HasMember("interrupted"));
  CHECK(last["interrupted"].IsTrue());

  // The verdict written before the interruption is in the output.
  auto out = read_file(dir.file("v.jsonl"));
  CHECK(out.find("\"id\":\"absent\"") != std::string::npos);

  auto v = invjudge(dir, "audit verify a.jsonl");
  CHECK(v.exit_code == 4);
  CHECK(v.out.rfind("interrupted: " + std::to_string(lines.size()) + " records, chain intact", 0) == 0);
}
