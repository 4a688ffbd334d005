#include "daemon/run_registry.hpp"

#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include <caf/typed_event_based_actor.hpp>

#include "actors/judge_worker.hpp"
#include "adapters/batch_judge.hpp"
#include "core/hosts/worker_key.hpp"
#include "core/session/run_tag.hpp"
#include "core/wall_clock.hpp"
#include "daemon/run_counts.hpp"
#include "daemon/run_launch.hpp"
#include "daemon/state_writer.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

// A worker joining the directory (a local actor) answers at once; this
// only bounds a directory that has stopped.
constexpr auto join_timeout = std::chrono::seconds(30);
// Soon after a run's end, when the retention keeps a number of runs.
constexpr auto retain_soon = std::chrono::seconds(1);

struct registry_state {
  static inline const char* name = "run-registry";

  daemon_context ctx;
  registry_settings settings;

  /// A live run: its actor and, as it last told, its row (state, counts)
  /// and followers; the worker keys it holds.
  struct live_run {
    daemon_run_actor actor;
    run_row row;
    std::uint64_t followers = 0;
    std::vector<std::string> keys;
  };
  std::unordered_map<std::string, live_run> live;
  /// The finished runs by state and their counts summed; runs removed.
  run_figures finished;

  /// One worker per exact set of call settings (its key).
  struct worker_slot {
    judge_worker_actor worker;
    bool joined = false;
    std::uint64_t users = 0;
    /// Bumped on each change of users: a retirement planned before is void.
    std::uint64_t generation = 0;
    std::shared_ptr<batch_judge> batch;
    /// Creations waiting for it to join the directory.
    std::vector<std::uint64_t> waiting;
  };
  std::unordered_map<std::string, worker_slot> workers;
  std::uint64_t worker_count = 0;

  /// A creation waiting for its workers to join.
  struct creation {
    run_launch_ref launch;
    caf::typed_response_promise<run_row> promise;
    std::size_t unjoined = 0;
    std::vector<std::string> keys;
  };
  std::unordered_map<std::uint64_t, creation> creations;
  std::uint64_t next_creation = 0;

  /// SIGTERM: the promise answered once every live run has ended.
  std::vector<caf::typed_response_promise<std::uint32_t>> stopping;
  std::uint32_t stopped = 0;

  bool retaining = false;
  bool retain_again = false;
  /// When the next periodic pass is due (a pass soon after a run's end
  /// leaves the period's chain alone).
  caf::actor_clock::time_point periodic_due;
};

using self_ptr = run_registry_actor::stateful_pointer<registry_state>;

// --- Workers
// -------------------------------------------------------------------

void release_workers(self_ptr self, const std::vector<std::string>& keys) {
  auto& st = self->state;
  for (auto& key : keys) {
    auto i = st.workers.find(key);
    if (i == st.workers.end() || i->second.users == 0)
      continue;
    auto& w = i->second;
    ++w.generation;
    if (--w.users == 0)
      self->delayed_send(self, st.settings.worker_linger, retire_atom::value,
                         key, w.generation);
  }
}

// An idle worker ends (its adapter with it), unless a run took it again
// or its batches are still open (a cancelled run's, ending at the
// provider): then it waits another linger.
void retire(self_ptr self, const std::string& key, std::uint64_t generation) {
  auto& st = self->state;
  auto i = st.workers.find(key);
  if (i == st.workers.end() || i->second.users > 0
      || i->second.generation != generation || !i->second.joined)
    return;
  if (auto& b = i->second.batch) {
    auto s = b->stats();
    if (s.submitted + s.in_progress + s.calls_waiting > 0) {
      self->delayed_send(self, st.settings.worker_linger, retire_atom::value,
                         key, generation);
      return;
    }
  }
  self->send_exit(i->second.worker, caf::exit_reason::user_shutdown);
  st.workers.erase(i);
}

void fail_creation(self_ptr self, std::uint64_t id, const caf::error& err);
void continue_creation(self_ptr self, std::uint64_t id);

void on_joined(self_ptr self, const std::string& key) {
  auto& st = self->state;
  auto i = st.workers.find(key);
  if (i == st.workers.end())
    return;
  i->second.joined = true;
  auto waiting = std::move(i->second.waiting);
  i->second.waiting.clear();
  for (auto id : waiting) {
    auto c = st.creations.find(id);
    if (c != st.creations.end() && --c->second.unjoined == 0)
      continue_creation(self, id);
  }
}

void on_join_failed(self_ptr self, const std::string& key,
                    const caf::error& err) {
  auto& st = self->state;
  auto i = st.workers.find(key);
  if (i == st.workers.end())
    return;
  auto waiting = std::move(i->second.waiting);
  self->send_exit(i->second.worker, caf::exit_reason::user_shutdown);
  st.workers.erase(i);
  auto why = make_error(errc::bad_config,
                        "cannot start the judges: " + render_error(err));
  for (auto id : waiting)
    fail_creation(self, id, why);
}

