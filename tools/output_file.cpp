#include "tools/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "actors/file_write.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// "the pairs file p.jsonl", "the pairs file on standard input".
std::string input_name(const kept_file& k) {
  if (!k.path.empty())
    return k.role + " " + k.path;
  return k.role + (k.fd == STDIN_FILENO ? " on standard input" : "");
}

// The input among `inputs` that `st` (a regular file) is, or nullptr.
const kept_file* input_matching(const struct stat& st,
                                const std::vector<kept_file>& inputs) {
  for (auto& k : inputs) {
    struct stat other {};
    bool known = k.fd >= 0
                   ? ::fstat(k.fd, &other) == 0
                   : !k.path.empty() && ::stat(k.path.c_str(), &other) == 0;
    if (known && same_file(st, other))
      return &k;
  }
  return nullptr;
}

caf::error is_input(const std::string& what, const kept_file& k) {
  return make_error(errc::bad_input,
                    what + " is " + input_name(k)
                      + " (the same file, by device and inode: the same path, "
                        "another spelling or a link to it): writing there "
                        "would destroy an input of this command; choose "
                        "another path");
}

} // namespace

output_file::~output_file() {
  release();
}

output_file::output_file(output_file&& other) noexcept {
  *this = std::move(other);
}

output_file& output_file::operator=(output_file&& other) noexcept {
  if (this != &other) {
    release();
    option_ = std::move(other.option_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
    file_ = std::exchange(other.file_, nullptr);
    created_ = other.created_;
    regular_ = other.regular_;
    written_ = other.written_;
  }
  return *this;
}

// A file created by the claim and never written goes again: a command that
// failed leaves nothing behind.
void output_file::release() {
  const bool open = file_ || fd_ >= 0;
  if (file_)
    std::fclose(file_);
  else if (fd_ >= 0)
    ::close(fd_);
  if (open && created_ && !written_)
    ::unlink(path_.c_str());
  file_ = nullptr;
  fd_ = -1;
}

std::FILE* output_file::stream() {
  if (file_)
    return file_;
  written_ = true;
  if (regular_ && !created_ && ::ftruncate(fd_, 0) != 0)
    return nullptr;
  file_ = ::fdopen(fd_, "wb");
  if (!file_)
    return nullptr;
  fd_ = -1; // the stream owns it now
  return file_;
}

caf::error output_file::write_whole(const std::string& text) {
  written_ = true;
  // A file this command created and could not write whole goes again.
  auto cannot = [&] {
    auto err = make_error(errc::io_failed,
                          name() + ": cannot write: " + std::strerror(errno));
    if (created_)
      ::unlink(path_.c_str());
    return err;
  };
  if (fd_ < 0)
    return make_error(errc::io_failed, name() + ": not open for writing");
  if (regular_ && !created_ && ::ftruncate(fd_, 0) != 0)
    return cannot();
  if (!write_all(fd_, text.data(), text.size()))
    return cannot();
  int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0)
    return cannot();
  return {};
}

caf::expected<output_file> claim_output(const std::string& option,
                                        const std::string& path, bool force,
                                        const std::vector<kept_file>& inputs) {
  output_file out;
  out.option_ = option;
  out.path_ = path;
  out.created_ = true;
  out.fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (out.fd_ < 0 && errno == EEXIST) {
    out.created_ = false;
    // Not truncated: it may be an input.
    out.fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  }
  if (out.fd_ < 0) {
    out.created_ = false;
    return make_error(errc::io_failed,
                      out.name() + ": cannot write: " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(out.fd_, &st) != 0)
    return make_error(errc::io_failed,
                      out.name() + ": cannot write: " + std::strerror(errno));
  out.regular_ = S_ISREG(st.st_mode);
  if (!out.regular_)
    return out; // a device or a pipe: written as it is
  if (auto k = input_matching(st, inputs))
    return is_input(out.name(), *k);
  if (!out.created_ && st.st_size > 0 && !force)
    return make_error(errc::bad_input,
                      out.name()
                        + " exists and is not empty: use --force to replace "
                          "it, or choose another path");
  return out;
}

caf::error refuse_input_as_output(const std::string& option,
                                  const std::string& path,
                                  const std::vector<kept_file>& inputs) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return {};
  if (auto k = input_matching(st, inputs))
    return is_input(option + " " + path, *k);
  return {};
}

caf::error refuse_input_as_stdout(const std::vector<kept_file>& inputs) {
  struct stat st {};
  if (::fstat(STDOUT_FILENO, &st) != 0 || !S_ISREG(st.st_mode))
    return {};
  if (auto k = input_matching(st, inputs))
    return is_input("standard output", *k);
  return {};
}

} // namespace ij
