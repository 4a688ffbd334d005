#include "tools/input_source.hpp"

#include <cerrno>
#include <cstring>

#include <sys/stat.h>

#include "messages/error.hpp"

namespace ij {

namespace {

/// Files up to this size are counted first, so that progress shows a total.
constexpr std::uint64_t max_counted_bytes = 256ull << 20;

} // namespace

caf::error input_source::open(const std::string& path) {
  path_ = path;
  if (path == "-") {
    in_ = stdin;
    name_ = "<stdin>";
    return caf::none;
  }
  name_ = path;
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return make_error(errc::io_failed, path + ": is a directory");
  owned_.reset(std::fopen(path.c_str(), "rb"));
  if (!owned_)
    return make_error(errc::io_failed,
                      path + ": cannot open: " + std::strerror(errno));
  in_ = owned_.get();
  return caf::none;
}

bool input_source::rereadable() const {
  struct stat st;
  return owned_ && ::fstat(::fileno(in_), &st) == 0 && S_ISREG(st.st_mode);
}

caf::error input_source::rewind() {
  if (!rereadable() || std::fseek(in_, 0, SEEK_SET) != 0)
    return make_error(errc::io_failed,
                      name_ + ": cannot be read a second time from its start");
  std::clearerr(in_);
  return caf::none;
}

std::optional<std::uint64_t> input_source::count_pairs() const {
  struct stat st;
  if (!rereadable() || ::stat(path_.c_str(), &st) != 0 || !S_ISREG(st.st_mode)
      || static_cast<std::uint64_t>(st.st_size) > max_counted_bytes)
    return std::nullopt;
  std::unique_ptr<std::FILE, closer> f{std::fopen(path_.c_str(), "rb")};
  if (!f)
    return std::nullopt;
  std::uint64_t lines = 0;
  bool content = false;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) {
    for (std::size_t i = 0; i < n; ++i) {
      char c = buf[i];
      if (c == '\n') {
        lines += content;
        content = false;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        content = true;
      }
    }
  }
  return lines + content;
}

} // namespace ij
