#include "tests/daemon/daemon_support.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rapidjson/document.h>

namespace ij::test {

started_daemon::started_daemon(const temp_dir& dir, const std::string& state,
                               std::vector<std::string> extra,
                               const std::string& tag, const std::string& cwd)
    : err_(dir.file(tag + ".err")), out_(dir.file(tag + ".out")) {
  std::vector<std::string> args{"serve", "--listen", "127.0.0.1:0", "--state",
                                state};
  args.insert(args.end(), extra.begin(), extra.end());
  proc_ = std::make_unique<invjudge_process>(args, out_, err_, -1, cwd);
  if (!wait_for_text(err_, "listening on 127.0.0.1:"))
    throw std::runtime_error("the daemon did not start: " + read_file(err_));
  auto text = read_file(err_);
  auto at = text.find("listening on 127.0.0.1:") + 23;
  port_ = std::stoi(text.substr(at));
}

std::string started_daemon::log() const {
  return read_file(out_) + read_file(err_);
}

int connect_to(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    throw std::runtime_error("cannot connect to the daemon");
  return fd;
}

bool send_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    auto n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n <= 0)
      return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool readable_within(int fd, int ms) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, ms) > 0;
}

std::string read_until_closed(int fd, int ms) {
  std::string got;
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  char buf[4096];
  while (std::chrono::steady_clock::now() < until) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      until - std::chrono::steady_clock::now());
    if (!readable_within(fd, static_cast<int>(left.count()) + 1))
      break;
    auto n = ::read(fd, buf, sizeof buf);
    if (n <= 0)
      break;
    got.append(buf, static_cast<std::size_t>(n));
  }
  return got;
}

std::string raw_exchange(int port, const std::string& bytes) {
  int fd = connect_to(port);
  send_all(fd, bytes);
  auto got = read_until_closed(fd);
  ::close(fd);
  return got;
}

std::string wait_until_ended(api_client& api, const std::string& id) {
  // Bounded only so that a broken build cannot hang the suite.
  for (int i = 0; i < 6000; ++i) {
    auto r = api.request("GET", "/v1/runs/" + id);
    auto state = field(r.body, "state");
    if (state == "done" || state == "cancelled" || state == "failed")
      return r.body;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return {};
}

std::string field(const std::string& json, const char* name) {
  rapidjson::Document d;
  d.Parse(json);
  if (!d.IsObject() || !d.HasMember(name))
    return {};
  auto& v = d[name];
  if (v.IsString())
    return v.GetString();
  if (v.IsUint64())
    return std::to_string(v.GetUint64());
  if (v.IsBool())
    return v.GetBool() ? "true" : "false";
  return {};
}

} // namespace ij::test
