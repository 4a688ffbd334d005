#include "cli_support.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ij::test {

temp_dir::temp_dir() {
  char tmpl[] = "/tmp/invjudge-test-XXXXXX";
  if (!::mkdtemp(tmpl))
    throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

temp_dir::~temp_dir() {
  std::string cmd = "rm -rf " + shell_quote(path_);
  if (std::system(cmd.c_str()) != 0)
    std::fprintf(stderr, "could not remove %s\n", path_.c_str());
}

std::string temp_dir::file(const std::string& name) const {
  return path_ + "/" + name;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string invjudge_path() {
  // IJ_INVJUDGE in the environment runs the end-to-end specification
  // against another build (e.g. an older one, to see a test fail there).
  if (const char* other = std::getenv("IJ_INVJUDGE"); other && *other)
    return other;
  return IJ_INVJUDGE;
}

std::string source_dir() {
  return IJ_SOURCE_DIR;
}

cli_result invjudge(const temp_dir& dir, const std::string& args,
                    const std::string& stdin_path) {
  std::string out = dir.file(".stdout"), err = dir.file(".stderr");
  std::string cmd = "cd " + shell_quote(dir.path()) + " && "
                    + shell_quote(invjudge_path()) + " " + args + " >"
                    + shell_quote(out) + " 2>" + shell_quote(err) + " <"
                    + shell_quote(stdin_path);
  int status = std::system(cmd.c_str());
  cli_result r;
  r.exit_code =
    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out);
  r.err = read_file(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  return r;
}

cli_result invjudge_piped(const temp_dir& dir, const std::string& feeder,
                          const std::string& args) {
  std::string out = dir.file(".stdout"), err = dir.file(".stderr");
  std::string cmd = "cd " + shell_quote(dir.path()) + " && " + feeder + " | "
                    + shell_quote(invjudge_path()) + " " + args + " >"
                    + shell_quote(out) + " 2>" + shell_quote(err);
  int status = std::system(cmd.c_str());
  cli_result r;
  r.exit_code =
    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out);
  r.err = read_file(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  return r;
}

invjudge_process::invjudge_process(const std::vector<std::string>& args,
                                   const std::string& out,
                                   const std::string& err, int stdin_fd,
                                   const std::string& cwd, int stdout_fd) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (stdin_fd >= 0)
    posix_spawn_file_actions_adddup2(&fa, stdin_fd, 0);
  else
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (stdout_fd >= 0)
    posix_spawn_file_actions_adddup2(&fa, stdout_fd, 1);
  else
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!cwd.empty())
    posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  std::vector<std::string> all{invjudge_path()};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  int rc = posix_spawn(&pid_, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    throw std::runtime_error("cannot start " + all[0]);
}

invjudge_process::~invjudge_process() {
  if (!reaped_) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
}

void invjudge_process::signal(int sig) {
  if (!reaped_)
    ::kill(pid_, sig);
}

int invjudge_process::wait() {
  struct rusage ignored {};
  return wait(ignored);
}

int invjudge_process::wait(struct rusage& usage) {
  if (reaped_)
    return code_;
  int status = 0;
  while (::wait4(pid_, &status, 0, &usage) < 0)
    if (errno != EINTR)
      throw std::runtime_error("waitpid failed");
  reaped_ = true;
  code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return code_;
}

namespace {

template <class Done>
bool poll_until(Done done) {
  auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  while (std::chrono::steady_clock::now() < give_up) {
    if (done())
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

} // namespace

bool wait_for_lines(const std::string& path, std::size_t n) {
  return poll_until([&] {
    auto text = read_file(path);
    std::size_t lines = 0;
    for (char c : text)
      lines += c == '\n';
    return lines >= n;
  });
}

bool wait_for_text(const std::string& path, const std::string& text) {
  return poll_until(
    [&] { return read_file(path).find(text) != std::string::npos; });
}

bool eventually(const std::function<bool()>& done) {
  return poll_until(done);
}

silent_server::silent_server() {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd_ < 0)
    throw std::runtime_error("socket failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0
      || ::listen(fd_, 64) != 0
      || ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    ::close(fd_);
    throw std::runtime_error("cannot listen on 127.0.0.1");
  }
  port_ = ntohs(addr.sin_port);
}

silent_server::~silent_server() {
  ::close(fd_);
}

std::string silent_server::config(const std::string& extra) const {
  return R"({"judges":[{"name":"silent","type":"openai","model":"m",)"
         R"("base_url":"http://127.0.0.1:)"
         + std::to_string(port_)
         + R"(/v1","temperature":0,"timeout_ms":600000,"max_in_flight":4,)"
           R"("max_attempts":1}],"vote_deadline_ms":600000)"
         + extra + "}";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  if (!out)
    throw std::runtime_error("cannot write " + path);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    out.push_back(line);
  return out;
}

std::vector<std::string> files_starting_with(const temp_dir& dir,
                                             const std::string& prefix) {
  std::vector<std::string> out;
  if (DIR* d = ::opendir(dir.path().c_str())) {
    while (auto e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name.rfind(prefix, 0) == 0)
        out.push_back(name);
    }
    ::closedir(d);
  }
  return out;
}

} // namespace ij::test
