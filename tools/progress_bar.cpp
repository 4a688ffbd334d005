#include "tools/progress_bar.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace ij {

progress_bar::progress_bar(std::FILE* out, std::optional<std::uint64_t> total)
    : out_(out), total_(total), start_(std::chrono::steady_clock::now()),
      last_(start_ - std::chrono::seconds(1)) {}

void progress_bar::set_status(std::function<std::string()> status) {
  status_ = std::move(status);
}

void progress_bar::update(std::uint64_t done, std::uint64_t faults) {
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(100))
    return;
  last_ = now;
  draw(done, faults);
}

void progress_bar::draw(std::uint64_t done, std::uint64_t faults) {
  double secs = std::chrono::duration<double>(last_ - start_).count();
  double rate = secs > 0 ? double(done) / secs : 0.0;
  std::string bar;
  std::string status = status_ ? status_() : std::string{};
  if (total_ && *total_ > 0) {
    constexpr int width = 30;
    auto filled =
      static_cast<int>(width * std::min(1.0, double(done) / double(*total_)));
    bar =
      "[" + std::string(filled, '#') + std::string(width - filled, '.') + "] ";
    std::fprintf(out_, "\r%s%llu/%llu pairs  %.0f/s  faults %llu%s\x1b[K",
                 bar.c_str(), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(*total_), rate,
                 static_cast<unsigned long long>(faults), status.c_str());
  } else {
    std::fprintf(out_, "\r%llu pairs done  %.0f/s  faults %llu%s\x1b[K",
                 static_cast<unsigned long long>(done), rate,
                 static_cast<unsigned long long>(faults), status.c_str());
  }
  std::fflush(out_);
  drawn_ = true;
}

void progress_bar::clear() {
  if (drawn_) {
    std::fprintf(out_, "\r\x1b[K");
    std::fflush(out_);
    drawn_ = false;
  }
}

} // namespace ij
