#pragma once
// The driver's side of batched judges (issue 17): the journal the run's
// audit keeps their batches in, adopting a resumed run's open batches
// before its session starts, the progress line's batch counts, and
// cancelling the run's batches at the provider on Ctrl-C.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "actors/batch_audit_journal.hpp"
#include "adapters/adapter_factory.hpp"
#include "adapters/batch_judge.hpp"
#include "core/audit/audit_resume.hpp"

namespace ij {

struct run_batches {
  std::shared_ptr<batch_audit_journal> journal =
    std::make_shared<batch_audit_journal>();
  std::vector<std::shared_ptr<batch_judge>> judges;

  /// The batched judges among `bound`.
  void take(const std::vector<judge_binding>& bound);

  bool any() const { return !judges.empty(); }

  /// Hands each batched judge the resumed audit's open batches (submitted,
  /// not ended; pending, never submitted): polled, never submitted again.
  /// Returns how many were handed.
  std::size_t adopt(const resume_point& resume);

  /// "batches 1 submitted, 2 in progress, 3 ended, oldest 12s"; empty
  /// without a batched judge.
  std::string progress() const;

  /// Cancels the run's batches at the provider and waits, at most `bound`,
  /// until none of them is open (their ends recorded in the audit).
  void cancel(const std::string& run_tag, std::chrono::milliseconds bound);
};

/// The progress line's words for the batches: "batches 1 submitted,
/// 2 in progress, 3 ended, oldest 12s" (the age only while one is open).
std::string batch_progress_text(const batch_stats& s);

} // namespace ij