// A worker for a binding no worker serves: its adapter metered and, with
// a cache, cached; joined to the directory.
void start_worker(self_ptr self, const std::string& key, judge_binding b) {
  auto& st = self->state;
  auto name =
    b.spec.name.empty() ? b.spec.type + ":" + b.spec.model : b.spec.name;
  auto inner = with_cache(b.adapter, st.settings.cache);
  b.adapter = metered(inner, st.ctx.metrics, name);
  st.ctx.metrics->watch_judge(name, b.adapter, b.spec.max_in_flight);
  if (b.spec.prices)
    st.ctx.metrics->price_judge(name, *b.spec.prices);
  auto& slot = st.workers[key];
  slot.batch = b.batch;
  if (b.batch)
    st.ctx.metrics->watch_batches(b.batch);
  auto id = name + "#" + std::to_string(++st.worker_count) + "@local";
  slot.worker = spawn_judge_worker(*st.ctx.sys, std::move(b), id, "local");
  self->request(st.ctx.directory, join_timeout, join_atom::value, slot.worker)
    .then([self, key](judge_info&) { on_joined(self, key); },
          [self, key](caf::error& err) { on_join_failed(self, key, err); });
}

// --- Runs
// ----------------------------------------------------------------------

// The creation `id`, taken out of those waiting (nullopt: already done).
std::optional<registry_state::creation> take_creation(registry_state& st,
                                                      std::uint64_t id) {
  auto c = st.creations.find(id);
  if (c == st.creations.end())
    return std::nullopt;
  auto creation = std::move(c->second);
  st.creations.erase(c);
  return creation;
}

void fail_creation(self_ptr self, std::uint64_t id, const caf::error& err) {
  auto creation = take_creation(self->state, id);
  if (!creation)
    return;
  release_workers(self, creation->keys);
  creation->promise.deliver(err);
}

void spawn_run(self_ptr self, std::uint64_t id) {
  auto& st = self->state;
  auto creation = take_creation(st, id);
  if (!creation)
    return;
  auto& launch = *creation->launch.ptr;
  auto setup = std::move(launch.setup);
  launch.setup.audit_fd = -1; // the run's now
  setup.ctx = st.ctx;
  auto row = setup.row;
  auto actor = spawn_run_actor(std::move(setup));
  st.live[row.id] = {actor, row, 0, creation->keys};
  creation->promise.deliver(row);
}

// The workers have joined: a resumed run's open batches go to the batched
// judges, a new run's row is inserted; then its actor starts.
void continue_creation(self_ptr self, std::uint64_t id) {
  auto& st = self->state;
  auto& launch = *st.creations.at(id).launch.ptr;
  if (!launch.marks.empty())
    for (auto& [key, w] : st.workers)
      if (w.batch) // each takes its own marks, skipping batches it holds
        w.batch->adopt(launch.marks);
  if (!launch.fresh)
    return spawn_run(self, id);
  self
    ->request(st.ctx.writer, caf::infinite, create_atom::value,
              launch.setup.row)
    .then([self, id](bool) { spawn_run(self, id); },
          [self, id](caf::error& err) { fail_creation(self, id, err); });
}

caf::result<run_row> create(self_ptr self, run_launch_ref& ref) {
  auto& st = self->state;
  if (!st.stopping.empty())
    return make_error(errc::run_ended, "the daemon is stopping (SIGTERM)");
  auto id = st.next_creation++;
  auto& c = st.creations[id];
  c.launch = ref;
  c.promise = self->make_response_promise<run_row>();
  auto promise = c.promise;
  std::set<std::string> seen;
  for (auto& b : ref.ptr->bindings) {
    auto key = worker_key_of(b.spec);
    if (!seen.insert(key).second)
      continue;
    c.keys.push_back(key);
    auto w = st.workers.find(key);
    bool fresh = w == st.workers.end();
    auto& slot = st.workers[key];
    ++slot.users;
    ++slot.generation;
    if (!slot.joined) {
      slot.waiting.push_back(id);
      ++c.unjoined;
    }
    if (fresh)
      start_worker(self, key, std::move(b));
  }
  ref.ptr->bindings.clear(); // those not taken: not needed
  if (c.unjoined == 0)
    continue_creation(self, id);
  return promise;
}

// --- Ends, metrics, retention, shutdown
// ----------------------------------------

void retain(self_ptr self);

void schedule_retention(self_ptr self, caf::timespan after) {
  auto& st = self->state;
  if (st.settings.keep_ms > 0 || st.settings.keep_runs > 0)
    self->delayed_send(self, after, retain_atom::value);
}

void checkpoint_and_answer(self_ptr self) {
  auto& st = self->state;
  self->request(st.ctx.writer, caf::infinite, checkpoint_atom::value)
    .then(
      [self](bool) {
        auto& s = self->state;
        for (auto& p : s.stopping)
          p.deliver(s.stopped);
        s.stopping.clear();
      },
      [self](caf::error& err) {
        for (auto& p : self->state.stopping)
          p.deliver(err);
        self->state.stopping.clear();
      });
}

