#include "daemon/run_actor.hpp"

#include <algorithm>
#include <deque>
#include <utility>
#include <vector>

#include <caf/typed_event_based_actor.hpp>

#include "actors/run_session.hpp"
#include "core/wall_clock.hpp"
#include "messages/error.hpp"
#include "runio/verdict_output.hpp"

namespace ij {

namespace {

// Bytes of pairs in memory waiting for the session at most; an upload past
// it stays in the file until the run has room (bounded memory whatever the
// input). In bytes, not pairs: pairs may be up to 1 MiB each; and large
// enough that a run of tens of thousands of short pairs is not read back
// and parsed a second time (a tenth of a 40,000-pair run's CPU).
constexpr std::size_t max_backlog_bytes = std::size_t{16} << 20;

// What a batch's pairs hold in memory, about.
std::size_t bytes_of(const input_batch& batch) {
  std::size_t n = 0;
  for (auto& p : batch.pairs)
    n += sizeof(answer_pair) + p.id.size() + p.item.size() + p.a.size() + p.b.size()
         + p.transform.size() + p.problem.size();
  return n;
}
// Batches sent to the session and not answered yet at most (its reply
// means its window has room).
constexpr std::uint32_t max_unanswered = 2;

struct run_actor_state {
  static inline const char* name = "daemon-run";

