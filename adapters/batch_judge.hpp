#pragma once
// A judge adapter that answers calls through a provider's batch API
// (adapters/batch_client) at the batch price, crash-safe through a journal
// (adapters/batch_journal).
//
// Calls wait in a queue; a batch goes when max_requests wait or the oldest
// has waited max_wait_ms. Each request's custom_id is
// "<run_tag>-p<pair_seq>-v<vote_index>"; a second call with an id already in
// flight gets the first one's reply. Per batch: journal `pending` -> submit
// -> journal `submitted` -> poll every poll_ms -> results matched by
// custom_id -> calls answered -> journal `ended`. A journal error stops the
// batch (its votes are faults, it is never submitted unrecorded). Results
// that are not successes go per on_failure: again through the synchronous
// fallback adapter, or a fault of their kind. Every call is answered exactly
// once.
//
// After a crash, adopt() takes the journal's marks: submitted batches are
// polled and their results kept until the calls are re-issued (never sent
// again); a batch only `pending` is looked for at the provider (list) before
// its calls may go again.
//
// All state lives on the adapter's own Asio thread: call() posts to it, the
// client's answers are posted back to it. The destructor answers what waits
// ("shutting down") and cancels nothing at the provider; it joins that
// thread, so it must not run inside a reply handler (replies of batched
// calls are delivered on it).
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <caf/expected.hpp>

#include "adapters/batch_client.hpp"
#include "adapters/batch_journal.hpp"
#include "adapters/batch_protocol.hpp"
#include "adapters/judge_adapter.hpp"

namespace ij {

enum class batch_failure_policy : std::uint8_t {
  /// A vote the batch did not answer goes again through the sync fallback.
  sync,
  /// It becomes a failed reply of its kind.
  fault,
};

struct batch_judge_config {
  batch_api api = batch_api::anthropic;
  /// At most the API's limit (limits_of(api).max_requests).
  std::size_t max_requests = 1000;
  std::chrono::milliseconds max_wait{60000};
  std::chrono::milliseconds poll{30000};
  batch_failure_policy on_failure = batch_failure_policy::sync;
};

struct batch_stats {
  /// Accepted by the provider, not started (validating) or not yet accepted.
  std::size_t submitted = 0;
  /// In progress, finalizing or cancelling.
  std::size_t in_progress = 0;
  /// Ended since the adapter started.
  std::size_t ended = 0;
  /// Calls queued for the next batch.
  std::size_t calls_waiting = 0;
  /// Age of the oldest open batch; 0 when none is open.
  std::int64_t oldest_age_ms = 0;

  /// Adds another judge's counts (the oldest age is the older one).
  batch_stats& operator+=(const batch_stats& o) {
    submitted += o.submitted;
    in_progress += o.in_progress;
    ended += o.ended;
    calls_waiting += o.calls_waiting;
    oldest_age_ms = std::max(oldest_age_ms, o.oldest_age_ms);
    return *this;
  }
};

class batch_judge : public judge_adapter {
public:
  ~batch_judge() override;

  /// The fallback's id: a batched vote asks exactly what a synchronous one
  /// asks.
  std::string id() const override;
  void call(const std::string& prompt, const call_options& opts,
            reply_handler done) override;
  /// One caller's call ends now, answered `aborted` (sent once its batch
  /// was submitted); a batch already made keeps the request, whose result
  /// is dropped. A call gone to the sync fallback is aborted there.
  void abort(std::uint64_t call_id) override;
  bool supports_seed() const override;
  bool answers_inline() const override { return false; }

  /// The journal's marks read back after a restart (any order, any judge's:
  /// marks of other judges are ignored).
  void adopt(std::vector<batch_mark> marks);

  /// Cancels the run's calls: its waiting calls are answered as aborted
  /// (sent when their batch had been submitted), its batches cancelled at the
  /// provider when they hold only its calls (else they finish for the other
  /// runs).
  void cancel_run(const std::string& run_tag);

  /// The same; `acknowledged` runs (on the adapter's thread) once the
  /// provider answered every cancel it sent, so that a driver ending the
  /// process knows the cancels left it.
  void cancel_run(const std::string& run_tag,
                  std::function<void()> acknowledged);

  batch_stats stats() const;

  struct state;

  explicit batch_judge(std::shared_ptr<state> st);

private:
  std::shared_ptr<state> st_;
};

/// bad_config for max_requests of 0 or over the API's limit, a client of
/// another API, a missing fallback or journal.
caf::expected<std::shared_ptr<batch_judge>> make_batch_judge(
  batch_judge_config config, std::unique_ptr<batch_client> client,
  judge_adapter_ptr sync_fallback, std::shared_ptr<batch_journal> journal);

} // namespace ij
