#pragma once
// A run's input window (SPEC §10): the pairs a session has taken in and not
// yet released to its client, bounded so that memory stays small whatever
// the input size. The session answers an input batch only while the window
// has room; a client sends its next batch after the answer. Pure counting:
// sequence numbers, the pairs still open (listed unfinished if the run is
// cancelled) and the position of each real pair in the input (where the
// canaries go).
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ij {

class input_window {
public:
  /// At most `size` pairs taken in and not released; 0: sized later from
  /// the judges' capacity (fit_to_capacity).
  explicit input_window(std::uint32_t size = 0) : size_(size) {}

  /// A window not given: enough pairs to keep every worker slot busy while
  /// records are written, few enough to keep memory small (4 per slot,
  /// between 256 and 8,192), and at least `at_least` (batched judges' calls
  /// at once: with fewer pairs open their batches never fill and each goes
  /// only at max_wait); at most 2^20, the largest --window.
  void fit_to_capacity(std::uint64_t capacity, std::uint64_t at_least = 0);

  std::uint32_t size() const { return size_; }

  /// The sequence number the next job gets; take_seq uses it up (a canary
  /// job takes one too, never a place in the window).
  std::uint64_t next_seq() const { return next_seq_; }
  std::uint64_t take_seq() { return next_seq_++; }

  /// The position of the next real pair in the input (pairs a resumed run's
  /// audit decided included), then moves past it.
  std::uint64_t take_position() { return position_++; }

  /// A pair taken in under `seq` (a place in the window until released).
  void admit(std::uint64_t seq, std::string id);

  /// Whether `seq` is a pair taken in and not decided yet.
  bool is_open(std::uint64_t seq) const { return open_.count(seq) != 0; }

  /// The pair's records are on their way to the audit: no longer open.
  void decide(std::uint64_t seq) { open_.erase(seq); }

  /// `n` verdicts went to the client: their places are free.
  void release(std::uint64_t n) { released_ += n; }

  bool has_room() const { return admitted_ - released_ < size_; }
  bool all_decided() const { return open_.empty(); }

  std::uint64_t admitted() const { return admitted_; }
  std::uint64_t released() const { return released_; }

  /// The ids of the pairs still open, sorted (the run-end record's list).
  std::vector<std::string> unfinished() const;

private:
  std::uint32_t size_;
  std::uint64_t next_seq_ = 1;
  std::uint64_t position_ = 0;
  std::uint64_t admitted_ = 0;
  std::uint64_t released_ = 0;
  std::unordered_map<std::uint64_t, std::string> open_;
};

} // namespace ij