  run_actor_setup setup;
  run_actor session;
  std::deque<input_batch> backlog;
  std::size_t backlog_bytes = 0;
  std::uint32_t unanswered = 0;
  /// Lines in the pairs file not in the backlog: bytes [spill_from,
  /// spill_to), after line spill_line; read back once the backlog drains.
  bool spilled = false;
  bool reading = false;
  std::uint64_t spill_from = 0;
  std::uint64_t spill_to = 0;
  std::uint64_t spill_line = 0;
  bool input_closed = false;
  bool end_sent = false;
  bool cancelled = false;     // DELETE
  bool shutting_down = false; // SIGTERM
  bool finished = false;
  std::vector<std::string> failures;
  std::uint64_t next_seq = 1;
};

using self_ptr = daemon_run_actor::stateful_pointer<run_actor_state>;

// The output line with its sequence number first: {"seq":N,...}.
std::string with_seq(std::uint64_t seq, const std::string& line) {
  return "{\"seq\":" + std::to_string(seq) + "," + line.substr(1);
}

// A resumed session hands out the verdicts it preloaded from the audit
// again; those stored before the restart are not stored twice.
bool stored_before(const std::unordered_set<std::string>& keys, const std::string& key) {
  return !keys.empty() && keys.count(key) > 0;
}

void read_spill(self_ptr self);

// Sends the backlog while the session has room; the end of input once all
// of it is sent.
void feed(self_ptr self) {
  auto& st = self->state;
  if (!st.session || st.cancelled || st.shutting_down || st.finished)
    return;
  while (st.unanswered < max_unanswered && !st.backlog.empty()) {
    auto batch = std::move(st.backlog.front());
    st.backlog.pop_front();
    st.backlog_bytes -= std::min(st.backlog_bytes, bytes_of(batch));
    ++st.unanswered;
    self->request(st.session, caf::infinite, std::move(batch))
      .then([self](std::uint64_t) {
              --self->state.unanswered;
              feed(self);
            },
            [self](caf::error& err) {
              // Input the session refused (it ended meanwhile).
              auto& s = self->state;
              --s.unanswered;
              if (!s.cancelled && !s.shutting_down)
                s.failures.push_back(render_error(err));
            });
  }
  if (st.spilled && !st.reading && st.backlog_bytes < max_backlog_bytes / 2)
    read_spill(self);
  if (st.input_closed && !st.end_sent && st.backlog.empty() && !st.spilled) {
    st.end_sent = true;
    self->send(st.session, end_of_input_atom::value);
  }
}

void read_spill(self_ptr self) {
  auto& st = self->state;
  st.reading = true;
  self
    ->request(st.setup.ctx->reader, caf::infinite, read_atom::value,
              st.setup.pairs_path, st.spill_from, st.spill_to, st.spill_line)
    .then(
      [self](input_batch& batch, std::uint64_t next, std::uint64_t line) {
        auto& s = self->state;
        s.reading = false;
        // No progress (never expected): the rest is not read, not looped on.
        if (next <= s.spill_from || next >= s.spill_to)
          s.spilled = false;
        s.spill_from = next;
        s.spill_line = line;
        if (!batch.pairs.empty() || !batch.rejected.empty()) {
          s.backlog_bytes += bytes_of(batch);
          s.backlog.push_back(std::move(batch));
        }
        feed(self);
      },
      [self](caf::error& err) {
        auto& s = self->state;
        s.reading = false;
        s.spilled = false;
        auto why = "reading the run's pairs file failed: " + render_error(err);
        s.failures.push_back(why);
        if (s.session)
          self->send(s.session, cancel_atom::value, why);
      });
}

void on_append(self_ptr self, input_batch& batch, std::uint64_t from,
               std::uint64_t to, std::uint64_t line) {
  auto& st = self->state;
  if (st.cancelled || st.shutting_down || st.finished)
    return; // in the file: a resume reads it
  if (st.spilled || st.backlog_bytes >= max_backlog_bytes) {
    if (!st.spilled) {
      st.spilled = true;
      st.spill_from = from;
      st.spill_line = line;
    }
    st.spill_to = to;
    return;
  }
  st.backlog_bytes += bytes_of(batch);
  st.backlog.push_back(std::move(batch));
  feed(self);
}

// Numbers the lines and queues them for the store with the counts now.
void store_lines(self_ptr self,
                 std::vector<std::pair<std::string, std::string>>& lines) {
  auto& st = self->state;
  std::string counts;
  {
    std::lock_guard<std::mutex> guard{st.setup.status->mtx};
    counts = counts_json(st.setup.status->totals);
  }
  auto n = lines.size();
  st.setup.ctx->store->queue_verdicts(st.setup.id, st.next_seq,
                                      std::move(lines), std::move(counts));
  st.next_seq += n;
}

void on_verdicts(self_ptr self, std::vector<single_verdict>& vs) {
  auto& st = self->state;
  std::vector<std::pair<std::string, std::string>> lines;
  std::uint64_t cast = 0, faulted = 0, skipped = 0;
  {
    std::lock_guard<std::mutex> guard{st.setup.status->mtx};
    for (auto& v : vs)
      st.setup.status->totals.add(v);
  }
  for (auto& v : vs) {
    auto key = "pair:" + v.pair_id;
    if (stored_before(st.setup.stored_keys, key))
      continue;
    // A vote that faulted was not cast: it is a fault.
    cast += v.counts.equivalent + v.counts.different + v.counts.abstain
            + v.counts.parse_error;
    faulted += v.counts.faults;
    skipped += v.counts.not_cast;
    lines.emplace_back(std::move(key),
                       with_seq(st.next_seq + lines.size(), pair_verdict_line(v)));
  }
  st.setup.ctx->metrics->record_votes(cast, faulted, skipped);
  store_lines(self, lines);
}

void on_items(self_ptr self, std::vector<statistical_verdict>& vs) {
  auto& st = self->state;
  std::vector<std::pair<std::string, std::string>> lines;
  {
    std::lock_guard<std::mutex> guard{st.setup.status->mtx};
    st.setup.status->totals.summary.items += vs.size();
  }
  for (auto& v : vs) {
    auto key = "item:" + v.item;
    if (!stored_before(st.setup.stored_keys, key))
      lines.emplace_back(std::move(key),
                         with_seq(st.next_seq + lines.size(), item_verdict_line(v)));
  }
  store_lines(self, lines);
}

// Live canaries are output lines like the driver's ({"kind":"canary"}),
// never counted as pairs; one resumed is stored once.
void on_canaries(self_ptr self, std::vector<canary_result>& cs) {
  auto& st = self->state;
  std::vector<std::pair<std::string, std::string>> lines;
  for (auto& c : cs) {
    auto key = "canary:" + c.id;
    if (!stored_before(st.setup.stored_keys, key))
      lines.emplace_back(std::move(key),
                         with_seq(st.next_seq + lines.size(), canary_line(c)));
  }
  store_lines(self, lines);
}

// The run's end (`s`: its summary; nullptr: the session stopped without
// one), queued after its lines; the actor is done.
void finish(self_ptr self, const run_summary* s) {
  auto& st = self->state;
  if (st.finished)
    return;
  st.finished = true;
  auto status = st.setup.status;
  run_row row;
  {
    std::lock_guard<std::mutex> guard{status->mtx};
    status->input_ended = true;
    if (s)
      status->totals.summary = *s;
    row = status->row;
    row.counts_json = counts_json(status->totals);
  }
  run_end_job job;
  // SIGTERM: the run stays unfinished in the state; the next start resumes.
  if (st.cancelled || !st.shutting_down) {
    std::string error = s && !s->error.empty() ? s->error
                        : !st.failures.empty() ? st.failures.front()
                        : !s ? "the run session stopped before the run ended"
                             : std::string{};
    row.state = st.cancelled ? "cancelled" : !error.empty() ? "failed" : "done";
    row.error = error;
    row.finished_ms = wall_clock_ms();
    row.final_hash = s ? s->final_hash : std::string{};
    job.row = std::move(row);
  }
  job.done = [status](const run_row* saved) {
    std::lock_guard<std::mutex> guard{status->mtx};
    if (saved)
      status->row = *saved;
    status->ended = true;
    status->changed.notify_all();
  };
  st.setup.ctx->store->queue_run_end(std::move(job));
  if (st.session)
    self->demonitor(st.session.address());
  self->quit();
}

void stop(self_ptr self, std::string reason, bool cancel) {
  auto& st = self->state;
  if (st.finished || st.cancelled || st.shutting_down)
    return;
  (cancel ? st.cancelled : st.shutting_down) = true;
  st.backlog.clear();
  st.backlog_bytes = 0;
  self->send(st.session, cancel_atom::value, std::move(reason));
}

void start_session(self_ptr self) {
  auto& st = self->state;
  run_setup setup;
  setup.run_id = st.setup.id;
  setup.config = st.setup.config;
  setup.audit_path = st.setup.audit_path;
  setup.directory = st.setup.ctx->directory;
  setup.listener = caf::actor_cast<run_listener_actor>(self);
  setup.progress_interval = std::chrono::milliseconds(500);
  setup.resume = st.setup.resume;
  setup.audit_fd = st.setup.audit_fd;
  st.setup.audit_fd = -1; // the session's from here on
  auto session = spawn_run(self->system(), std::move(setup));
  if (!session) {
    st.failures.push_back(render_error(session.error()));
    finish(self, nullptr);
    return;
  }
  st.session = *session;
  self->monitor(st.session);
  self->set_down_handler([self](caf::down_msg& dm) {
    if (dm.source == self->state.session.address())
      finish(self, nullptr);
  });
  if (st.setup.stored_bytes > 0) {
    st.spilled = true;
    st.spill_to = st.setup.stored_bytes;
  }
  st.input_closed = st.setup.closed;
  feed(self);
}

daemon_run_actor::behavior_type run_behavior(self_ptr self,
                                             run_actor_setup setup) {
  self->state.setup = std::move(setup);
  self->state.next_seq = self->state.setup.next_seq;
  start_session(self);
  return {
    [](run_started&) {},
    [self](std::vector<single_verdict>& vs) { on_verdicts(self, vs); },
    [self](std::vector<statistical_verdict>& vs) { on_items(self, vs); },
    [self](std::vector<canary_result>& cs) { on_canaries(self, cs); },
    [self](run_progress& p) {
      auto& status = *self->state.setup.status;
      std::lock_guard<std::mutex> guard{status.mtx};
      status.totals.summary.judge_calls = p.judge_calls;
    },
    [](warning_atom, std::string&) {},
    [self](run_summary& s) { finish(self, &s); },
    [self](append_atom, input_batch& batch, std::uint64_t from,
           std::uint64_t to, std::uint64_t line) {
      on_append(self, batch, from, to, line);
    },
    [self](end_of_input_atom) {
      self->state.input_closed = true;
      feed(self);
    },
    [self](cancel_atom, std::string& reason) {
      stop(self, std::move(reason), true);
    },
    [self](shutdown_atom, std::string& reason) {
      stop(self, std::move(reason), false);
    },
  };
}

} // namespace

daemon_run_actor spawn_run_actor(run_actor_setup setup) {
  auto& sys = *setup.ctx->sys;
  return sys.spawn(run_behavior, std::move(setup));
}

} // namespace ij
