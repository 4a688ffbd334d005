#pragma once
// The pipeline actor (SPEC §10): ties the coordinator, the verdict actor and
// the audit logger together so that nothing reaches the caller before the
// records it rests on are written.
//
//   start          -> manifest written (durable) -> reply seq
//   answer_pair    -> coordinator -> verdict actor -> logger writes the
//                     judge_call records, the vote record and the verdict
//                     record in one batch (durable per flush policy)
//                  -> reply single_verdict
//   item verdict   -> logger writes item_verdict -> settings.listener
//   rejected       -> logger writes rejected -> reply seq
//   finish(intr.)  -> see pipeline_settings.hpp -> run_end -> reply summary
//
// Every judge call, vote and verdict of one pair go to the logger in one
// batch, after the verdict actor answered; the verdict actor sends an item's
// statistical verdict after that answer, so an item_verdict record always
// follows the verdict records it counts.
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include <caf/typed_response_promise.hpp>

#include "actors/pipeline_settings.hpp"
#include "actors/vote_coordinator.hpp"
#include "messages/interfaces.hpp"

namespace ij {

/// The pipeline interface plus the statistical verdicts its verdict actor
/// sends it (local only).
using pipeline_impl_actor =
  pipeline_actor::extend<caf::reacts_to<statistical_verdict>>;

struct pipeline_state {
  static inline const char* name = "pipeline";

  enum class phase {
    idle,      // spawned, manifest not asked for
    starting,  // manifest sent to the logger
    running,   // manifest written: pairs are judged
    finished,  // run_end sent: nothing more is written
  };

  struct waiting_pair {
    answer_pair pair;
    caf::typed_response_promise<single_verdict> promise;
  };

  pipeline_settings settings;
  std::vector<std::string> warnings;
  logger_actor logger;
  vote_coordinator_actor coordinator;
  verdict_actor verdicts;

  phase state = phase::idle;
  /// Pairs that arrived while the manifest was being written.
  std::deque<waiting_pair> waiting;
  struct judged_pair {
    std::string pair_id;
    caf::typed_response_promise<single_verdict> promise;
  };

  /// Pairs being judged, by internal id. The promise lives only here: CAF
  /// 0.17 does not answer a dropped promise, so run_end answers every pair
  /// still here with an error before the pipeline exits.
  std::unordered_map<std::uint64_t, judged_pair> in_flight;
  std::uint64_t next_pair = 1;
  /// Pair batches, item verdicts and rejected lines sent to the logger, not
  /// yet answered: run_end waits for them, so that it counts them.
  std::uint64_t pending_writes = 0;

  run_summary summary;
  /// adapter id -> index in summary.usage.
  std::unordered_map<std::string, std::size_t> usage_index;

  bool finish_requested = false;
  bool verdicts_synced = false;
  bool sync_requested = false;
  std::uint32_t open_items = 0;
  caf::typed_response_promise<run_summary> finish_promise;
};

/// `fd` is the open, empty audit file; the pipeline spawns the logger (owning
/// fd), the judges, the coordinator and the verdict actor, and takes them all
/// down when it exits.
pipeline_impl_actor::behavior_type
pipeline(pipeline_impl_actor::stateful_pointer<pipeline_state> self,
         pipeline_settings settings, std::vector<std::string> warnings,
         int fd);

} // namespace ij
