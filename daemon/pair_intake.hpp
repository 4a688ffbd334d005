#pragma once
// The daemon's reading of uploaded pair lines, line by line in upload order:
// the same rules as the driver's (tools/pair_reader: a bad line, a line over
// 1 MiB and a duplicate id are rejected; blank lines are skipped but
// counted). The upload handler and the run's reader of the pairs file each
// keep one, and since they see the same lines in the same order they agree
// on every line number and every rejection.
#include <cstdint>
#include <string>
#include <string_view>

#include "messages/answer_pair.hpp"
#include "tools/id_set.hpp"

namespace ij {

class pair_intake {
public:
  enum class kind { blank, pair, rejected };

  /// Takes the next line (without its newline); numbers it; fills `pair`
  /// or `reason`.
  kind take(std::string_view line, answer_pair& pair, std::string& reason);

  /// Lines taken so far (blank ones included): the last line's number.
  std::uint64_t lines() const {
    return lines_;
  }

private:
  id_set ids_;
  std::uint64_t lines_ = 0;
};

} // namespace ij
