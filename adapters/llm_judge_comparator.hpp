#pragma once
// llmJudgeComparator (SPEC §3 "Async") and the one place where an adapter's
// reply becomes a judge_record and an outcome.
//
// Flow of one judge call (judge_once):
//   the judge's prompt (the request says which of its two) rendered with
//   A, B and the problem -> adapter.call -> make_judge_record (parses the
//   text, swaps NUMERIC_A/B back, fills timing and usage) -> outcome_of_record
//   (transport failure -> fault; else outcome_of(decision)).
// The judge actor builds its records with judge_once / make_judge_record too,
// so records and outcomes mean the same on every path.
//
// Nothing here throws or turns a failure into true or false: an exception
// from an adapter becomes a fault, exactly like a transport error.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "adapters/judge_adapter.hpp"
#include "core/config/judge_spec.hpp"
#include "core/numbers/comparators.hpp"
#include "messages/equivalence_outcome.hpp"
#include "messages/judge_record.hpp"
#include "messages/judge_request.hpp"

namespace ij {

/// The canonical prompt and the built-in non-numeric one.
judge_prompts default_judge_prompts();

struct judge_options {
  call_options call;
  /// ABSTAIN maps to null (true) or to false, the safer side (SPEC §3).
  bool abstain_as_neither = true;
  /// The judge's prompts (judge_spec's prompts_of): a request marked
  /// non_numeric is rendered with the second. By default the canonical
  /// prompt and the built-in non-numeric one; a null prompt (a declared
  /// template never read) makes every call a fault.
  judge_prompts prompts = default_judge_prompts();
};

/// The options a judge spec implies for vote `vote_index`: its call options
/// and its prompts.
judge_options judge_options_for(const judge_spec& spec,
                                std::uint32_t vote_index);

/// When a call ran: wall-clock bounds (ms since the Unix epoch) and the
/// latency measured on a monotonic clock.
struct call_timing {
  std::int64_t started_at_ms = 0;
  std::int64_t finished_at_ms = 0;
  double latency_ms = 0.0;
};

/// The record of one call. `request` gives pair id, vote index and swapped
/// (its a/b are not copied: records hold the judge's words, not the pair's);
/// `opts` gives model, temperature and seed as actually sent; the reply's
/// text is parsed here (a transport failure is recorded with decision
/// PARSE_ERROR, transport_failed set and its error). When `request.swapped`,
/// NUMERIC_A/B are swapped back into the pair's own order.
judge_record make_judge_record(const judge_request& request,
                               const call_options& opts,
                               const std::string& adapter_id,
                               const adapter_reply& reply,
                               const call_timing& timing);

using record_handler = std::function<void(judge_record, equivalence_outcome)>;

/// One judge call on request.a / request.b exactly as given (no absence
/// shortcut: callers that want one check is_absent first; the self-test
/// deliberately sends absent answers). The call options are `opts.call`,
/// except that the request's seed, when it has one, replaces theirs.
/// `done` runs exactly once, on whatever thread the adapter replies on,
/// possibly before judge_once returns. `adapter` must outlive the call.
void judge_once(judge_adapter& adapter, const judge_options& opts,
                const judge_request& request, record_handler done);

/// The same, keeping `adapter` alive until the reply; a null adapter is a
/// fault ("no judge adapter").
void judge_once(judge_adapter_ptr adapter, const judge_options& opts,
                const judge_request& request, record_handler done);

/// llmJudgeComparator: absent A or B -> absent_outcome() without calling the
/// adapter; otherwise judge_once and deliver its outcome.
async_comparator llm_judge_comparator(judge_adapter_ptr adapter,
                                      judge_options opts = {});

} // namespace ij
