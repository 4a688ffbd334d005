#include "daemon/state_lock.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "actors/file_write.hpp"
#include "messages/error.hpp"

namespace ij {

caf::expected<std::unique_ptr<state_lock>>
state_lock::acquire(const std::string& dir) {
  auto path = dir + "/lock";
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return make_error(errc::io_failed, "cannot open the state lock " + path
                                         + ": " + std::strerror(errno));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    auto why = errno;
    char buf[32] = {};
    auto n = ::pread(fd, buf, sizeof buf - 1, 0);
    std::string pid =
      n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' '))
      pid.pop_back();
    ::close(fd);
    if (why == EWOULDBLOCK)
      return make_error(errc::io_failed,
                        "the state directory " + dir
                          + " is in use by another "
                            "invjudge serve (pid "
                          + (pid.empty() ? "unknown" : pid) + ", which holds "
                          + path + "): one daemon per state directory");
    return make_error(errc::io_failed,
                      "cannot lock " + path + ": " + std::strerror(why));
  }
  // Ours now: the pid is written for the next daemon's message.
  auto pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || !write_all(fd, pid.data(), pid.size())) {
    auto err = make_error(errc::io_failed, "cannot write the state lock " + path
                                             + ": " + std::strerror(errno));
    ::close(fd);
    return err;
  }
  return std::unique_ptr<state_lock>(new state_lock(fd));
}

state_lock::~state_lock() {
  ::close(fd_);
}

} // namespace ij
