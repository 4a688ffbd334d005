#pragma once
// The calls of a cancelled run that no judge_call record will show (issue
// 26): replies that came back for pairs the cancel left unfinished (their
// records are dropped with the pair), and calls the cancel aborted, at a
// worker's queue or in flight. A vote coordinator (or a panel's router)
// answers a cancel with these, per judge; the session adds them to the
// run's counts (core/session/run_tally), so that the run-end record says how
// many calls were sent, answered and aborted, and the spend counts every reply
// received.
#include <cstdint>
#include <string>

#include <caf/meta/type_name.hpp>

namespace ij {

struct unrecorded_calls {
  std::string judge_id;
  /// Calls sent whose reply (or fault) came back, their records dropped
  /// with their unfinished pairs.
  std::uint64_t answered = 0;
  /// Calls aborted after their request had reached the backend (or when
  /// nobody could say: a worker that did not answer the cancel in time).
  std::uint64_t aborted_sent = 0;
  /// Calls aborted before any request was sent (queued at the worker, at
  /// the HTTP client's cap, in a batch not yet submitted).
  std::uint64_t aborted_unsent = 0;
  /// Tokens of the `answered` replies (a call aborted has none).
  std::uint64_t input_tokens = 0;
  std::uint64_t output_tokens = 0;
  std::uint64_t batched_input_tokens = 0;
  std::uint64_t batched_output_tokens = 0;

  /// Adds another account of the same judge.
  unrecorded_calls& operator+=(const unrecorded_calls& o) {
    answered += o.answered;
    aborted_sent += o.aborted_sent;
    aborted_unsent += o.aborted_unsent;
    input_tokens += o.input_tokens;
    output_tokens += o.output_tokens;
    batched_input_tokens += o.batched_input_tokens;
    batched_output_tokens += o.batched_output_tokens;
    return *this;
  }
};

inline bool operator==(const unrecorded_calls& x, const unrecorded_calls& y) {
  return x.judge_id == y.judge_id && x.answered == y.answered
         && x.aborted_sent == y.aborted_sent
         && x.aborted_unsent == y.aborted_unsent
         && x.input_tokens == y.input_tokens
         && x.output_tokens == y.output_tokens
         && x.batched_input_tokens == y.batched_input_tokens
         && x.batched_output_tokens == y.batched_output_tokens;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, unrecorded_calls& x) {
  return f(caf::meta::type_name("ij.unrecorded_calls"), x.judge_id, x.answered,
           x.aborted_sent, x.aborted_unsent, x.input_tokens, x.output_tokens,
           x.batched_input_tokens, x.batched_output_tokens);
}

} // namespace ij
