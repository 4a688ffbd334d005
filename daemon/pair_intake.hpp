#pragma once
// The daemon's reading of uploaded pair lines, line by line in upload order:
// the same rules as the driver's (runio/pair_reader: a bad line, a line over
// 1 MiB and a duplicate id are rejected; blank lines are skipped but
// counted).
//
// What a run's pairs file (DIR/runs/<id>/pairs.jsonl) holds, one line per
// input line: an accepted pair as uploaded, a blank line as a blank line,
// and a rejected line as a rejection record
//   {"rejected":{"line":N,"reason":"...","prefix":"<its first 200 bytes>"}}
// — never the rejected line itself, so that the file (and the time a
// restart takes to read it) does not grow with rejected input. A record
// cannot be a pair (it has no "id"), so the file reads back unambiguously.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <caf/error.hpp>
#include <caf/expected.hpp>

#include "messages/answer_pair.hpp"
#include "messages/run_input.hpp"
#include "runio/id_set.hpp"

namespace ij {

class pair_intake {
public:
  enum class kind { blank, pair, rejected };

  /// Bytes of a rejected line kept in its record.
  static constexpr std::size_t prefix_bytes = 200;

  /// `lines_before`: the number of the line before the first one taken.
  explicit pair_intake(std::uint64_t lines_before = 0) : lines_(lines_before) {}

  /// Takes the next uploaded line (without its newline); numbers it. The
  /// pair, nullopt for a blank line, or the line's rejection (bad_input, its
  /// context the reason a record keeps).
  caf::expected<std::optional<answer_pair>> take(std::string_view line);
  /// Takes the next line when it was over the limit (only its length was
  /// looked at): always rejected, this is why.
  caf::error take_oversized();
  /// Takes the next line of a pairs file: a rejection record is rejected
  /// with its own line number and reason; any other line as take().
  kind take_stored(std::string_view line, answer_pair& pair,
                   rejected_line& rejected);

  /// The record that stands for a rejected line in the pairs file (no
  /// newline): its number, reason and first prefix_bytes bytes.
  static std::string rejection_record(std::uint64_t line,
                                      const std::string& reason,
                                      std::string_view text);

  /// Lines taken so far (blank ones included): the last line's number.
  std::uint64_t lines() const { return lines_; }

private:
  id_set ids_;
  std::uint64_t lines_ = 0;
};

} // namespace ij
