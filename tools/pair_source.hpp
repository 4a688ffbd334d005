#pragma once
// The pairs input as a run's batch source: lines read by the pair reader
// from an opened input (tools/input_source.hpp), turned into batches for the
// run session, with each rejected line echoed on stderr (the first 100) and
// sent on to be audited. A read error is itself a rejected line; reading
// stops there and the input counts as ended, so the pairs before it are
// judged and their items closed (the run then exits 2).
#include <cstdint>
#include <functional>
#include <string>

#include "actors/run_client.hpp"
#include "runio/pair_reader.hpp"

namespace ij {

class pair_source {
public:
  /// Pairs per batch sent to the session, by default.
  static constexpr std::size_t batch_pairs = 128;
  /// Rejections echoed on stderr; beyond this they are only in the audit.
  static constexpr std::uint64_t max_rejections_shown = 100;

  /// Reads `in` (not owned), named `name` in messages and records, `batch`
  /// pairs at a time.
  pair_source(std::FILE* in, std::string name, std::size_t batch = batch_pairs);

  /// The next batch (batch_source's contract). Never fails: a read error
  /// is a rejected line and the end of the input (above).
  caf::expected<input_state> next(input_batch& batch);

  /// True once the input is read to its end (or to a read error).
  bool ended() const { return ended_; }

  /// True when reading stopped on a read error; `read_error()` says which
  /// (io_failed: where, why, and that the pairs before it were judged).
  bool read_failed() const { return reader_.failed(); }
  caf::error read_error() const;

  /// Called before a rejection is echoed (to clear a progress line).
  void on_echo(std::function<void()> f) { before_echo_ = std::move(f); }

private:
  void echo(const pair_line& line);

  std::string name_;
  std::size_t batch_;
  pair_reader reader_;
  std::uint64_t rejected_ = 0;
  bool ended_ = false;
  std::function<void()> before_echo_;
};

} // namespace ij
