#include "actors/file_write.hpp"

#include <cerrno>

#include <unistd.h>

namespace ij {

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    auto n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

} // namespace ij
