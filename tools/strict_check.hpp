#pragma once
// `invjudge run --strict`: the first of the two readings of the input. Every
// line is checked and every bad one is listed, however many, so that one
// pass fixes the file; nothing is judged when any line is bad.
#include <cstdint>
#include <cstdio>
#include <string>

namespace ij {

struct strict_check_result {
  /// Good pairs (the progress total of the judging pass).
  std::uint64_t pairs = 0;
  /// Bad lines, a read error included; each was listed.
  std::uint64_t bad = 0;
  /// SIGINT/SIGTERM came during the check: it stopped there.
  bool interrupted = false;
};

/// Reads `in` to its end and writes "NAME:LINE: REASON" to `report` for
/// every bad line (`name` as given).
strict_check_result check_every_line(std::FILE* in, const std::string& name,
                                     std::FILE* report);

} // namespace ij
