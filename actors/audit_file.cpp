#include "actors/audit_file.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ij {

int open_audit_file(const std::string& path, std::string& error) {
  const int flags = O_WRONLY | O_APPEND | O_CLOEXEC;
  int fd = ::open(path.c_str(), flags | O_CREAT | O_EXCL, 0644);
  if (fd < 0 && errno == EEXIST)
    fd = ::open(path.c_str(), flags);
  if (fd < 0) {
    error = "cannot create the audit file " + path + ": " + std::strerror(errno);
    return -1;
  }
  auto refuse = [&](std::string why) {
    ::close(fd);
    error = std::move(why);
    return -1;
  };
  // Whoever locks first writes; the lock goes with the descriptor, so the
  // logger holds it until the run has ended (or the process is gone).
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK)
      return refuse("the audit file " + path
                    + " is in use by another run (it is locked): each run "
                      "needs its own audit file");
    return refuse("cannot lock the audit file " + path + ": "
                  + std::strerror(errno));
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0)
    return refuse("cannot read the audit file " + path + ": "
                  + std::strerror(errno));
  if (!S_ISREG(info.st_mode))
    return refuse("the audit file " + path + " is not a regular file");
  if (info.st_size > 0)
    return refuse("the audit file " + path
                  + " already holds records: an audit trail is never "
                    "appended to by another run; choose a new path");
  return fd;
}

std::string default_audit_stem(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  return std::string{"invjudge-audit-"} + stamp;
}

std::optional<std::string> create_fresh_audit_file(const std::string& stem,
                                                   std::string& error) {
  // Bounded: a directory where ten thousand names are taken is a mistake to
  // report, not to search through.
  for (int i = 1; i <= 10000; ++i) {
    auto name = i == 1 ? stem + ".jsonl"
                       : stem + "-" + std::to_string(i) + ".jsonl";
    int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ::close(fd);
      return name;
    }
    if (errno != EEXIST) {
      error = "cannot create the audit file " + name + ": " + std::strerror(errno);
      return std::nullopt;
    }
  }
  error = "cannot create an audit file " + stem
          + "[-N].jsonl: ten thousand such names are taken here";
  return std::nullopt;
}

} // namespace ij
