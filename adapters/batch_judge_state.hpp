#pragma once
// A batch judge's state (adapters/batch_judge), all of it on the adapter's
// own Asio thread: the callers waiting for a custom_id, each call while it
// waits for its batch, how a vote the batch did not answer is settled, the
// batches from their journal mark to their end, and the steps that move
// them. Kept apart from batch_judge.cpp so that each stays readable; only
// batch_judge.cpp includes it.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "adapters/batch_client.hpp"
#include "adapters/batch_journal.hpp"
#include "adapters/batch_judge.hpp"
#include "adapters/batch_protocol.hpp"
#include "adapters/judge_adapter.hpp"

namespace ij {

namespace net = boost::asio;
using steady = std::chrono::steady_clock;

/// One caller waiting for a custom_id's reply, named by its call_id (0:
/// not abortable).
struct waiter {
  std::uint64_t call_id = 0;
  reply_handler done;
};

/// A call waiting for its batch: every waiter with this custom_id.
struct call_entry {
  std::string prompt;
  call_options opts;
  std::vector<waiter> waiters;
  steady::time_point since;
  /// The batch it is in (or adopted into); empty while queued.
  std::string batch_key;
};

/// How a vote the batch did not answer with a success is settled.
struct settled {
  batch_result result;
  fault_kind kind = fault_kind::none;
  std::string reason;
  /// Per on_failure (false: a fault whatever the policy, a journal error).
  bool per_policy = true;
};

struct open_batch {
  std::string key;
  std::string id;
  std::vector<batch_entry> entries;
  std::string document;
  batch_state state = batch_state::validating;
  steady::time_point opened;
  std::int64_t at_ms = 0;
  bool submitted = false;
  /// From a restart: results of calls not yet re-issued are kept.
  bool adopted = false;
  /// A pending mark being looked for at the provider.
  bool searching = false;
  /// Found by listing without a key (Anthropic): confirmed by its results'
  /// custom_ids once it has ended.
  bool confirm = false;
  std::unique_ptr<net::steady_timer> timer;
};

struct batch_judge::state : std::enable_shared_from_this<state> {
  batch_judge_config cfg;
  std::unique_ptr<batch_client> client;
  judge_adapter_ptr fallback;
  std::shared_ptr<batch_journal> journal;
  std::string judge_id;
  net::io_context io;
  net::executor_work_guard<net::io_context::executor_type> work{
    io.get_executor()};
  net::steady_timer flush_timer{io};
  std::thread thread;
  bool stopping = false;

  std::unordered_map<std::string, call_entry> calls;
  std::deque<std::string> queue;
  std::map<std::string, open_batch> batches;
  /// custom_ids of adopted batches -> the batch's key: never sent again.
  std::unordered_map<std::string, std::string> held;
  /// Results of adopted batches whose calls have not been re-issued yet.
  std::unordered_map<std::string, settled> unclaimed;
  std::size_t ended_count = 0;
  /// Keys of batches closing (their `ended` not yet durable) that never
  /// reached the provider: an abort meanwhile is not counted as sent.
  std::unordered_set<std::string> unsent_closing;

  mutable std::mutex stats_mtx;
  batch_stats snapshot;
  steady::time_point oldest{};

  // --- threads --------------------------------------------------------------
  /// Runs `fn` on the adapter's thread, then publishes the stats.
  void run(std::function<void()> fn) {
    net::post(io, [this, fn = std::move(fn)] {
      if (stopping)
        return;
      fn();
      publish();
    });
  }
  /// A callback for another thread (the client's, the journal's) that runs
  /// `fn` on the adapter's thread, unless the adapter is gone.
  template <class T>
  std::function<void(T)> back(std::function<void(T)> fn) {
    return [w = weak_from_this(), fn = std::move(fn)](T value) mutable {
      if (auto s = w.lock())
        s->run([fn, value = std::make_shared<T>(std::move(value))]() mutable {
          fn(std::move(*value));
        });
    };
  }

  void publish();
  void shutdown();

  // --- calls and batches ----------------------------------------------------
  void on_call(std::string prompt, call_options opts, reply_handler done);
  void arm_timer();
  void flush(bool due_only);
  void build_batch();
  batch_mark mark(const open_batch& b, batch_step step,
                  std::string state_text = {}) const;
  void record(batch_mark m, std::function<void(caf::error)> fn);
  open_batch* find(const std::string& key) {
    auto it = batches.find(key);
    return it == batches.end() ? nullptr : &it->second;
  }
  void on_pending_recorded(const std::string& key, caf::error err);
  void on_submitted(const std::string& key, caf::expected<batch_status> st);
  void on_submitted_recorded(const std::string& key, caf::error err);
  void schedule_poll(const std::string& key, std::chrono::milliseconds after);
  void poll(const std::string& key);
  void on_status(const std::string& key, caf::expected<batch_status> st);
  void on_results(const std::string& key,
                  caf::expected<std::vector<batch_result>> r);
  /// A vote's settlement, by custom_id.
  using settlement = std::pair<std::string, settled>;
  std::vector<settlement> outcome_of(const open_batch& b,
                                     const std::vector<batch_result>& results);
  std::vector<settlement> failures(const open_batch& b, fault_kind kind,
                                   const std::string& reason, bool per_policy);
  void close(const std::string& key, const std::string& state_text,
             std::vector<settlement> outcome = {});
  void fail_batch(open_batch& b, fault_kind kind, const std::string& reason,
                  bool per_policy);
  void route(const std::string& key, const std::string& custom_id, settled s);
  void deliver(call_entry entry, const settled& s);
  void answer(call_entry& entry, const adapter_reply& reply);
  bool submitted(const call_entry& entry) const;
  void on_abort(std::uint64_t call_id);

  // --- restart and cancel ---------------------------------------------------
  void on_adopt(std::vector<batch_mark> marks);
  void adopt_one(batch_mark last);
  void on_list(caf::expected<std::vector<batch_status>> list);
  void found(open_batch& b, const batch_status& st);
  void release(open_batch& b);
  void on_cancel_run(const std::string& tag,
                     std::function<void()> acknowledged = {});
};

} // namespace ij
