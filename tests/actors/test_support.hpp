#pragma once
// Deterministic actor tests: an actor system on CAF's test scheduler, driven
// by hand (run / advance time), adapters the test controls, and a way to ask
// an actor something without a blocking receive.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/scheduler/test_coordinator.hpp>
#include <caf/send.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <rapidjson/document.h>

#include "actors/run_session.hpp"
#include "adapters/adapter_factory.hpp"
#include "adapters/judge_adapter.hpp"
#include "messages/interfaces.hpp"
#include "messages/verdict.hpp"

namespace ij::test {

struct test_config : caf::actor_system_config {
  test_config();
};

/// An actor system whose every actor runs when the test says so.
struct test_system {
  test_config cfg;
  caf::actor_system sys;
  caf::scheduler::test_coordinator& sched;

  test_system();

  /// Runs what is left (exit messages sent at the end of a test), so that
  /// the actor system's shutdown finds every actor done.
  ~test_system();

  /// Runs every job until none is left (timeouts are not triggered).
  void run();

  /// Moves the test clock on, fires what became due, and runs.
  void advance(caf::timespan d);
};

/// The answer an ask() got, once it has come.
template <class R>
struct reply {
  bool done = false;
  std::optional<R> value;
  caf::error error;
  /// Filled by ask_and_snapshot: the file's contents when the reply came.
  std::string snapshot;
};

/// Asks `h` from a helper actor; the reply (or error) lands in the result
/// once the scheduler has run.
template <class R, class Handle, class... Ts>
std::shared_ptr<reply<R>> ask(caf::actor_system& sys, const Handle& h,
                              Ts... xs) {
  auto out = std::make_shared<reply<R>>();
  // The unused int works around CAF 0.17's spawn of an argument-less
  // function, which dereferences a null tuple pointer (UBSan reports it).
  sys.spawn(
    [=](caf::event_based_actor* self, int) {
      self->request(h, caf::infinite, xs...)
        .then(
          [=](R& r) {
            out->value = std::move(r);
            out->done = true;
          },
          [=](caf::error& e) {
            out->error = std::move(e);
            out->done = true;
          });
    },
    0);
  return out;
}

/// The contents of a file ("" when it cannot be read).
std::string read_file(const std::string& path);

/// Like ask, and reads `path` at the moment the reply arrives.
template <class R, class Handle, class... Ts>
std::shared_ptr<reply<R>> ask_and_snapshot(caf::actor_system& sys,
                                           const std::string& path,
                                           const Handle& h, Ts... xs) {
  auto out = std::make_shared<reply<R>>();
  sys.spawn(
    [=](caf::event_based_actor* self, int) {
      self->request(h, caf::infinite, xs...)
        .then(
          [=](R& r) {
            out->snapshot = read_file(path);
            out->value = std::move(r);
            out->done = true;
          },
          [=](caf::error& e) {
            out->snapshot = read_file(path);
            out->error = std::move(e);
            out->done = true;
          });
    },
    0);
  return out;
}

/// A judge for tests: spec type "test", model "m" (so every binding made
/// here serves the same judge), the given capacity and base seed.
judge_binding test_binding(judge_adapter_ptr adapter, std::uint32_t cap = 16,
                           std::optional<std::int64_t> seed = 1000,
                           std::string name = "test-judge");

/// Collects every voted pair a vote coordinator delivers, by seq.
struct vote_collector {
  std::shared_ptr<std::map<std::uint64_t, voted_pair>> got =
    std::make_shared<std::map<std::uint64_t, voted_pair>>();
  /// How many messages delivered them (batching).
  std::shared_ptr<std::size_t> messages = std::make_shared<std::size_t>(0);
  /// The audit records the coordinator handed over (votes moved, late
  /// replies, host events), in order.
  std::shared_ptr<std::vector<run_note>> notes =
    std::make_shared<std::vector<run_note>>();
  vote_sink_actor actor;
  explicit vote_collector(caf::actor_system& sys);
};

/// Everything a run session told its listener, in order of arrival.
struct run_events {
  std::vector<run_started> started;
  std::vector<single_verdict> verdicts;
  std::vector<statistical_verdict> items;
  std::vector<canary_result> canaries;
  std::vector<run_progress> progress;
  std::vector<std::string> warnings;
  std::optional<run_summary> summary;
  /// Event kinds in arrival order: 's'tarted, 'v'erdicts, 'i'tems,
  /// 'c'anaries, 'p'rogress, 'w'arning, 'e'nd.
  std::string order;
  /// When set, the file's contents are kept at each verdict event.
  std::string snapshot_path;
  std::vector<std::string> snapshots;
};

/// A run listener recording every event.
struct event_collector {
  std::shared_ptr<run_events> got = std::make_shared<run_events>();
  run_listener_actor actor;
  explicit event_collector(caf::actor_system& sys);
};

/// An adapter whose calls stay open until the test completes them; counts
/// calls and the most ever open at once.
class manual_adapter : public judge_adapter {
public:
  explicit manual_adapter(bool seeds = true, std::uint32_t concurrency = 0)
      : seeds_(seeds), concurrency_(concurrency) {}

