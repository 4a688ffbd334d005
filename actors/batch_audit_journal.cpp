#include "actors/batch_audit_journal.hpp"

#include <caf/event_based_actor.hpp>
#include <caf/logger.hpp>

#include "core/audit/audit_record.hpp"
#include "messages/error.hpp"

namespace ij {

batch_record to_batch_record(const batch_mark& m) {
  batch_record r;
  r.step = m.step;
  r.judge = m.judge;
  r.key = m.key;
  r.batch_id = m.batch_id;
  r.state = m.state;
  r.at_ms = m.at_ms;
  for (auto& e : m.entries)
    r.entries.push_back({e.custom_id, e.pair_id, e.vote_index});
  return r;
}

batch_mark to_batch_mark(const batch_record& r) {
  batch_mark m;
  m.step = r.step;
  m.judge = r.judge;
  m.key = r.key;
  m.batch_id = r.batch_id;
  m.state = r.state;
  m.at_ms = r.at_ms;
  for (auto& e : r.entries)
    m.entries.push_back({e.custom_id, e.pair_id, e.vote});
  return m;
}

void batch_audit_journal::record(batch_mark mark,
                                 std::function<void(caf::error)> done) {
  logger_actor logger;
  caf::actor_system* sys = nullptr;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    if (closed_) {
      done(make_error(errc::audit_failed,
                      "the run's audit is closed: batch not recorded"));
      return;
    }
    if (!logger_) {
      waiting_.emplace_back(std::move(mark), std::move(done));
      return;
    }
    logger = logger_;
    sys = sys_;
  }
  send(*sys, logger, std::move(mark), std::move(done));
}

void batch_audit_journal::bind(caf::actor_system& sys, logger_actor logger) {
  decltype(waiting_) waiting;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    sys_ = &sys;
    logger_ = logger;
    waiting.swap(waiting_);
  }
  // The logger answers in the order it receives: waiting marks keep theirs.
  for (auto& [mark, done] : waiting)
    send(sys, logger, std::move(mark), std::move(done));
}

void batch_audit_journal::unbind() {
  decltype(waiting_) waiting;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    closed_ = true;
    logger_ = nullptr;
    waiting.swap(waiting_);
  }
  for (auto& w : waiting)
    w.second(make_error(errc::audit_failed, "the run ended before the batch "
                                            "was recorded"));
}

namespace {

// Hands one mark to the logger and says when it is recorded.
void write_batch_mark(caf::event_based_actor* self, logger_actor logger,
                      audit_batch batch, std::function<void(caf::error)> done) {
  self->request(logger, caf::infinite, std::move(batch))
    .then(
      [self, done](std::uint64_t, const std::string&) {
        done(caf::error{});
        self->quit();
      },
      [self, done](caf::error& err) {
        done(err);
        self->quit();
      });
}

} // namespace

void batch_audit_journal::send(caf::actor_system& sys,
                               const logger_actor& logger, batch_mark mark,
                               std::function<void(caf::error)> done) {
  audit_batch batch;
  batch.entries.push_back(
    audit_entry{audit_type::batch, batch_body(to_batch_record(mark))});
  // Durable: under the default flush policy the logger answers only once
  // the record is fsynced (a group commit with the verdicts around it).
  batch.durable = true;
  // spawn() gives the calling thread a reference to CAF's logger; held by
  // the judge's Asio thread, which outlives the actor system, it would keep
  // ~actor_system waiting for the logger's end forever. A thread that had
  // no logger before gives it back.
  const bool foreign_thread = caf::logger::current_logger() == nullptr;
  // A function actor with arguments: CAF 0.17 dereferences the empty
  // argument tuple of a lambda actor spawned without any (UBSan: reference
  // binding to null pointer).
  sys.spawn(write_batch_mark, logger, std::move(batch), std::move(done));
  if (foreign_thread)
    caf::logger::set_current_actor_system(nullptr);
}

} // namespace ij
