#pragma once
// The one judge adapter interface (SPEC §6): given the prompt and the call
// options, deliver asynchronously either the raw text or a transport error.
//
// `call` must return quickly: an adapter that does I/O runs it on its own
// threads and invokes `done` from there. Stubs may invoke `done` before `call`
// returns. `done` is invoked exactly once per call. Callers (the judge actor)
// hand the reply back to their own thread as a message; an adapter never
// blocks a CAF scheduler thread.
//
// `abort(call_id)` ends a call started with that `call_options::call_id`
// (issue 26: a cancelled run's calls stop): a request on the wire has its
// connection closed, a waiting one is dropped, and `done` answers at once
// with fault `aborted` — not a fault of the backend — and `attempts` the
// requests that had reached it (0: the backend never saw the call). A call
// that already answered, or an adapter with nothing to abort (one that
// answers inline), ignores it. Thread-safe, returns at once.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/prompts/reply_constraint.hpp"
#include "messages/fault_kind.hpp"

namespace ij {

struct call_options {
  std::string model;
  double temperature = 0.0;
  std::optional<std::int64_t> seed;
  std::uint32_t max_tokens = 256;
  /// Whole-call deadline, retries included.
  std::chrono::milliseconds timeout{60000};
  /// The vote this call is for (part of the response cache's key: N votes
  /// are never one answer N times).
  std::uint32_t vote_index = 0;
  /// Ask for the reply tokens' log-probabilities (HTTP judges that have
  /// them); the reply then carries decision_probs when the backend sent any.
  bool logprobs = false;
  /// Hold the reply to the format (core/prompts/reply_constraint.hpp).
  reply_constraint constrain = reply_constraint::none;
  /// Batched judges (adapters/batch_judge): the run's tag ([a-z0-9]{1,16}),
  /// the pair's sequence number in its run (together with vote_index, the
  /// request's custom_id) and the pair's id (for the batch journal only).
  std::string run_tag;
  std::uint64_t pair_seq = 0;
  std::string pair_id;
  /// The prompt the call sends (issue 29): its id and SHA-256 are part of
  /// the response cache's key and the call's record. Empty: the canonical.
  std::string prompt_id;
  std::string prompt_sha256;
  /// The caller's name for this call, for abort(); 0: none (not abortable).
  std::uint64_t call_id = 0;
};

struct adapter_reply {
  /// False on transport failure: then `error` says what failed and `text` is
  /// whatever partial text there was (usually empty). Never holds a secret.
  bool ok = false;
  std::string text;
  std::string error;
  /// When !ok: what kind of failure `error` describes. An adapter that
  /// cannot tell leaves it none, which records read as a connection fault.
  fault_kind fault = fault_kind::none;
  /// Requests made. For an aborted call (fault `aborted`): the requests
  /// that had reached the backend, so 0 means it never saw the call.
  std::uint32_t attempts = 1;
  std::uint64_t input_tokens = 0;
  std::uint64_t output_tokens = 0;
  /// Reused from the response cache: no call was made.
  bool cached = false;
  /// Not sent: the judge's circuit breaker was open (a refusal, not a
  /// reply of the backend; counted apart from the calls sent).
  bool refused_by_breaker = false;
  /// P(EQUIVALENT), P(DIFFERENT), P(ABSTAIN): from the reply's
  /// log-probabilities (core/calibration/decision_probs.hpp), or a stub's own
  /// (stub:noisy); empty when none.
  std::vector<double> decision_probs;
  /// Answered through a provider's batch API: spend prices it at the
  /// judge's batch discount.
  bool batched = false;
};

using reply_handler = std::function<void(adapter_reply)>;

class judge_adapter {
public:
  virtual ~judge_adapter() = default;

  /// Identifies the backend in records, e.g. "stub:numeric" or
  /// "ollama@http://127.0.0.1:11434". Never holds a secret.
  virtual std::string id() const = 0;

  /// Starts one call; see the contract above.
  virtual void call(const std::string& prompt, const call_options& opts,
                    reply_handler done) = 0;

  /// Whether the backend honours a seed; votes > 1 at temperature 0 without
  /// seed support draw a warning (SPEC §7).
  virtual bool supports_seed() const { return true; }

  /// True when `done` always runs before `call` returns (the stubs): such an
  /// adapter never has a call in flight, so a worker may take calls for it
  /// in large batches without exceeding any in-flight cap.
  virtual bool answers_inline() const { return false; }

  /// The in-flight cap the adapter currently allows (adaptive backends lower
  /// it under 429/529); 0 means "no opinion, use the configured cap".
  virtual std::uint32_t current_concurrency() const { return 0; }

  /// Calls the adapter takes beyond current_concurrency() to cover a far
  /// endpoint's round trip (issue 31: sent ahead, the server queues them);
  /// its worker grants that many more. 0: none.
  virtual std::uint32_t calls_ahead() const { return 0; }

  /// Ends call `call_id` now; see the contract above.
  virtual void abort(std::uint64_t call_id) { (void)call_id; }
};

using judge_adapter_ptr = std::shared_ptr<judge_adapter>;

} // namespace ij
