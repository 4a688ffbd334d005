#include "daemon/run_actor.hpp"

#include <algorithm>
#include <deque>
#include <utility>
#include <vector>

#include <caf/typed_event_based_actor.hpp>

#include "actors/run_session.hpp"
#include "core/wall_clock.hpp"
#include "daemon/input_lease.hpp"
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
    n += sizeof(answer_pair) + p.id.size() + p.item.size() + p.a.size()
         + p.b.size() + p.transform.size() + p.problem.size();
  return n;
}
// Batches sent to the session and not answered yet at most (its reply
// means its window has room).
constexpr std::uint32_t max_unanswered = 2;

struct run_actor_state {
  static inline const char* name = "daemon-run";

  run_actor_setup setup;
  /// The live run: its row (lines, accepted, closed, state) and totals.
  run_row row;
  run_totals totals;
  /// The upload side; empty while an upload holds it.
  std::unique_ptr<run_input> input;
  /// Uploads and closes waiting for the input to come back, in order.
  struct input_wait {
    bool close = false;
    caf::typed_response_promise<input_lease_ref> upload;
    caf::typed_response_promise<run_row> closing;
  };
  std::deque<input_wait> input_waits;
  /// Followers waiting for lines after `after` (GET .../verdicts?wait_ms).
  struct follower {
    std::uint64_t id = 0;
    std::uint64_t after = 0;
    caf::typed_response_promise<run_row> promise;
  };
  std::vector<follower> followers;
  std::uint64_t next_follower = 0;
  /// DELETEs waiting for the end to be saved.
  std::vector<caf::typed_response_promise<run_row>> cancels;
  /// The last verdict line the writer has stored.
  std::uint64_t stored_seq = 0;

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
  /// The run has ended: its end is on its way to the writer.
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
bool stored_before(const std::unordered_set<std::string>& keys,
                   const std::string& key) {
  return !keys.empty() && keys.count(key) > 0;
}

// The run as the API shows it now: counts from its totals while live.
run_row row_now(const run_actor_state& st) {
  auto r = st.row;
  if (!final_state(r.state))
    r.counts_json = counts_json(st.totals);
  return r;
}

// The registry's copy (for /metrics and run lists).
void report_live(self_ptr self) {
  auto& st = self->state;
  self->send(st.setup.ctx.registry, live_atom::value, row_now(st),
             static_cast<std::uint64_t>(st.followers.size()));
}

// --- Feeding the session ----------------------------------------------------

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
      .then(
        [self](std::uint64_t) {
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
    ->request(st.setup.ctx.reader, caf::infinite, read_atom::value,
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
  st.totals.accepted += batch.pairs.size();
  st.totals.rejected += batch.rejected.size();
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

// --- Verdict lines
// ------------------------------------------------------------

// Answers the followers whose lines are stored (all of them once `all`).
void wake_followers(self_ptr self, bool all) {
  auto& st = self->state;
  auto now = row_now(st);
  auto& fs = st.followers;
  auto keep = std::remove_if(fs.begin(), fs.end(), [&](auto& f) {
    if (!all && f.after >= st.stored_seq)
      return false;
    f.promise.deliver(now);
    return true;
  });
  bool woken = keep != fs.end();
  fs.erase(keep, fs.end());
  if (woken && !all)
    report_live(self); // the followers waiting, for /metrics
}

// Numbers the lines and sends them to the writer with the counts now; the
// followers hear of them once they are stored.
void store_lines(self_ptr self, std::vector<std::string>& keys,
                 std::vector<std::string>& lines) {
  auto& st = self->state;
  verdict_batch b{st.setup.row.id, st.next_seq, std::move(keys),
                  std::move(lines), counts_json(st.totals)};
  st.next_seq += b.lines.size();
  self->request(st.setup.ctx.writer, caf::infinite, std::move(b))
    .then(
      [self](std::uint64_t last) {
        auto& s = self->state;
        s.stored_seq = std::max(s.stored_seq, last);
        wake_followers(self, false);
      },
      [](caf::error&) {
        // The writer is gone (shutdown): the audit holds the lines.
      });
  report_live(self);
}

void on_verdicts(self_ptr self, std::vector<single_verdict>& vs) {
  auto& st = self->state;
  std::vector<std::string> keys, lines;
  std::uint64_t cast = 0, faulted = 0, skipped = 0;
  for (auto& v : vs)
    st.totals.add(v);
  for (auto& v : vs) {
    auto key = "pair:" + v.pair_id;
    if (stored_before(st.setup.stored_keys, key))
      continue;
    // A vote that faulted was not cast: it is a fault.
    cast += v.counts.equivalent + v.counts.different + v.counts.abstain
            + v.counts.parse_error;
    faulted += v.counts.faults;
    skipped += v.counts.not_cast;
    lines.push_back(with_seq(st.next_seq + lines.size(), pair_verdict_line(v)));
    keys.push_back(std::move(key));
  }
  st.setup.ctx.metrics->record_votes(cast, faulted, skipped);
  store_lines(self, keys, lines);
}

void on_items(self_ptr self, std::vector<statistical_verdict>& vs) {
  auto& st = self->state;
  std::vector<std::string> keys, lines;
  st.totals.summary.items += vs.size();
  for (auto& v : vs) {
    auto key = "item:" + v.item;
    if (stored_before(st.setup.stored_keys, key))
      continue;
    lines.push_back(with_seq(st.next_seq + lines.size(), item_verdict_line(v)));
    keys.push_back(std::move(key));
  }
  store_lines(self, keys, lines);
}

// Live canaries are output lines like the driver's ({"kind":"canary"}),
// never counted as pairs; one resumed is stored once.
void on_canaries(self_ptr self, std::vector<canary_result>& cs) {
  auto& st = self->state;
  std::vector<std::string> keys, lines;
  for (auto& c : cs) {
    auto key = "canary:" + c.id;
    if (stored_before(st.setup.stored_keys, key))
      continue;
    lines.push_back(with_seq(st.next_seq + lines.size(), canary_line(c)));
    keys.push_back(std::move(key));
  }
  store_lines(self, keys, lines);
}

// --- The input: uploads and close
// ----------------------------------------------

caf::error input_refusal(const run_actor_state& st) {
  if (st.finished)
    return run_has_ended(st.row);
  return make_error(errc::run_state, "the run's input is closed");
}

// POST close: the input is complete; item verdicts become due.
run_row close_input(self_ptr self) {
  auto& st = self->state;
  st.input->closed = true;
  st.row.closed = true;
  if (st.row.state == run_state::open)
    st.row.state = run_state::running;
  self->send(st.setup.ctx.writer, input_atom::value, row_now(st));
  st.input_closed = true;
  feed(self);
  report_live(self);
  return row_now(st);
}

// Answers a close once the writer has committed the closed row: a close
// answered 200 survives kill -9 (else the run resumed open, waiting for a
// close its client saw succeed). The writer takes one sender's messages in
// order, and a batch of no lines is answered once everything before it is
// committed.
void answer_when_stored(self_ptr self,
                        caf::typed_response_promise<run_row> promise,
                        run_row row) {
  auto& st = self->state;
  verdict_batch barrier{st.setup.row.id, 1, {}, {}, {}};
  self->request(st.setup.ctx.writer, caf::infinite, std::move(barrier))
    .then(
      [promise, row](std::uint64_t) mutable {
        promise.deliver(std::move(row));
      },
      [promise](caf::error& err) mutable { promise.deliver(std::move(err)); });
}

// Hands the input to the next upload or close waiting, in order.
void serve_input_waits(self_ptr self) {
  auto& st = self->state;
  while (st.input && !st.input_waits.empty()) {
    auto w = std::move(st.input_waits.front());
    st.input_waits.pop_front();
    if (st.finished || (st.input->closed && !w.close)) {
      auto err = input_refusal(st);
      if (w.close)
        w.closing.deliver(err);
      else
        w.upload.deliver(err);
    } else if (w.close) {
      answer_when_stored(self, w.closing, close_input(self));
    } else {
      w.upload.deliver(lend(std::move(st.input), self));
    }
  }
}

caf::result<input_lease_ref> begin_upload(self_ptr self) {
  auto& st = self->state;
  if (!st.input) { // lent: answered once it is back
    st.input_waits.push_back({});
    st.input_waits.back().upload =
      self->make_response_promise<input_lease_ref>();
    return st.input_waits.back().upload;
  }
  if (st.finished || st.input->closed)
    return input_refusal(st);
  return lend(std::move(st.input), self);
}

// An upload gave the input back: what it took is the run's.
void input_back(self_ptr self, input_lease_ref& lease) {
  auto& st = self->state;
  if (!lease.ptr || !lease.ptr->input)
    return;
  st.input = std::move(lease.ptr->input);
  st.row.lines = st.input->intake.lines();
  st.row.accepted = st.totals.accepted;
  if (!st.finished)
    self->send(st.setup.ctx.writer, input_atom::value, row_now(st));
  report_live(self);
  serve_input_waits(self);
}

caf::result<run_row> close_run(self_ptr self) {
  auto& st = self->state;
  if (st.finished)
    return run_has_ended(st.row);
  if (!st.input) { // an upload under way finishes first: its lines are input
    st.input_waits.push_back({});
    st.input_waits.back().close = true;
    st.input_waits.back().closing = self->make_response_promise<run_row>();
    return st.input_waits.back().closing;
  }
  auto promise = self->make_response_promise<run_row>();
  answer_when_stored(self, promise, close_input(self));
  return promise;
}

// --- The end
// -------------------------------------------------------------------

// Its end is saved (or, after SIGTERM, its lines): the registry hears it
// first, so that whoever is told the end next finds it there; then
// everyone waiting is answered and the actor ends.
void on_saved(self_ptr self, run_row saved, bool final) {
  auto& st = self->state;
  st.row = std::move(saved);
  self->send(st.setup.ctx.registry, ended_atom::value, st.row, final);
  wake_followers(self, true);
  for (auto& c : st.cancels)
    c.deliver(st.row);
  st.cancels.clear();
  serve_input_waits(self);
  for (auto& w : st.input_waits) { // the input is lent: refused now
    if (w.close)
      w.closing.deliver(run_has_ended(st.row));
    else
      w.upload.deliver(run_has_ended(st.row));
  }
  st.input_waits.clear();
  self->quit();
}

// The run's end (`s`: its summary; nullptr: the session stopped without
// one), sent to the writer after its lines.
void finish(self_ptr self, const run_summary* s) {
  auto& st = self->state;
  if (st.finished)
    return;
  st.finished = true;
  if (s)
    st.totals.summary = *s;
  auto row = row_now(st);
  row.counts_json = counts_json(st.totals);
  // SIGTERM: the run stays unfinished in the state; the next start resumes.
  bool final = st.cancelled || !st.shutting_down;
  if (final) {
    std::string error = s && !s->error.empty() ? s->error
                        : !st.failures.empty() ? st.failures.front()
                        : !s ? "the run session stopped before the run ended"
                             : std::string{};
    row.state = st.cancelled     ? run_state::cancelled
                : !error.empty() ? run_state::failed
                                 : run_state::done;
    row.error = error;
    row.finished_ms = wall_clock_ms();
    row.final_hash = s ? s->final_hash : std::string{};
  }
  if (st.session)
    self->demonitor(st.session.address());
  st.session = nullptr;
  self->request(st.setup.ctx.writer, caf::infinite, run_end_record{row, final})
    .then([self,
           final](run_row& saved) { on_saved(self, std::move(saved), final); },
          [self, row, final](caf::error&) { on_saved(self, row, final); });
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

caf::result<run_row> cancel_run(self_ptr self, std::string& reason) {
  auto& st = self->state;
  if (st.finished && !st.cancelled) // ended by itself: nothing to cancel
    return run_has_ended(st.row);
  if (!st.cancelled) {
    stop(self, std::move(reason), true);
    // The session first (its calls stop), then the run's batches.
    self->send(st.setup.ctx.registry, cancel_atom::value, st.row.id);
  }
  st.cancels.push_back(self->make_response_promise<run_row>());
  return st.cancels.back();
}

caf::result<run_row> wait_for_lines(self_ptr self, std::uint64_t after,
                                    std::uint64_t wait_ms) {
  auto& st = self->state;
  if (wait_ms == 0 || st.stored_seq > after)
    return row_now(st);
  auto id = st.next_follower++;
  st.followers.push_back({id, after, self->make_response_promise<run_row>()});
  self->delayed_send(self, std::chrono::milliseconds(wait_ms),
                     deadline_atom::value, id);
  report_live(self);
  return st.followers.back().promise;
}

void follower_deadline(self_ptr self, std::uint64_t id) {
  auto& st = self->state;
  auto& fs = st.followers;
  auto i =
    std::find_if(fs.begin(), fs.end(), [&](auto& f) { return f.id == id; });
  if (i == fs.end())
    return;
  i->promise.deliver(row_now(st));
  fs.erase(i);
  report_live(self);
}

void start_session(self_ptr self) {
  auto& st = self->state;
  run_setup setup;
  setup.run_id = st.row.id;
  setup.config = st.setup.config;
  setup.audit_path = st.setup.audit_path;
  setup.directory = st.setup.ctx.directory;
  setup.listener = self;
  setup.progress_interval = std::chrono::milliseconds(500);
  setup.resume = st.setup.resume;
  setup.audit_fd = st.setup.audit_fd;
  st.setup.audit_fd = -1; // the session's from here on
  auto session = spawn_run(*st.setup.ctx.sys, std::move(setup));
  if (!session) {
    st.failures.push_back(render_error(session.error()));
    finish(self, nullptr);
    return;
  }
  st.session = *session;
  self->monitor(st.session);
  self->set_down_handler([self](caf::down_msg& dm) {
    if (self->state.session && dm.source == self->state.session.address())
      finish(self, nullptr);
  });
  if (st.setup.stored_bytes > 0) {
    st.spilled = true;
    st.spill_to = st.setup.stored_bytes;
  }
  st.input_closed = st.row.closed;
  feed(self);
}

daemon_run_actor::behavior_type run_behavior(self_ptr self,
                                             run_actor_setup setup) {
  auto& st = self->state;
  st.setup = std::move(setup);
  st.row = st.setup.row;
  st.totals = st.setup.totals;
  st.input = std::move(*st.setup.input);
  st.setup.input.reset();
  st.next_seq = st.setup.next_seq;
  st.stored_seq = st.next_seq - 1;
  // Ended from outside (the daemon going down past its grace period): the
  // session goes too, with its coordinator and logger.
  self->set_exit_handler([self](caf::exit_msg& m) {
    if (self->state.session)
      self->send_exit(self->state.session, m.reason);
    self->quit(m.reason);
  });
  start_session(self);
  return {
    [](run_started&) {},
    [self](std::vector<single_verdict>& vs) { on_verdicts(self, vs); },
    [self](std::vector<statistical_verdict>& vs) { on_items(self, vs); },
    [self](std::vector<canary_result>& cs) { on_canaries(self, cs); },
    [self](run_progress& p) {
      self->state.totals.summary.judge_calls = p.judge_calls;
      report_live(self);
    },
    [](warning_atom, std::string&) {},
    [self](run_summary& s) { finish(self, &s); },
    [self](append_atom, input_batch& batch, std::uint64_t from,
           std::uint64_t to,
           std::uint64_t line) { on_append(self, batch, from, to, line); },
    [self](get_atom) { return row_now(self->state); },
    [self](wait_atom, std::uint64_t after, std::uint64_t wait_ms) {
      return wait_for_lines(self, after, wait_ms);
    },
    [self](deadline_atom, std::uint64_t id) { follower_deadline(self, id); },
    [self](upload_atom) { return begin_upload(self); },
    [self](upload_atom, input_lease_ref& lease) { input_back(self, lease); },
    [self](end_of_input_atom) { return close_run(self); },
    [self](cancel_atom, std::string& reason) {
      return cancel_run(self, reason);
    },
    [self](shutdown_atom, std::string& reason) {
      stop(self, std::move(reason), false);
    },
  };
}

} // namespace

caf::error run_has_ended(const run_row& row) {
  return make_error(errc::run_ended, "the run has ended ("
                                       + std::string{to_string(row.state)}
                                       + ")");
}

daemon_run_actor spawn_run_actor(run_actor_setup setup) {
  auto& sys = *setup.ctx.sys;
  return sys.spawn(run_behavior, std::move(setup));
}

} // namespace ij
