#pragma once
// Self-consistency voting (SPEC §7).
#include <cstdint>
#include <optional>
#include <string>

#include <caf/error.hpp>

#include "messages/equivalence_outcome.hpp"
#include "messages/error.hpp"
#include "messages/judge_decision.hpp"
#include "messages/vote_result.hpp"

namespace ij {

struct vote_config {
  std::uint32_t votes = 1;         // N >= 1
  std::uint32_t min_agreement = 1; // N/2 < k <= N
};

/// errc::bad_config with a clear message for N < 1, k <= N/2 or k > N.
caf::error validate(const vote_config& cfg);

/// Counts votes as they arrive. ABSTAIN, PARSE_ERROR and faults never count
/// toward either side.
class vote_tally {
public:
  /// Precondition: validate(cfg) holds.
  explicit vote_tally(vote_config cfg);

  void add(judge_decision d);
  void add_fault();

  std::uint32_t cast() const; // votes received so far, faults included
  std::uint32_t outstanding() const;

  /// True once one side reached k, or neither can any more: the votes still
  /// outstanding cannot change the outcome.
  bool fixed() const;

  /// {true, eq/N} when eq >= k; {false, diff/N} when diff >= k; else null
  /// with confidence 0. The null outcome is a fault (I2) when faults could
  /// have changed it (eq + faults >= k or diff + faults >= k), else
  /// undecided ("no agreement"). Meaningful once fixed() or all are cast.
  equivalence_outcome outcome() const;

  /// The counts, with not_cast = outstanding votes when called.
  vote_counts counts() const;

private:
  vote_config cfg_;
  vote_counts counts_;
};

} // namespace ij
