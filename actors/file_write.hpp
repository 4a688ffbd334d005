#pragma once
// Writing a whole buffer to a file descriptor: the one loop over write(2)
// (short writes, EINTR) shared by the audit logger and the daemon's pairs
// files.
#include <cstddef>

namespace ij {

/// Writes all `size` bytes; false with errno set when write(2) fails.
bool write_all(int fd, const char* data, std::size_t size);

} // namespace ij
