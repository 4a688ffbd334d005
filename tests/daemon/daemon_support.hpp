#pragma once
// Starting `invjudge serve` from a test: on 127.0.0.1, port 0 (the port it
// prints is read back), state in the test's temporary directory; killed if
// the test ends first.
#include <memory>
#include <string>
#include <vector>

#include "tests/tools/cli_support.hpp"
#include "tools/api_client.hpp"

namespace ij::test {

class started_daemon {
public:
  /// `extra`: more arguments (--config, --token-file). `tag` names the
  /// stdout/stderr files (several starts in one test). `cwd`: the
  /// daemon's working directory (empty: the test's).
  started_daemon(const temp_dir& dir, const std::string& state,
                 std::vector<std::string> extra = {},
                 const std::string& tag = "serve", const std::string& cwd = {});
  /// "http://127.0.0.1:PORT"
  std::string url() const {
    return "http://127.0.0.1:" + std::to_string(port_);
  }
  int port() const { return port_; }
  invjudge_process& process() { return *proc_; }
  std::string log() const;

private:
  std::string err_, out_;
  std::unique_ptr<invjudge_process> proc_;
  int port_ = 0;
};

/// A connected socket to 127.0.0.1:port (closed by the caller).
int connect_to(int port);

/// Sends all of `bytes` (no SIGPIPE when the server has closed); false when
/// it could not.
bool send_all(int fd, const std::string& bytes);

/// True when `fd` has something to read (or was closed) within `ms`.
bool readable_within(int fd, int ms);

/// Everything the server sends until it closes the connection, waiting at
/// most `ms` in all (a hung server cannot hang the test).
std::string read_until_closed(int fd, int ms = 10000);

/// One request on a fresh connection ("Connection: close"): the whole
/// reply.
std::string raw_exchange(int port, const std::string& bytes);

/// Polls GET /v1/runs/ID until its state is final; the last reply's body.
std::string wait_until_ended(api_client& api, const std::string& id);

/// A JSON field of a reply body ("" when absent).
std::string field(const std::string& json, const char* name);

} // namespace ij::test