  std::string id() const override { return "test:manual"; }
  void call(const std::string& prompt, const call_options& opts,
            reply_handler done) override;
  bool supports_seed() const override { return seeds_; }
  std::uint32_t current_concurrency() const override { return concurrency_; }

  /// Completes the oldest open call with `reply`; false when none is open.
  bool complete_next(adapter_reply reply);

  /// Records the abort; with answer_aborts, answers that open call at once
  /// as aborted (sent per aborts_sent), else it stays open (an adapter
  /// slow to abort).
  void abort(std::uint64_t call_id) override;
  std::vector<std::uint64_t> aborted() const;
  bool answer_aborts = true;
  bool aborts_sent = true;

  std::size_t calls() const;
  std::size_t open() const;
  std::size_t peak_open() const;
  std::vector<std::string> prompts() const;
  std::vector<call_options> options() const;

private:
  bool seeds_;
  std::uint32_t concurrency_;
  mutable std::mutex mtx_;
  std::vector<std::pair<std::uint64_t, reply_handler>> open_;
  std::vector<std::uint64_t> aborted_;
  std::size_t calls_ = 0;
  std::size_t peak_ = 0;
  std::vector<std::string> prompts_;
  std::vector<call_options> options_;
};

/// A successful reply in the canonical format.
adapter_reply canonical(const std::string& decision,
                        const std::string& numeric_a = "NULL",
                        const std::string& numeric_b = "NULL");

/// A unique path for an audit file under the system's temp dir (removed
/// first if it exists).
std::string temp_audit_path(const std::string& tag);

/// The lines of a file, without their newlines.
std::vector<std::string> lines_of(const std::string& text);

/// An audit record read back: its type and the parsed line.
struct record {
  std::string type;
  rapidjson::Document doc;
};

/// Every line of an audit text, parsed (a line that is not JSON fails the
/// test).
std::vector<record> records_of(const std::string& text);

/// What the run tests share: a directory with one worker per judge (named
/// NAME@local) and a run session over them, set up but not started; the
/// audit in a temp file, the events in `events`.
struct run_rig {
  test_system t;
  std::string path;
  judge_directory_actor directory;
  std::vector<judge_worker_actor> workers;
  event_collector events{t.sys};
  run_setup setup;
  run_actor run;

  run_rig(std::vector<judge_binding> judges, const std::string& tag,
          std::string run_id = "run-test");
  ~run_rig();
  run_rig(const run_rig&) = delete;
  run_rig& operator=(const run_rig&) = delete;

  void start();
  void send(std::vector<answer_pair> pairs);
  void end_input();
  const run_events& got() const { return *events.got; }
};

} // namespace ij::test
