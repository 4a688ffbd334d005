#include "tools/output_sink.hpp"

namespace ij {

void output_sink::write(const std::string& line) {
  if (failed_)
    return;
  if (std::fwrite(line.data(), 1, line.size(), out_) != line.size()
      || std::fputc('\n', out_) == EOF)
    failed_ = true;
}

void output_sink::maybe_flush() {
  auto now = std::chrono::steady_clock::now();
  if (now - last_flush_ >= std::chrono::milliseconds(200)) {
    flush();
    last_flush_ = now;
  }
}

void output_sink::flush() {
  if (!failed_ && std::fflush(out_) != 0)
    failed_ = true;
}

} // namespace ij
