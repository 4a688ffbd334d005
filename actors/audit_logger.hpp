#pragma once
// The audit logger (SPEC §11): the only writer of the audit file. Spawned
// detached in production (its own thread: write and fsync never block a
// scheduler thread).
//
// Each record becomes one line: seq (1 for the manifest), type, ts, prev =
// SHA-256 hex of the previous line's bytes (64 zeros first), then the body's
// fields. A batch is written with one write(2).
//
// Flush policy (run_config::flush):
//  - fsync_verdicts (default): every batch reaches the kernel at once; a
//    durable batch (one that releases a verdict) is answered only after an
//    fsync. The fsync is a group commit: the logger sends itself flush_atom,
//    so every batch already queued behind is written first and shares it.
//  - fsync_each: fsync after every record, then answer.
//  - flush_each: answer once written; fsync only at run end.
// The last batch (run_end) is always fsynced, then the file is closed and
// further batches are refused with an error.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <caf/typed_event_based_actor.hpp>
#include <caf/typed_response_promise.hpp>
#include <rapidjson/stringbuffer.h>

#include "core/config/run_config.hpp"
#include "messages/interfaces.hpp"

namespace ij {

struct audit_logger_state {
  static inline const char* name = "audit-logger";

  int fd = -1;
  std::string path;
  flush_policy policy = flush_policy::fsync_verdicts;
  std::uint64_t seq = 0;
  std::string prev_hash;
  /// Durable batches written but not fsynced yet, with their last seq.
  struct awaiting {
    caf::typed_response_promise<std::uint64_t, std::string> promise;
    std::uint64_t seq;
    std::string hash;
  };
  std::vector<awaiting> awaiting_sync;
  bool sync_scheduled = false;
  /// The file failed or was closed: every later batch is refused with this.
  std::string broken;
  /// Reused for each batch and each record body, so steady state allocates
  /// nothing here.
  std::string buf;
  rapidjson::StringBuffer scratch;

  ~audit_logger_state();
};

/// Takes ownership of `fd`, an open, writable file at `path`, whose chain
/// ends at line `seq` with hash `prev_hash` (0 and 64 zeros for a new file;
/// a resumed run continues its chain).
logger_actor::behavior_type
audit_logger(logger_actor::stateful_pointer<audit_logger_state> self, int fd,
             std::string path, flush_policy policy, std::uint64_t seq,
             std::string prev_hash);

} // namespace ij
