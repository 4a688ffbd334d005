#pragma once
// The batch journal of a run (adapters/batch_journal) in its audit trail: each
// mark becomes a `batch` record (core/audit/batch_record), written by the run's
// audit logger and fsynced before the batched judge is told it is durable.
//
// record() is called from the batched judge's Asio thread, never a CAF
// scheduler thread: it sends the record from a short-lived actor of its own
// and runs `done` from that actor's reply handler, so no thread blocks. The
// judge adapter is built before the run's session exists: marks recorded
// until bind() (a resumed run's adopt()) wait, and go to the logger, in
// order, once the session's manifest or resume record is written.
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include <caf/actor_system.hpp>

#include "adapters/batch_journal.hpp"
#include "core/audit/batch_record.hpp"
#include "messages/interfaces.hpp"

namespace ij {

class batch_audit_journal : public batch_journal {
public:
  void record(batch_mark mark, std::function<void(caf::error)> done) override;

  /// From now on marks go to `logger` (the waiting ones first), sent by
  /// short-lived actors of `sys`.
  void bind(caf::actor_system& sys, logger_actor logger);

  /// The run ended: later marks fail (the file is closed).
  void unbind();

private:
  static void send(caf::actor_system& sys, const logger_actor& logger,
                   batch_mark mark, std::function<void(caf::error)> done);

  caf::actor_system* sys_ = nullptr;
  std::mutex mtx_;
  logger_actor logger_;
  bool closed_ = false;
  std::vector<std::pair<batch_mark, std::function<void(caf::error)>>> waiting_;
};

/// The core record of a mark, and back.
batch_record to_batch_record(const batch_mark& m);
batch_mark to_batch_mark(const batch_record& r);

} // namespace ij