void on_ended(self_ptr self, run_row& row, bool final) {
  auto& st = self->state;
  auto i = st.live.find(row.id);
  if (i != st.live.end()) {
    release_workers(self, i->second.keys);
    st.live.erase(i);
  }
  if (final) {
    fold_finished(row.state, row.counts_json, st.finished, true);
    if (st.settings.keep_runs > 0)
      schedule_retention(self, retain_soon);
  }
  if (!st.stopping.empty()) {
    ++st.stopped;
    if (st.live.empty())
      checkpoint_and_answer(self);
  } else if (st.live.empty() && st.settings.idle) {
    st.settings.idle();
  }
}

run_figures figures(const registry_state& st) {
  auto out = st.finished;
  for (auto& [id, run] : st.live) {
    ++out.runs_by_state[run.row.state];
    add_counts(run.row.counts_json, out.count_sums);
    out.followers_waiting += run.followers;
  }
  return out;
}

// One pass at a time; a full pass (more to remove) is followed by another.
void retain(self_ptr self) {
  auto& st = self->state;
  if (st.retaining) {
    st.retain_again = true;
    return;
  }
  st.retaining = true;
  self
    ->request(st.ctx.writer, caf::infinite, retain_atom::value,
              st.settings.keep_ms, st.settings.keep_runs, wall_clock_ms())
    .then(
      [self](std::vector<removed_run>& gone) {
        auto& s = self->state;
        s.retaining = false;
        for (auto& r : gone)
          fold_finished(r.state, r.counts_json, s.finished, false);
        s.finished.runs_removed += gone.size();
        if (gone.size() >= retention_batch || s.retain_again) {
          s.retain_again = false;
          retain(self);
        }
      },
      [self](caf::error&) { self->state.retaining = false; });
}

caf::result<std::uint32_t> shut_down(self_ptr self) {
  auto& st = self->state;
  st.stopping.push_back(self->make_response_promise<std::uint32_t>());
  auto promise = st.stopping.back();
  if (st.stopping.size() > 1)
    return promise;
  if (st.live.empty()) {
    checkpoint_and_answer(self);
    return promise;
  }
  for (auto& [id, run] : st.live)
    self->send(run.actor, shutdown_atom::value,
               std::string{"the daemon stopped (SIGTERM); the run resumes when "
                           "it starts again"});
  return promise;
}

run_registry_actor::behavior_type registry(self_ptr self, daemon_context ctx,
                                           registry_settings settings,
                                           run_figures finished) {
  auto& st = self->state;
  st.ctx = std::move(ctx);
  st.ctx.registry = self;
  st.settings = std::move(settings);
  st.finished = std::move(finished);
  st.periodic_due = self->clock().now();
  schedule_retention(self, retain_soon);
  // Ended by the daemon (after SIGTERM's shutdown there is no live run;
  // past its grace period these go now): its runs and workers with it.
  self->set_exit_handler([self](caf::exit_msg& m) {
    for (auto& [id, run] : self->state.live)
      self->send_exit(run.actor, m.reason);
    for (auto& [key, w] : self->state.workers)
      self->send_exit(w.worker, m.reason);
    self->quit(m.reason);
  });
  return {
    [=](create_atom, run_launch_ref& ref) { return create(self, ref); },
    [=](find_atom, const std::string& id) {
      auto i = self->state.live.find(id);
      return i == self->state.live.end() ? daemon_run_actor{} : i->second.actor;
    },
    [=](find_atom, const std::vector<std::string>& ids) {
      std::vector<run_row> out;
      for (auto& id : ids)
        if (auto i = self->state.live.find(id); i != self->state.live.end())
          out.push_back(i->second.row);
      return out;
    },
    [=](live_atom, run_row& row, std::uint64_t followers) {
      auto i = self->state.live.find(row.id);
      if (i == self->state.live.end())
        return;
      i->second.row = std::move(row);
      i->second.followers = followers;
    },
    [=](cancel_atom, const std::string& id) {
      auto tag = run_tag_of(id);
      for (auto& [key, w] : self->state.workers)
        if (w.batch) // not waited for: a lost cancel ends at the provider
          w.batch->cancel_run(tag);
    },
    [=](ended_atom, run_row& row, bool final) { on_ended(self, row, final); },
    [=](metrics_atom) {
      auto f = figures(self->state);
      f.actors_running = self->system().registry().running();
      return f;
    },
    [=](shutdown_atom) { return shut_down(self); },
    [=](retain_atom) {
      auto& s = self->state;
      retain(self);
      auto now = self->clock().now();
      if (now >= s.periodic_due) {
        s.periodic_due = now + s.settings.retention_period;
        schedule_retention(self, s.settings.retention_period);
      }
    },
    [=](retire_atom, const std::string& key, std::uint64_t generation) {
      retire(self, key, generation);
    },
  };
}

} // namespace

run_registry_actor spawn_run_registry(daemon_context ctx,
                                      registry_settings settings,
                                      run_figures finished) {
  auto& sys = *ctx.sys;
  return sys.spawn(registry, std::move(ctx), std::move(settings),
                   std::move(finished));
}

} // namespace ij
