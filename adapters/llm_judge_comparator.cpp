#include "adapters/llm_judge_comparator.hpp"

#include <atomic>
#include <exception>
#include <memory>
#include <utility>

#include "adapters/adapter_factory.hpp"
#include "core/numbers/answer.hpp"
#include "core/prompts/prompt.hpp"
#include "core/verdicts/judge_response.hpp"
#include "core/verdicts/outcome_mapping.hpp"
#include "core/wall_clock.hpp"

namespace ij {

judge_prompts default_judge_prompts() {
  return {canonical_prompt(), non_numeric_prompt()};
}

judge_options judge_options_for(const judge_spec& spec,
                                std::uint32_t vote_index) {
  judge_options opts;
  opts.call = call_options_for(spec, vote_index);
  opts.prompts = prompts_of(spec);
  return opts;
}

judge_record make_judge_record(const judge_request& request,
                               const call_options& opts,
                               const std::string& adapter_id,
                               const adapter_reply& reply,
                               const call_timing& timing) {
  judge_record rec;
  rec.pair_id = request.pair_id;
  rec.prompt_id =
    opts.prompt_id.empty() ? std::string{judge_prompt_id} : opts.prompt_id;
  rec.adapter_id = adapter_id;
  rec.model = opts.model;
  rec.temperature = opts.temperature;
  rec.has_seed = opts.seed.has_value();
  rec.seed = opts.seed.value_or(0);
  rec.vote_index = request.vote_index;
  rec.swapped = request.swapped;
  rec.raw_text = reply.text;
  rec.cached = reply.cached;
  rec.refused_by_breaker = reply.refused_by_breaker;
  rec.batched = reply.batched;
  rec.attempts = reply.attempts;
  rec.input_tokens = reply.input_tokens;
  rec.output_tokens = reply.output_tokens;
  rec.latency_ms = timing.latency_ms;
  rec.started_at_ms = timing.started_at_ms;
  rec.finished_at_ms = timing.finished_at_ms;
  rec.logprobs_asked = opts.logprobs;
  if (!reply.ok) {
    // Nothing to parse: partial text, if any, stays in raw_text only.
    rec.transport_failed = true;
    rec.transport_error =
      reply.error.empty() ? std::string{"transport error"} : reply.error;
    rec.fault =
      reply.fault == fault_kind::none ? fault_kind::connection : reply.fault;
    rec.decision = judge_decision::parse_error;
    return rec;
  }
  auto parsed = parse_judge_response(reply.text);
  rec.decision = parsed.decision;
  rec.reason = parsed.reason;
  auto first = parsed.numeric_a.text.value_or(std::string{});
  auto second = parsed.numeric_b.text.value_or(std::string{});
  // The judge saw B as "A" when swapped: give each number back to its answer.
  if (request.swapped)
    std::swap(first, second);
  rec.numeric_a = std::move(first);
  rec.numeric_b = std::move(second);
  rec.extra_text = parsed.extra_text;
  rec.inconsistent = parsed.inconsistent;
  // Probabilities of a decision that was read (an HTTP judge's when it asked
  // for them, a noisy stub's always); a PARSE_ERROR has none.
  if (rec.decision != judge_decision::parse_error)
    rec.decision_probs = reply.decision_probs;
  return rec;
}

namespace {

// Shared by the adapter's callback and the caller's frame: the reply may
// arrive on another thread, after judge_once returned, or (with a broken
// adapter) twice or together with an exception.
struct call_state {
  judge_request request;
  call_options opts;
  std::string adapter_id;
  bool abstain_as_neither = true;
  record_handler done;
  std::int64_t started_at_ms = 0;
  std::chrono::steady_clock::time_point started;
  std::atomic<bool> delivered{false};
  // Set when the caller's own handler threw: that exception is the
  // caller's, not a judge failure, so it propagates.
  std::atomic<bool> handler_threw{false};

