#include "actors/audit_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/audit/audit_chain.hpp"
#include "messages/error.hpp"

namespace ij {

caf::expected<int> open_audit_file(const std::string& path) {
  const int flags = O_WRONLY | O_APPEND | O_CLOEXEC;
  int fd = ::open(path.c_str(), flags | O_CREAT | O_EXCL, 0644);
  if (fd < 0 && errno == EEXIST)
    fd = ::open(path.c_str(), flags);
  if (fd < 0)
    return make_error(errc::audit_failed, "cannot create the audit file " + path
                                            + ": " + std::strerror(errno));
  auto refuse = [&](std::string why) -> caf::expected<int> {
    ::close(fd);
    return make_error(errc::audit_failed, std::move(why));
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

caf::expected<resumable_audit> open_audit_for_resume(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0)
    return make_error(errc::audit_failed,
                      "cannot open the audit file " + path
                        + " to resume its run: " + std::strerror(errno));
  auto refuse = [&](std::string why) -> caf::expected<resumable_audit> {
    ::close(fd);
    return make_error(errc::audit_failed, std::move(why));
  };
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0)
    return refuse(
      errno == EWOULDBLOCK
        ? "the audit file " + path + " is in use by another run (it is locked)"
        : "cannot lock the audit file " + path + ": " + std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode))
    return refuse("the audit file " + path + " is not a regular file");
  // Held under the lock from here: nobody writes while it is read and cut.
  auto v = verify_audit_file(path);
  if (v.status == audit_status::edited || v.status == audit_status::unreadable)
    return refuse("cannot resume from " + path + ": "
                  + std::string{to_string(v.status)} + " at line "
                  + std::to_string(v.bad_line) + ": " + v.reason);
  if (v.status == audit_status::ok)
    return refuse("cannot resume from " + path
                  + ": the run finished; there is nothing to resume");
  std::ifstream in(path, std::ios::binary);
  auto point = read_resume_point(in);
  if (!point)
    return refuse("cannot resume from " + path + ": "
                  + context_of(point.error()));
  // The uncommitted tail goes before anything is appended; the resume
  // record says what it was.
  if (point->cut_bytes > 0
      && (::ftruncate(fd, static_cast<off_t>(point->keep_bytes)) != 0
          || ::fsync(fd) != 0))
    return refuse("cannot cut the unfinished tail of " + path + ": "
                  + std::strerror(errno));
  return resumable_audit{fd, std::move(*point)};
}

std::string default_audit_stem(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  return std::string{"invjudge-audit-"} + stamp;
}

caf::expected<std::string> create_fresh_audit_file(const std::string& stem) {
  // Bounded: a directory where ten thousand names are taken is a mistake to
  // report, not to search through.
  for (int i = 1; i <= 10000; ++i) {
    auto name =
      i == 1 ? stem + ".jsonl" : stem + "-" + std::to_string(i) + ".jsonl";
    int fd =
      ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ::close(fd);
      return name;
    }
    if (errno != EEXIST)
      return make_error(errc::audit_failed, "cannot create the audit file "
                                              + name + ": "
                                              + std::strerror(errno));
  }
  return make_error(errc::audit_failed,
                    "cannot create an audit file " + stem
                      + "[-N].jsonl: ten thousand such names are taken here");
}

} // namespace ij
