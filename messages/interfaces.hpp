#pragma once
// Every typed actor interface of invariance-judge, in one place, so that the
// whole protocol reads on one page (SPEC §10).
#include <cstdint>
#include <string>

#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "messages/answer_pair.hpp"
#include "messages/audit_entry.hpp"
#include "messages/atoms.hpp"
#include "messages/judge_record.hpp"
#include "messages/judge_request.hpp"
#include "messages/run_summary.hpp"
#include "messages/verdict.hpp"
#include "messages/vote_result.hpp"

namespace ij {

/// One per adapter instance; may live on another host.
using judge_actor = caf::typed_actor<
  // Makes one judge call (queued under the in-flight cap) and replies with
  // its record; a transport failure is a record with transport_failed set,
  // never an error reply.
  caf::replies_to<judge_request>::with<judge_record>>;

/// multiVoteJudge over one or more judge actors.
using vote_coordinator_actor = caf::typed_actor<
  // Fans out the votes of one pair, stops once the outcome is fixed, and
  // replies with the aggregate. Absent answers reply at once (absent = true).
  caf::replies_to<answer_pair>::with<vote_result>,
  // Internal: the coordinator's single deadline timer (one pending timer per
  // coordinator, not one per request: CAF 0.17 keeps a request timeout's
  // clock entry until it fires, even after the reply came).
  caf::reacts_to<deadline_atom>>;

/// Turns outcomes into verdicts.
using verdict_actor = caf::typed_actor<
  // The single verdict of one pair (the pair names its item).
  caf::replies_to<answer_pair, vote_result>::with<single_verdict>,
  // Input is over for this item: it has `count` pairs in all. Its
  // statistical verdict goes to the listener once all are done.
  caf::reacts_to<item_total_atom, std::string, std::uint32_t>,
  // The run ends: replies with the number of items whose statistical verdict
  // is still open (total unknown or pairs missing). Every statistical verdict
  // the actor sent before is ahead of this reply in the asker's mailbox.
  caf::replies_to<finish_atom>::with<std::uint32_t>>;

/// The only writer of the audit trail (SPEC §11).
using logger_actor = caf::typed_actor<
  // Appends the records in order (seq, type, ts, prev added here) and
  // replies with the seq of the last one once it is as durable as the flush
  // policy requires; an error when the file cannot be written or is closed.
  caf::replies_to<audit_batch>::with<std::uint64_t>,
  // Group commit: one fsync for every durable batch written so far.
  caf::reacts_to<flush_atom>,
  // The chain's final hash: the SHA-256 (hex) of the last line written (64
  // zeros before the first). After run_end, the hash a user keeps to check
  // later that the file still ends there (audit verify --expect-hash).
  caf::replies_to<final_hash_atom>::with<std::string>>;

/// The whole run: coordinator, verdicts and audit, in order.
using pipeline_actor = caf::typed_actor<
  // Writes the run manifest; replies once it is on disk. No pair is judged
  // before.
  caf::replies_to<start_atom>::with<std::uint64_t>,
  // Judges one pair; replies once the verdict and every record it rests on
  // are written to the audit.
  caf::replies_to<answer_pair>::with<single_verdict>,
  // An input line was rejected (file, line number, reason); recorded.
  caf::replies_to<rejected_atom, std::string, std::uint64_t,
                  std::string>::with<std::uint64_t>,
  // See verdict_actor.
  caf::reacts_to<item_total_atom, std::string, std::uint32_t>,
  // Ends the run: writes the run-end record (interrupted or not), flushes,
  // and replies with the totals.
  caf::replies_to<finish_atom, bool>::with<run_summary>>;

} // namespace ij
