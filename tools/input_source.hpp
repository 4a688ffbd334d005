#pragma once
// The pairs input of `invjudge run`: a file, or standard input ("-"). Knows
// whether it can be read a second time from the start, which --strict needs
// (it checks every line, then judges): a pipe, FIFO, terminal, socket or
// process substitution cannot, and reading it twice would judge nothing.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include <caf/error.hpp>

namespace ij {

class input_source {
public:
  /// Opens `path` ("-": standard input). Fails with io_failed naming the
  /// path (missing, unreadable, a directory).
  caf::error open(const std::string& path);

  std::FILE* stream() const { return in_; }

  /// The name shown in messages and rejected records: the path, or
  /// "<stdin>".
  const std::string& name() const { return name_; }

  /// True for a regular file named by path: it can be read again from its
  /// start. Standard input never counts (it is consumed by whoever reads it
  /// first, even when redirected from a file).
  bool rereadable() const;

  /// Back to the start for a second reading; io_failed when it cannot be.
  caf::error rewind();

  /// Non-blank lines of a regular file up to 256 MB, counted on a separate
  /// descriptor (for the progress total); nullopt otherwise.
  std::optional<std::uint64_t> count_pairs() const;

private:
  struct closer {
    void operator()(std::FILE* f) const {
      if (f)
        std::fclose(f);
    }
  };
  std::unique_ptr<std::FILE, closer> owned_;
  std::FILE* in_ = nullptr;
  std::string path_;
  std::string name_;
};

} // namespace ij
