#pragma once
// A daemon run's upload side: its pairs file (DIR/runs/<id>/pairs.jsonl)
// and the reading of its lines (daemon/pair_intake: numbering, duplicate
// ids). Owned by the run's actor and lent to one upload at a time
// (daemon/input_lease): the upload reads its body on an HTTP thread,
// appends the lines (an accepted pair as it came, a rejected line as a
// bounded record), fsyncs the file and only then hands the parsed lines to
// the run actor (`append`, 1,024 pairs a message) and answers, so an
// acknowledged pair survives a crash. The file is open only while an
// upload holds it: a finished run keeps no descriptor.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <caf/error.hpp>

#include "daemon/pair_intake.hpp"
#include "messages/interfaces.hpp"

namespace ij {

struct run_input {
  std::string pairs_path;
  pair_intake intake;
  /// The pairs file's size: where the next line goes.
  std::uint64_t bytes = 0;
  /// POST close: the input is complete.
  bool closed = false;
};

/// One upload of JSON Lines into a run's input, piece by piece as a
/// streamed body arrives: memory holds the current line only (of a line
/// over the limit, its first bytes).
class run_upload {
public:
  /// Appends to `input`'s pairs file; the parsed lines go to `run`.
  run_upload(run_input& input, daemon_run_actor run);
  ~run_upload();
  run_upload(const run_upload&) = delete;
  run_upload& operator=(const run_upload&) = delete;

  void piece(std::string_view data);
  /// The body is complete (or, `complete` false, cut off: its complete
  /// lines stay, its partial line does not). io_failed when the pairs file
  /// could not be written.
  caf::error finish(bool complete);

  std::uint64_t accepted() const { return accepted_; }
  const std::vector<std::pair<std::uint64_t, std::string>>& rejected() const {
    return rejected_;
  }

private:
  /// Lines not yet handed to the run: bytes [from, to) of the pairs file,
  /// after line `line`.
  struct handoff {
    input_batch batch;
    std::uint64_t from = 0, to = 0, line = 0;
  };
  void take_line(std::string_view line, bool oversized, std::string& out);
  bool hand_over();

  run_input& input_;
  daemon_run_actor run_;
  int fd_ = -1;
  int open_errno_ = 0;
  std::string tail_;       // the current line, not yet written
  bool oversized_ = false; // the current line is over the limit
  std::string prefix_;     // its first bytes (for its record)
  std::uint64_t accepted_ = 0;
  std::vector<std::pair<std::uint64_t, std::string>> rejected_;
  bool failed_ = false;
  std::vector<handoff> pending_;
  std::uint64_t unsynced_ = 0; // bytes written since the last fsync
  std::uint64_t sync_at_ = 0;  // the next handoff's size (0: the first's)
};

} // namespace ij
