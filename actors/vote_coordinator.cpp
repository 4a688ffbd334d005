#include "actors/vote_coordinator.hpp"

#include <algorithm>
#include <utility>

#include <caf/typed_event_based_actor.hpp>

#include "core/audit/failover_records.hpp"
#include "core/calibration/calibration.hpp"
#include "core/hosts/worker_fields.hpp"
#include "core/numbers/answer.hpp"
#include "core/verdicts/outcome_mapping.hpp"
#include "core/voting/sequential_stop.hpp"
#include "core/wall_clock.hpp"

namespace ij {

namespace {

using self_ptr =
  vote_coordinator_actor::stateful_pointer<vote_coordinator_state>;
using state = vote_coordinator_state;
using job = state::job;

// How the coordinator names itself to its workers (in each message).
judge_client_actor as_client(self_ptr self) {
  return self;
}

// --- Votes: waves, tallies and results --------------------------------------

// The record of a vote no worker answered: a fault with what the
// coordinator knows of the call.
judge_record unanswered(const judge_info* w, const judge_request& req,
                        std::int64_t started_ms, std::string error,
                        fault_kind kind) {
  judge_record rec;
  rec.pair_id = req.pair_id;
  if (w) {
    rec.prompt_id = req.non_numeric ? w->non_numeric_prompt_id : w->prompt_id;
    set_worker_fields(rec, *w);
  }
  rec.has_seed = req.has_seed;
  rec.seed = req.seed;
  rec.vote_index = req.vote_index;
  rec.swapped = req.swapped;
  rec.decision = judge_decision::parse_error;
  rec.transport_failed = true;
  rec.transport_error = std::move(error);
  rec.fault = kind;
  rec.started_at_ms = started_ms;
  rec.finished_at_ms = wall_clock_ms();
  rec.latency_ms = static_cast<double>(rec.finished_at_ms - started_ms);
  return rec;
}

// The calibrated probability that the pair's answers are equivalent, from
// its counted votes so far; nullopt without a map (or no counted vote).
std::optional<double> pair_probability(const state& st, const job& j) {
  if (!st.settings.calibration)
    return std::nullopt;
  std::vector<vote_evidence> votes;
  votes.reserve(j.records.size());
  for (auto& rec : j.records) {
    if (rec.transport_failed)
      continue;
    auto w = st.worker_index.find(rec.worker_id);
    if (w == st.worker_index.end())
      continue;
    votes.push_back(
      {st.settings.calibration->find(st.schedule.link(w->second).info.judge_id),
       rec.decision, rec.decision_probs});
  }
  return equivalence_probability(votes);
}

// The result of a pair whose voting stopped (core/voting/sequential_stop.hpp).
void finish(state& st, std::uint64_t seq, job& j, stop_reason why,
            std::optional<double> p) {
  voted_pair out;
  out.seq = seq;
  auto& vr = out.result;
  vr.pair_id = j.work.pair.id;
  vr.counts = j.tally.counts();
  if (why == stop_reason::probability)
    vr.outcome =
      probability_outcome(vr.counts, *p, *st.settings.stop_probability);
  else if (st.settings.votes.votes == 1 && j.records.size() == 1)
    vr.outcome =
      outcome_of_record(j.records.front(), st.settings.abstain_as_neither);
  else
    vr.outcome = j.tally.outcome();
  if (p)
    vr.outcome.probability = *p;
  vr.stop = std::string{to_string(why)};
  // Records in vote order, whatever order the workers answered in.
  std::sort(j.records.begin(), j.records.end(),
            [](const judge_record& x, const judge_record& y) {
              return x.vote_index < y.vote_index;
            });
  vr.records = std::move(j.records);
  out.pair = std::move(j.work.pair);
  st.done.push_back(std::move(out));
  st.jobs.erase(seq);
}

// Asks for the next wave of a job, or finishes it once its voting stops.
// With stop.probability a wave is one vote: the probability is looked at
// after each.
void step(state& st, std::uint64_t seq) {
  auto i = st.jobs.find(seq);
  if (i == st.jobs.end())
    return;
  auto& j = i->second;
  if (j.in_flight > 0)
    return; // the wave is not back yet
  auto c = j.tally.counts();
  auto k = st.settings.votes.min_agreement;
  auto left = st.settings.votes.votes - j.asked;
  auto p = pair_probability(st, j);
  auto why = stop_now(j.tally, st.settings.votes.votes, j.asked, p,
                      st.settings.stop_probability);
  if (why != stop_reason::none) {
    finish(st, seq, j, why, p);
    return;
  }
  auto wave = st.settings.stop_probability
                ? 1u
                : std::min(k - std::max(c.equivalent, c.different), left);
  j.asked += wave;
  j.in_flight += wave;
  st.schedule.wait(seq, wave);
}

void count_vote(state& st, std::uint64_t seq, judge_record rec) {
  auto i = st.jobs.find(seq);
  if (i == st.jobs.end())
    return;
  auto& j = i->second;
  --j.in_flight;
  if (rec.transport_failed)
    j.tally.add_fault();
  else
    j.tally.add(rec.decision);
  j.records.push_back(std::move(rec));
  step(st, seq);
}

// --- Scheduling: votes under credits (core/voting/vote_schedule.hpp)
// ---------------

// Arms the deadline timer for whatever is due first (again when something
// became due earlier than the timer on its way).
void arm_timer(self_ptr self) {
  auto at = self->state.schedule.timer_to_arm();
  if (!at)
    return;
  auto now = self->clock().now();
  auto wait = *at > now ? *at - now : caf::actor_clock::duration_type{0};
  self->delayed_send(self, wait, deadline_atom::value);
}

void expire_moved(state& st, schedule_time now);
void expire_starved(state& st, schedule_time now);

// Every outstanding vote past its deadline becomes a fault; so do votes that
// waited for a worker longer than the failover wait.
void expire_votes(self_ptr self) {
  auto& st = self->state;
  auto now = self->clock().now();
  st.schedule.timer_fired(now);
  expire_moved(st, now);
  expire_starved(st, now);
  while (auto v = st.schedule.next_expired(now))
    count_vote(st, v->seq,
               unanswered(&st.schedule.link(v->worker).info, v->meta,
                          v->started_ms, "deadline exceeded",
                          fault_kind::deadline));
}

// Queues vote `meta` of job `seq` for worker `wi` under one of its credits
// (sent at the end of the message): the call carries the answers, the
// schedule keeps the request without them.
void send_vote(self_ptr self, std::uint64_t seq, const answer_pair& pair,
               judge_request meta, std::size_t wi) {
  auto& st = self->state;
  judge_call call{0, meta};
  call.request.a = meta.swapped ? pair.b : pair.a;
  call.request.b = meta.swapped ? pair.a : pair.b;
  call.request.problem = pair.problem;
  call.token = st.schedule.sent(seq, wi, std::move(meta), wall_clock_ms(),
                                self->clock().now());
  st.schedule.link(wi).outgoing.push_back(std::move(call));
}

// Sends the next vote of job `seq` to worker `wi`: its index, the worker's
// seed for it, A and B swapped on odd votes with order balancing.
void dispatch(self_ptr self, std::uint64_t seq, job& j, std::size_t wi) {
  auto& st = self->state;
  auto& info = st.schedule.link(wi).info;
  if (auto m = st.schedule.meter(info.judge_id))
    m->count_call();
  auto vote_index = j.dispatched++;
  judge_request meta;
  meta.pair_id = j.work.pair.id;
  meta.vote_index = vote_index;
  meta.swapped = st.settings.order_balancing && vote_index % 2 == 1;
  meta.pair_seq = seq;
  meta.run_tag = st.settings.run_tag;
  meta.non_numeric = j.work.non_numeric;
  if (info.has_seed) {
    meta.has_seed = true;
    meta.seed = info.seed + static_cast<std::int64_t>(vote_index);
  }
  send_vote(self, seq, j.work.pair, std::move(meta), wi);
}

// Whether the bias alarm stopped every judge of the run (no worker that
// joins later would be used).
bool all_judges_stopped(const state& st) {
  return !st.stopped_judges.empty()
         && std::all_of(st.judge_ids.begin(), st.judge_ids.end(),
                        [&](const std::string& id) {
                          return st.stopped_judges.count(id) > 0;
                        });
}

// The oldest waiting vote becomes a fault record with `error`, without a
// call (attributed to `who` when a worker's judge refused it).
void fault_oldest_waiting(state& st, const judge_info* who,
                          const std::string& error, fault_kind kind) {
  auto seq = st.schedule.take_waiting();
  auto i = st.jobs.find(seq);
  if (i == st.jobs.end())
    return;
  judge_request meta;
  meta.pair_id = i->second.work.pair.id;
  meta.vote_index = i->second.dispatched++;
  meta.non_numeric = i->second.work.non_numeric;
  auto rec = unanswered(who, meta, wall_clock_ms(), error, kind);
  rec.latency_ms = 0.0;
  count_vote(st, seq, std::move(rec));
}

// The oldest waiting vote becomes a budget fault, recorded as the judge's.
void refuse_at_budget(state& st, std::size_t wi) {
  auto& info = st.schedule.link(wi).info;
  fault_oldest_waiting(st, &info,
                       "budget reached: judge " + info.name + ": "
                         + st.schedule.meter(info.judge_id)->why(),
                       fault_kind::budget);
}

void place_moved(self_ptr self);

// Places waiting votes under the credits held, moved votes first. With no
// worker at all, waiting votes wait for one (a host coming back) for the
// failover wait, then are faults (expire_starved).
void place_votes(self_ptr self) {
  auto& st = self->state;
  place_moved(self);
  st.schedule.track_starvation(self->clock().now());
  while (!st.schedule.backlog_empty()) {
    if (!st.schedule.any_alive() && all_judges_stopped(st)) {
      // The bias alarm stopped every judge of the run: no worker will take
      // these votes, so they are faults now, not after the failover wait.
      fault_oldest_waiting(st, nullptr,
                           "no worker serves the run's judges (judge stopped: "
                             + st.stopped_judges.begin()->second + ")",
                           fault_kind::unavailable);
      continue;
    }
    if (auto spent = st.schedule.all_at_budget()) {
      refuse_at_budget(st, *spent);
      continue;
    }
    auto wi = st.schedule.pick_for_waiting();
    if (!wi)
      return;
    auto seq = st.schedule.take_waiting();
    auto i = st.jobs.find(seq);
    if (i != st.jobs.end())
      dispatch(self, seq, i->second, *wi);
  }
}

// Tells each worker what it needs to know after a message: the calls placed
// with it, the votes still waiting (demand), and credits not needed.
void talk_to_workers(self_ptr self) {
  auto& st = self->state;
  auto wanted = st.schedule.wanted();
  for (std::size_t wi = 0; wi < st.schedule.workers(); ++wi) {
    if (!st.schedule.worker(wi).alive)
      continue;
    auto& w = st.schedule.link(wi);
    if (!w.outgoing.empty())
      self->send(w.actor, as_client(self), std::move(w.outgoing));
    w.outgoing.clear();
    if (auto unneeded = st.schedule.unneeded_credits(wi))
      self->send(w.actor, release_atom::value, as_client(self), unneeded);
    if (auto demand = st.schedule.demand_change(wi, wanted))
      self->send(w.actor, demand_atom::value, as_client(self), *demand);
  }
}

// The end of every message: place votes, talk to workers, deliver results.
void settle(self_ptr self) {
  auto& st = self->state;
  if (st.cancelled)
    return;
  place_votes(self);
  talk_to_workers(self);
  arm_timer(self);
  // Notes first: a vote's move is recorded before its pair's records.
  if (!st.notes.empty()) {
    self->send(st.sink, std::move(st.notes));
    st.notes.clear();
  }
  if (!st.done.empty()) {
    self->send(st.sink, std::move(st.done));
    st.done.clear();
  }
}

void add_job(state& st, vote_job& work) {
  auto& pair = work.pair;
  if (is_absent(pair.a) || is_absent(pair.b)) {
    auto result = absent_result(pair.id, st.settings.votes);
    st.done.push_back(voted_pair{work.seq, std::move(pair), std::move(result)});
    return;
  }
  auto seq = work.seq;
  st.jobs.emplace(
    seq, job{std::move(work), vote_tally{st.settings.votes}, 0, 0, 0, {}});
  step(st, seq);
}

void note_late(state& st, judge_reply& r);
void drop_late(self_ptr self, const state::worker_link& w, worker_update& u);
void on_cancelled_update(self_ptr self, state::worker_link& w,
                         worker_update& u);

void on_update(self_ptr self, worker_update& u) {
  auto& st = self->state;
  auto i = st.worker_index.find(u.worker_id);
  if (i == st.worker_index.end())
    return; // not one of ours (anymore)
  auto wi = i->second;
  auto& w = st.schedule.link(wi);
  for (auto& r : u.replies)
    set_worker_fields(r.record, w.info);
  if (st.cancelled)
    return on_cancelled_update(self, w, u);
  if (!st.schedule.worker(wi).alive) {
    drop_late(self, w, u);
    return;
  }
  st.schedule.grant(wi, u.credits, u.capacity);
  // Votes the worker queued wait without a deadline; those that left its
  // queue have one from now (issue 31).
  for (auto token : u.queued)
    st.schedule.hold(token, wi);
  auto now = self->clock().now();
  for (auto token : u.started)
    st.schedule.start(token, wi, now);
  for (auto& r : u.replies) {
    auto seq = st.schedule.answered(r.token, wi, r.record.transport_failed);
    if (!seq) {
      // Expired, or its vote moved while the worker was away: dropped.
      note_late(st, r);
      continue;
    }
    if (auto m = st.schedule.meter(w.info.judge_id))
      m->count_tokens(r.record.input_tokens, r.record.output_tokens,
                      r.record.batched);
    count_vote(st, *seq, std::move(r.record));
  }
}

void add_worker(state& st, const worker_entry& e) {
  if (st.judge_ids.count(e.info.judge_id) == 0
      || st.stopped_judges.count(e.info.judge_id) != 0
      || (st.selection && !st.selection->takes(e.info)))
    return;
  auto i = st.worker_index.find(e.info.worker_id);
  if (i != st.worker_index.end()) {
    auto& w = st.schedule.link(i->second);
    w.actor = e.worker;
    w.info = e.info;
    st.schedule.rejoin(i->second, e.info.judge_id);
    return;
  }
  st.worker_index[e.info.worker_id] = st.schedule.add_worker(
    e.info.judge_id, e.info.capacity, state::worker_link{e.worker, e.info, {}});
}

// --- Failover (judge hosts) -------------------------------------------------

void note(state& st, audit_type type, const std::string& host, std::string body,
          std::string event = {}) {
  st.notes.push_back(run_note{type, host, std::move(event), std::move(body)});
}

// A reply from a worker after its vote had moved (or expired): recorded when
// the vote moved, never counted.
void note_late(state& st, judge_reply& r) {
  auto m = st.moved_tokens.find(r.token);
  if (m == st.moved_tokens.end())
    return; // expired: its fault record is already counted
  st.moved_tokens.erase(m);
  note(st, audit_type::late_reply, r.record.host, late_reply_body(r.record));
}

// A worker that left still talks (its host hung and came back): its replies
// are late, its credits go back, it hears that we want nothing more.
void drop_late(self_ptr self, const state::worker_link& w, worker_update& u) {
  auto& st = self->state;
  for (auto& r : u.replies)
    note_late(st, r);
  if (u.credits > 0)
    self->send(w.actor, release_atom::value, as_client(self), u.credits);
}

// Moved votes go to a worker of their judge with a credit, oldest first,
// again with their own vote index, seed and swap; the others keep waiting.
void place_moved(self_ptr self) {
  self->state.schedule.place_moved([&](moved_vote& m, std::size_t wi) {
    auto j = self->state.jobs.find(m.seq);
    if (j != self->state.jobs.end())
      send_vote(self, m.seq, j->second.work.pair, std::move(m.meta), wi);
  });
}

// Moved votes no worker of their judge took in time are faults.
void expire_moved(state& st, schedule_time now) {
  while (auto m = st.schedule.next_moved_expired(now))
    count_vote(st, m->seq,
               unanswered(nullptr, m->meta, wall_clock_ms(),
                          "no worker serves judge " + m->judge_id
                            + " any more (waited "
                            + std::to_string(st.settings.failover_wait.count())
                            + " ms after its worker left)",
                          fault_kind::unavailable));
}

// With no worker at all for the failover wait, waiting votes are faults.
void expire_starved(state& st, schedule_time now) {
  if (!st.schedule.starvation_over(now))
    return;
  while (!st.schedule.backlog_empty())
    fault_oldest_waiting(st, nullptr, "no worker serves the run's judges",
                         fault_kind::unavailable);
}

// We want nothing more from worker `wi` (it serves other runs, or lives on
// behind a host that hung): its credits go back, our demand is zero.
void let_go(self_ptr self, std::size_t wi) {
  auto& w = self->state.schedule.link(wi);
  auto gone = self->state.schedule.let_go(wi);
  if (gone.credits > 0)
    self->send(w.actor, release_atom::value, as_client(self), gone.credits);
  if (gone.zero_demand)
    self->send(w.actor, demand_atom::value, as_client(self), std::uint32_t{0});
}

// A worker left: its outstanding votes move (to another worker of the same
// judge, when one takes them), its credits are gone; it hears that we want
// nothing more, in case it lives on behind a host that hung.
void lose_worker(self_ptr self, const std::string& id, const std::string& why) {
  auto& st = self->state;
  auto i = st.worker_index.find(id);
  if (i == st.worker_index.end() || !st.schedule.worker(i->second).alive)
    return;
  auto wi = i->second;
  auto& info = st.schedule.link(wi).info;
  let_go(self, wi);
  st.schedule.worker(wi).alive = false;
  st.schedule.link(wi).outgoing.clear();
  auto now = self->clock().now();
  for (auto& p : st.schedule.take_outstanding(wi)) {
    st.moved_tokens.emplace(p.token, info.worker_id);
    note(st, audit_type::vote_moved, info.host,
         vote_moved_body({p.meta.pair_id, p.meta.vote_index, p.meta.has_seed,
                          p.meta.seed, info.judge_id, info.worker_id, info.host,
                          why}));
    st.schedule.move(std::move(p), info.judge_id, now);
  }
}

void on_host_event(state& st, const host_event& e) {
  note(st, audit_type::host, e.host, host_event_body(e), to_string(e.kind));
}

// --- Stopped judges (the bias alarm's stop-judge) ---------------------------

// The bias alarm stopped a judge: its workers get no more calls in this run,
// and their outstanding votes are faults (a stopped judge's votes never
// move).
void stop_judge(self_ptr self, const std::string& judge_id,
                const std::string& why) {
  auto& st = self->state;
  if (!st.stopped_judges.emplace(judge_id, why).second)
    return;
  auto error = "judge stopped: " + why;
  for (std::size_t wi = 0; wi < st.schedule.workers(); ++wi) {
    auto& info = st.schedule.link(wi).info;
    if (info.judge_id != judge_id || !st.schedule.worker(wi).alive)
      continue;
    let_go(self, wi);
    st.schedule.worker(wi).alive = false;
    for (auto& p : st.schedule.take_outstanding(wi))
      count_vote(st, p.seq,
                 unanswered(&info, p.meta, p.started_ms, error,
                            fault_kind::unavailable));
  }
}

// --- Status and cancel ------------------------------------------------------

std::vector<worker_load> loads(const state& st) {
  std::vector<worker_load> out;
  for (std::size_t wi = 0; wi < st.schedule.workers(); ++wi) {
    auto& info = st.schedule.link(wi).info;
    auto& w = st.schedule.worker(wi);
    out.push_back(worker_load{info.worker_id, info.name, w.capacity,
                              info.capacity, w.outstanding, w.alive, info.host,
                              w.served, w.faults});
  }
  return out;
}

// Answers the cancel once every call in flight is settled.
void maybe_answer_cancel(self_ptr self) {
  auto& st = self->state;
  if (!st.cancel_reply || !st.cancelled_calls.settled())
    return;
  st.cancel_reply->deliver(st.cancelled_calls.result());
  st.cancel_reply.reset();
}

// The judge id of the worker a record names ("" for none of ours).
std::string judge_of(const state& st, const judge_record& rec) {
  auto w = st.worker_index.find(rec.worker_id);
  return w == st.worker_index.end() ? std::string{}
                                    : st.schedule.link(w->second).info.judge_id;
}

caf::result<std::vector<unrecorded_calls>> cancel(self_ptr self) {
  auto& st = self->state;
  if (st.cancelled)
    return st.cancelled_calls.result();
  st.cancelled = true;
  auto& account = st.cancelled_calls;
  for (auto& [seq, j] : st.jobs)
    for (auto& rec : j.records)
      account.dropped(judge_of(st, rec), rec);
  for (std::size_t wi = 0; wi < st.schedule.workers(); ++wi) {
    if (!st.schedule.worker(wi).alive)
      continue;
    for (auto& p : st.schedule.take_outstanding(wi))
      account.awaiting(p.token, wi, st.schedule.link(wi).info.judge_id);
    // The worker drops our credits and demand itself.
    st.schedule.let_go(wi);
    self->send(st.schedule.link(wi).actor, cancel_atom::value, as_client(self));
  }
  st.jobs.clear();
  st.schedule.clear();
  st.done.clear();
  st.notes.clear();
  if (account.settled())
    return account.result();
  st.cancel_reply =
    self->make_response_promise<std::vector<unrecorded_calls>>();
  st.cancel_until = self->clock().now() + st.settings.abort_wait;
  self->delayed_send(self, st.settings.abort_wait, deadline_atom::value);
  return *st.cancel_reply;
}

// After the cancel: what workers say of the calls they were aborting
// settles them; credits they had granted meanwhile go back.
void on_cancelled_update(self_ptr self, state::worker_link& w,
                         worker_update& u) {
  auto& st = self->state;
  for (auto& r : u.replies)
    st.cancelled_calls.answered(r.token, r.record);
  if (u.credits > 0)
    self->send(w.actor, release_atom::value, as_client(self), u.credits);
  maybe_answer_cancel(self);
}

void on_deadline(self_ptr self) {
  auto& st = self->state;
  if (st.cancelled) {
    // The wait for the workers' word is over: their calls count as sent.
    if (st.cancel_reply && self->clock().now() >= st.cancel_until)
      st.cancelled_calls.give_up();
    maybe_answer_cancel(self);
    return;
  }
  expire_votes(self);
  settle(self);
}

void on_left(self_ptr self, const std::string& id, const std::string& why) {
  auto& st = self->state;
  if (st.cancelled) {
    // A worker gone before it said: its calls count as sent.
    if (auto i = st.worker_index.find(id); i != st.worker_index.end())
      st.cancelled_calls.worker_gone(i->second);
    maybe_answer_cancel(self);
    return;
  }
  lose_worker(self, id, why);
  settle(self);
}

} // namespace

vote_coordinator_actor::behavior_type vote_coordinator(
  vote_coordinator_actor::stateful_pointer<vote_coordinator_state> self,
  vote_sink_actor sink, judge_directory_actor directory,
  std::vector<std::string> judge_ids, std::vector<worker_entry> workers,
  vote_settings settings) {
  auto& st = self->state;
  st.sink = std::move(sink);
  st.settings = std::move(settings);
  st.schedule = {st.settings.deadline, st.settings.failover_wait,
                 std::move(st.settings.budgets)};
  st.judge_ids.insert(judge_ids.begin(), judge_ids.end());
  for (auto& e : workers)
    add_worker(st, e);
  if (directory)
    self
      ->request(directory, caf::infinite, subscribe_atom::value,
                directory_listener_actor{self})
      .then(
        [=](std::vector<worker_entry>& now) {
          for (auto& e : now)
            add_worker(self->state, e);
          settle(self);
        },
        [](caf::error&) {
          // Without the directory the workers given at spawn are all we use.
        });
  return {
    [=](std::vector<vote_job>& work) {
      for (auto& w : work)
        add_job(self->state, w);
      settle(self);
    },
    [=](worker_update& u) {
      on_update(self, u);
      settle(self);
    },
    [=](deadline_atom) { on_deadline(self); },
    [=](joined_atom, worker_entry& e) {
      add_worker(self->state, e);
      settle(self);
    },
    [=](left_atom, std::string& id, std::string& why) {
      on_left(self, id, why);
    },
    [=](host_event& e) {
      on_host_event(self->state, e);
      settle(self);
    },
    [=](cancel_atom) { return cancel(self); },
    [=](stop_judge_atom, std::string& judge_id, std::string& why) {
      stop_judge(self, judge_id, why);
      settle(self);
    },
    [=](status_atom) { return loads(self->state); },
  };
}

} // namespace ij

namespace ij {

vote_coordinator_actor::behavior_type selective_vote_coordinator(
  vote_coordinator_actor::stateful_pointer<vote_coordinator_state> self,
  vote_sink_actor sink, judge_directory_actor directory,
  judge_selection selection, std::vector<worker_entry> workers,
  vote_settings settings) {
  auto ids = selection.judge_ids();
  self->state.selection = std::move(selection);
  return vote_coordinator(self, std::move(sink), std::move(directory),
                          std::move(ids), std::move(workers),
                          std::move(settings));
}

} // namespace ij
