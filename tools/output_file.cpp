#include "tools/output_file.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "messages/error.hpp"

namespace ij {

namespace {

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

} // namespace

caf::expected<std::FILE*> open_output_file(const std::string& path, bool force,
                                           const std::vector<kept_file>& kept) {
  bool created = true;
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EEXIST) {
    created = false;
    // Not truncated yet: it may be the input or the audit.
    fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  }
  auto cannot_write = [&] {
    return make_error(errc::io_failed,
                      path + ": cannot write: " + std::strerror(errno));
  };
  if (fd < 0)
    return cannot_write();
  auto refuse = [&](caf::error why) {
    ::close(fd);
    if (created)
      ::unlink(path.c_str());
    return why;
  };
  auto refused = [&](std::string why) {
    return refuse(make_error(errc::bad_input, std::move(why)));
  };
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return refuse(cannot_write());
  if (S_ISREG(st.st_mode)) {
    for (auto& k : kept) {
      struct stat other {};
      bool known = k.fd >= 0 ? ::fstat(k.fd, &other) == 0
                             : !k.path.empty() && ::stat(k.path.c_str(), &other) == 0;
      if (known && same_file(st, other))
        return refused("--out " + path + " is " + k.role
                      + " (the same file): writing verdicts there would "
                        "destroy it; choose another path");
    }
    if (!created && st.st_size > 0 && !force)
      return refused("--out " + path
                     + " exists and is not empty: use --force to replace it, "
                       "or choose another path");
    if (!created && ::ftruncate(fd, 0) != 0)
      return refuse(cannot_write());
  }
  std::FILE* f = ::fdopen(fd, "wb");
  if (!f)
    return refuse(cannot_write());
  return f;
}

} // namespace ij
