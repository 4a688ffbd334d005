#include "daemon/state_lock.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "actors/file_write.hpp"

namespace ij {

std::unique_ptr<state_lock> state_lock::acquire(const std::string& dir,
                                                std::string& error) {
  auto path = dir + "/lock";
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = "cannot open the state lock " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    auto why = errno;
    char buf[32] = {};
    auto n = ::pread(fd, buf, sizeof buf - 1, 0);
    std::string pid = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' '))
      pid.pop_back();
    ::close(fd);
    if (why == EWOULDBLOCK)
      error = "the state directory " + dir + " is in use by another invjudge "
              "serve (pid " + (pid.empty() ? "unknown" : pid) + ", which holds "
              + path + "): one daemon per state directory";
    else
      error = "cannot lock " + path + ": " + std::strerror(why);
    return nullptr;
  }
  // Ours now: the pid is written for the next daemon's message.
  auto pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || !write_all(fd, pid.data(), pid.size())) {
    error = "cannot write the state lock " + path + ": " + std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  return std::unique_ptr<state_lock>(new state_lock(fd));
}

state_lock::~state_lock() {
  ::close(fd_);
}

} // namespace ij