  void deliver(const adapter_reply& reply) {
    if (delivered.exchange(true))
      return; // exactly once, whatever the adapter does
    call_timing timing;
    timing.started_at_ms = started_at_ms;
    timing.finished_at_ms = wall_clock_ms();
    timing.latency_ms = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - started)
                          .count();
    auto rec = make_judge_record(request, opts, adapter_id, reply, timing);
    auto outcome = outcome_of_record(rec, abstain_as_neither);
    try {
      done(std::move(rec), std::move(outcome));
    } catch (...) {
      handler_threw = true;
      throw;
    }
  }
};

adapter_reply error_reply_for(std::exception_ptr ep) {
  adapter_reply reply;
  reply.ok = false;
  try {
    std::rethrow_exception(ep);
  } catch (const std::exception& e) {
    reply.error = std::string{"judge adapter threw: "} + e.what();
  } catch (...) {
    reply.error = "judge adapter threw an unknown exception";
  }
  return reply;
}

} // namespace

void judge_once(judge_adapter& adapter, const judge_options& opts,
                const judge_request& request, record_handler done) {
  auto st = std::make_shared<call_state>();
  st->request = request;
  st->request.a.clear(); // records never hold the answers; keep state small
  st->request.b.clear();
  st->opts = opts.call;
  if (request.has_seed)
    st->opts.seed = request.seed;
  // A batched judge names its requests by them (adapters/batch_judge).
  st->opts.run_tag = request.run_tag;
  st->opts.pair_seq = request.pair_seq;
  st->opts.pair_id = request.pair_id;
  st->abstain_as_neither = opts.abstain_as_neither;
  st->done = std::move(done);
  const auto& chosen =
    request.non_numeric ? opts.prompts.non_numeric : opts.prompts.numeric;
  if (chosen) {
    st->opts.prompt_id = chosen->id();
    st->opts.prompt_sha256 = chosen->sha256();
  }
  try {
    st->adapter_id = adapter.id();
    if (!chosen) {
      st->started_at_ms = wall_clock_ms();
      st->started = std::chrono::steady_clock::now();
      adapter_reply none;
      none.error =
        "the judge's declared prompt was not read (no template to send)";
      none.fault = fault_kind::unavailable;
      none.attempts = 0;
      st->deliver(none);
      return;
    }
    auto prompt = chosen->render(request.a, request.b, request.problem);
    st->started_at_ms = wall_clock_ms();
    st->started = std::chrono::steady_clock::now();
    adapter.call(prompt, st->opts,
                 [st](adapter_reply reply) { st->deliver(reply); });
  } catch (...) {
    if (st->handler_threw)
      throw;
    if (st->started_at_ms == 0) {
      st->started_at_ms = wall_clock_ms();
      st->started = std::chrono::steady_clock::now();
    }
    // No-op when the adapter replied before throwing.
    st->deliver(error_reply_for(std::current_exception()));
  }
}

void judge_once(judge_adapter_ptr adapter, const judge_options& opts,
                const judge_request& request, record_handler done) {
  if (!adapter) {
    call_timing timing;
    timing.started_at_ms = timing.finished_at_ms = wall_clock_ms();
    auto call = opts.call;
    if (request.has_seed)
      call.seed = request.seed;
    adapter_reply reply;
    reply.ok = false;
    reply.error = "no judge adapter";
    reply.attempts = 0;
    auto rec = make_judge_record(request, call, "", reply, timing);
    auto outcome = outcome_of_record(rec, opts.abstain_as_neither);
    done(std::move(rec), std::move(outcome));
    return;
  }
  auto& ref = *adapter;
  // The handler holds the adapter until the reply, however late it comes.
  judge_once(ref, opts, request,
             [keep = std::move(adapter), done = std::move(done)](
               judge_record rec, equivalence_outcome outcome) {
               done(std::move(rec), std::move(outcome));
             });
}

async_comparator llm_judge_comparator(judge_adapter_ptr adapter,
                                      judge_options opts) {
  return [adapter = std::move(adapter), opts = std::move(opts)](
           std::string_view a, std::string_view b, outcome_handler done) {
    if (is_absent(a) || is_absent(b)) {
      done(absent_outcome());
      return;
    }
    judge_request request;
    request.a = std::string{a};
    request.b = std::string{b};
    judge_once(
      adapter, opts, request,
      [done = std::move(done)](judge_record, equivalence_outcome outcome) {
        done(std::move(outcome));
      });
  };
}

} // namespace ij
