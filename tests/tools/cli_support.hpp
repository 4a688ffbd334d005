#pragma once
// Running the built invjudge binary from tests: a fresh temporary directory
// per test, the command's exit code, stdout and stderr, and small file
// helpers.
#include <functional>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/types.h>

namespace ij::test {

/// A temporary directory, removed with its contents on destruction.
class temp_dir {
public:
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  const std::string& path() const { return path_; }
  /// path() + "/" + name
  std::string file(const std::string& name) const;

private:
  std::string path_;
};

struct cli_result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Runs `invjudge <args>` (args are passed to the shell as written) with
/// `dir` as the working directory and `stdin_path` (relative to `dir`) as
/// standard input.
cli_result invjudge(const temp_dir& dir, const std::string& args,
                    const std::string& stdin_path = "/dev/null");

/// Runs `<feeder> | invjudge <args>` in `dir`: standard input is a pipe,
/// which cannot be read twice (unlike a redirected file).
cli_result invjudge_piped(const temp_dir& dir, const std::string& feeder,
                          const std::string& args);

/// An invjudge process started without a shell, for tests that signal it or
/// run several at once. Killed (SIGKILL) and reaped if the test ends first.
class invjudge_process {
public:
  /// `args` after the binary; stdout and stderr go to the files `out` and
  /// `err`; standard input is `stdin_fd` (duplicated) or /dev/null when -1;
  /// the working directory is `cwd` when not empty; standard output is
  /// `stdout_fd` (duplicated) instead of `out` when >= 0.
  invjudge_process(const std::vector<std::string>& args, const std::string& out,
                   const std::string& err, int stdin_fd = -1,
                   const std::string& cwd = {}, int stdout_fd = -1);
  ~invjudge_process();
  invjudge_process(const invjudge_process&) = delete;
  invjudge_process& operator=(const invjudge_process&) = delete;

  void signal(int sig);
  /// The process id (the benchmark reads its peak memory).
  pid_t pid() const { return pid_; }
  /// Waits for the exit; the exit code (128 + signal when killed).
  int wait();
  /// The same, and the process's resource usage (the benchmark reads its
  /// peak memory, ru_maxrss, which /proc no longer shows once it exits).
  int wait(struct rusage& usage);

private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  int code_ = -1;
};

/// Waits (polling) until `path` holds at least `n` complete lines; false if
/// it never does. The bound (two minutes) only keeps a broken build from
/// hanging the suite: no test asserts on time.
bool wait_for_lines(const std::string& path, std::size_t n);

/// Waits (polling, same bound) until `path` contains `text`.
bool wait_for_text(const std::string& path, const std::string& text);

/// Waits (polling, same bound) until `done` says so.
bool eventually(const std::function<bool()>& done);

/// A TCP port on 127.0.0.1 that accepts connections (the kernel completes
/// the handshake for the backlog) but never reads or replies: a judge that
/// keeps a run busy without any timing.
class silent_server {
public:
  silent_server();
  ~silent_server();
  silent_server(const silent_server&) = delete;
  silent_server& operator=(const silent_server&) = delete;
  int port() const { return port_; }
  /// A configuration whose one judge (openai type) is this server, with
  /// long timeouts, plus `extra` top-level fields (",\"x\":1" or empty).
  std::string config(const std::string& extra = {}) const;

private:
  int fd_ = -1;
  int port_ = 0;
};

/// The path of the binary under test: $IJ_INVJUDGE when set, else the one
/// this build made.
std::string invjudge_path();

/// The source tree (examples/, configs/).
std::string source_dir();

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& content);
std::vector<std::string> lines_of(const std::string& text);

/// Files in `dir` whose names start with `prefix`.
std::vector<std::string> files_starting_with(const temp_dir& dir,
                                             const std::string& prefix);

/// Single-quotes `s` for the shell.
std::string shell_quote(const std::string& s);

} // namespace ij::test
