#pragma once
// Where verdict lines go: standard output or a file, flushed at most every
// 200 ms (and at the end) so that a follower sees progress without a write
// per line. A failed write (a closed pipe) is remembered, not thrown.
#include <chrono>
#include <cstdio>
#include <string>

namespace ij {

class output_sink {
public:
  explicit output_sink(std::FILE* out) : out_(out) {}

  void write(const std::string& line);

  /// Flushes when the last flush is 200 ms old.
  void maybe_flush();

  void flush();

  bool failed() const { return failed_; }

private:
  std::FILE* out_;
  bool failed_ = false;
  std::chrono::steady_clock::time_point last_flush_ =
    std::chrono::steady_clock::now();
};

} // namespace ij
