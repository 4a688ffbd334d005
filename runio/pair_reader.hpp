#pragma once
// Streams pairs from a JSON Lines file, one line at a time, in bounded
// memory: a line longer than max_line_bytes is skipped without being held.
// Each line becomes a pair or a rejection with its line number and reason.
//
// Memory note: duplicate ids are found with a set of every id seen, which
// grows with the input (runio/id_set.hpp: about 28 bytes per short id, ~28 MB
// for a million pairs). Everything else here is bounded.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <caf/error.hpp>
#include <caf/expected.hpp>

#include "messages/answer_pair.hpp"
#include "runio/id_set.hpp"

namespace ij {

/// One input line, read.
struct pair_line {
  enum class kind { pair, rejected };
  kind what = kind::pair;
  std::uint64_t line = 0; // 1-based
  answer_pair pair;       // when what == pair
  std::string reason;     // when what == rejected
};

/// Parses one line (without its newline) into a pair; bad_input with the
/// reason in plain words otherwise. Does not check for duplicates.
caf::expected<answer_pair> parse_pair_line(std::string_view text);

class pair_reader {
public:
  /// The longest line accepted, newline excluded (documented in README).
  static constexpr std::size_t max_line_bytes = 1u << 20;

  /// Reads from `in` (not owned); `name` is the file name shown in messages.
  pair_reader(std::FILE* in, std::string name);

  pair_reader(const pair_reader&) = delete;
  pair_reader& operator=(const pair_reader&) = delete;

  /// The next non-blank line; false at end of input. A read error is
  /// reported once, as a rejected line (the line that could not be read,
  /// "read error after line N: ...; the rest of the input was not read"),
  /// and reading stops there: a partial line before it is not parsed.
  bool next(pair_line& out);

  /// True when reading stopped on an I/O error rather than end of file.
  bool failed() const { return failed_; }

  /// That error (io_failed), its context the system's words (e.g.
  /// "Connection reset by peer").
  const caf::error& error() const { return error_; }

  const std::string& name() const { return name_; }

  /// Lines read so far (blank lines included).
  std::uint64_t lines() const { return line_; }

  /// Bytes consumed so far, for progress on large files.
  std::uint64_t bytes() const { return bytes_; }

private:
  /// Reads one line into `line_buf_`; sets `oversized` when it was cut.
  bool read_line(bool& oversized);
  bool fill();
  bool fill_buffered();

  std::FILE* in_;
  std::string name_;
  std::vector<char> buf_;
  std::size_t pos_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  /// A pipe, socket or terminal: read(2) what is there rather than wait for
  /// a full buffer.
  bool streaming_ = false;
  bool failed_ = false;
  bool failure_reported_ = false;
  caf::error error_;
  std::uint64_t line_ = 0;
  std::uint64_t bytes_ = 0;
  std::string line_buf_;
  id_set ids_;
};

} // namespace ij
