#pragma once
// A one-line progress display on stderr for interactive runs: pairs done (of
// the total when known), rate per second, faults, and a status text from the
// caller (the judges' current adaptive in-flight caps). Redrawn at most 10
// times per second; never used when stderr is not a terminal.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

namespace ij {

class progress_bar {
public:
  /// `total`: the number of pairs when known in advance.
  progress_bar(std::FILE* out, std::optional<std::uint64_t> total);

  /// Text appended to every redraw, asked for only when the line is drawn.
  void set_status(std::function<std::string()> status);

  /// Redraws if the last draw is at least 100 ms old.
  void update(std::uint64_t done, std::uint64_t faults);

  /// Erases the line (before the summary is printed).
  void clear();

private:
  void draw(std::uint64_t done, std::uint64_t faults);

  std::FILE* out_;
  std::optional<std::uint64_t> total_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
  bool drawn_ = false;
  std::function<std::string()> status_;
};

} // namespace ij
