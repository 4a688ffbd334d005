#include "actors/run_session.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <set>
#include <utility>

#include <unistd.h>

#include <caf/send.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "actors/audit_file.hpp"
#include "actors/audit_logger.hpp"
#include "actors/vote_router.hpp"
#include "core/agreement/cascade_policy.hpp"
#include "core/audit/audit_record.hpp"
#include "core/audit/run_manifest.hpp"
#include "core/budgets/run_budgets.hpp"
#include "core/config/batch_settings.hpp"
#include "core/guard/pair_guard.hpp"
#include "core/hosts/worker_key.hpp"
#include "core/hosts/worker_selection.hpp"
#include "core/numbers/answer.hpp"
#include "core/session/run_id.hpp"
#include "core/session/run_tag.hpp"
#include "core/session/run_warnings.hpp"
#include "core/verdicts/verdict_table.hpp"
#include "core/wall_clock.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

using self_ptr = run_session_actor::stateful_pointer<run_session_state>;
using pending_write = run_session_state::pending_write;

// How long a cancelled run waits for its coordinator's account of the calls
// (the coordinator itself waits at most its abort_wait for the workers).
constexpr auto cancel_wait = std::chrono::seconds(10);

void fail_run(self_ptr self, const caf::error& err);
void maybe_end(self_ptr self);

// Whatever ends the session ends `child`, an actor it spawned (the exit hook
// outlives the state).
template <class Handle>
void end_with_session(self_ptr self, Handle child) {
  self->attach_functor([child](const caf::error&) {
    caf::anon_send_exit(child, caf::exit_reason::user_shutdown);
  });
}

audit_entry entry(audit_type type, std::string body) {
  return {type, std::move(body)};
}

// The run as its listener sees it now (state, pairs taken in and written,
// I2 faults, judge calls), without the workers' loads.
run_progress snapshot(const run_session_state& st) {
  run_progress p;
  p.run_id = st.setup.run_id;
  p.state = std::string{st.phase.name()};
  p.admitted = st.window.admitted();
  p.released = st.window.released();
  p.faults = st.totals.summary().by_rule[1];
  p.judge_calls = st.totals.summary().judge_calls;
  return p;
}

// --- Audit writes: every record goes through here, in order ---------------

// Releases what a written batch rests on; the logger answers in write order.
void on_written(self_ptr self, std::uint64_t seq, std::string& hash) {
  auto& st = self->state;
  if (st.phase.ended() || st.writes.empty())
    return;
  auto w = std::move(st.writes.front());
  st.writes.pop_front();
  st.totals.summary().audit_lines = seq;
  st.totals.summary().final_hash = std::move(hash);
  st.window.release(w.verdicts.size());
  if (st.setup.listener) {
    if (!w.verdicts.empty())
      self->send(st.setup.listener, std::move(w.verdicts));
    if (!w.items.empty())
      self->send(st.setup.listener, std::move(w.items));
    if (!w.canaries.empty())
      self->send(st.setup.listener, std::move(w.canaries));
  }
  if (w.last) {
    st.phase.end();
    if (st.setup.batch_journal)
      st.setup.batch_journal->unbind();
    if (st.setup.listener)
      self->send(st.setup.listener, st.totals.summary());
    self->quit();
    return;
  }
  if (st.window.has_room()) {
    for (auto& p : st.held)
      p.deliver(st.window.admitted());
    st.held.clear();
  }
  maybe_end(self);
}

void write(self_ptr self, audit_batch batch, pending_write what) {
  auto& st = self->state;
  st.writes.push_back(std::move(what));
  self->request(st.logger, caf::infinite, std::move(batch))
    .then([=](std::uint64_t seq,
              std::string& hash) { on_written(self, seq, hash); },
          [=](caf::error& err) { fail_run(self, err); });
}

// --- The run's end ---------------------------------------------------------

void write_run_end(self_ptr self) {
  auto& st = self->state;
  st.phase.finish();
  auto unfinished = st.window.unfinished();
  auto& sum = st.totals.summary();
  sum.unfinished = unfinished.size();
  sum.open_items = st.items.open_items();
  st.totals.fill_end_parts(st.setup.config);
  if (st.canaries)
    sum.canary_tallies = st.canaries->tallies();
  sum.position_bias = st.position_bias.rates(st.setup.config.stats.alpha);
  sum.fault_reasons = st.totals.fault_reasons();
  audit_batch batch;
  batch.durable = true;
  batch.last = true;
  batch.entries.push_back(entry(
    audit_type::run_end,
    run_end_body(sum, unfinished, static_cast<std::uint32_t>(sum.open_items))));
  pending_write w;
  w.last = true;
  write(self, std::move(batch), std::move(w));
}

void maybe_end(self_ptr self) {
  auto& st = self->state;
  if (st.phase.may_end(st.window.all_decided()
                       && (!st.canaries || st.canaries->open() == 0)))
    write_run_end(self);
}

void fail_run(self_ptr self, const caf::error& err) {
  auto& st = self->state;
  if (!st.phase.end())
    return;
  st.totals.summary().error = render_error(err);
  st.totals.summary().fault_reasons = st.totals.fault_reasons();
  for (auto& w : st.waiting)
    w.promise.deliver(err);
  st.waiting.clear();
  for (auto& p : st.held)
    p.deliver(err);
  st.held.clear();
  // Its workers abort its calls; the account it answers has nobody to go to.
  if (st.coordinator)
    caf::anon_send(st.coordinator, cancel_atom::value);
  if (st.setup.batch_journal)
    st.setup.batch_journal->unbind();
  if (st.setup.listener)
    self->send(st.setup.listener, st.totals.summary());
  self->quit();
}

// The coordinator's account of the calls no record will show (issue 26),
// then the run-end record, which counts them.
void end_cancelled(self_ptr self) {
  auto& st = self->state;
  st.cancelling = true;
  self->request(st.coordinator, cancel_wait, cancel_atom::value)
    .then(
      [=](std::vector<unrecorded_calls>& calls) {
        self->state.cancelling = false;
        self->state.totals.add_unrecorded(calls);
        write_run_end(self);
      },
      [=](caf::error&) {
        // No account (the coordinator is gone): the records' counts stand.
        self->state.cancelling = false;
        write_run_end(self);
      });
}

void cancel_run(self_ptr self, std::string reason) {
  auto& st = self->state;
  auto answer = st.phase.cancel();
  if (answer == session_phase::cancel_answer::ignore)
    return;
  st.totals.summary().interrupted = true;
  st.totals.summary().stop_reason = std::move(reason);
  if (answer == session_phase::cancel_answer::defer)
    return; // the run-end record follows the manifest (on_manifest_written)
  // Nothing more is written; voted pairs still arriving are dropped.
  st.phase.finish();
  for (auto& p : st.held)
    p.deliver(make_error(errc::run_ended, "the run was cancelled: "
                                            + st.totals.summary().stop_reason));
  st.held.clear();
  end_cancelled(self);
}

// --- Input -----------------------------------------------------------------

void record_rejected(self_ptr self, std::vector<rejected_line>& lines) {
  if (lines.empty())
    return;
  auto& st = self->state;
  audit_batch batch;
  for (auto& r : lines)
    if (!st.setup.resume || st.setup.resume->rejected_lines.count(r.line) == 0)
      batch.entries.push_back(
        entry(audit_type::rejected, rejected_body(r.file, r.line, r.reason)));
  if (batch.entries.empty())
    return; // all recorded before the resume
  st.totals.add_rejected(batch.entries.size());
  write(self, std::move(batch), {});
}

// A resumed run's pair decided in the audit counts for its item as recorded,
// with no call or record, and its verdict goes out again (the client may have
// lost it): true. False: the pair is to be judged. An error: the pair has
// other answers than the audit's (the run fails).
caf::expected<bool> decided_before(run_session_state& st,
                                   const answer_pair& pair,
                                   std::vector<single_verdict>& again) {
  if (!st.setup.resume)
    return false;
  auto& pairs = st.setup.resume->pairs;
  auto it = pairs.find(pair.id);
  if (it == pairs.end())
    return false;
  auto& answers = st.setup.resume->answers;
  if (auto known = answers.find(pair.id);
      known != answers.end()
      && known->second != answers_fingerprint(pair.a, pair.b))
    return make_error(
      errc::bad_input,
      "pair " + pair.id
        + " has other answers (A or B) than "
          "the pair of that id the resumed audit decided: resume "
          "with the run's own pairs");
  st.items.admit(it->second.item);
  st.items.decide(it->second.item, it->second.rule,
                  it->second.outcome.probability);
  again.push_back(it->second);
  return true;
}

// Item verdicts a resumed run's audit already holds are not written again,
// only released to the client (`again`).
void split_closed_items(const run_session_state& st,
                        std::vector<statistical_verdict>& due,
                        std::vector<statistical_verdict>& again) {
  if (!st.setup.resume)
    return;
  auto& closed = st.setup.resume->closed_items;
  auto first = std::stable_partition(
    due.begin(), due.end(), [&](auto& v) { return closed.count(v.item) == 0; });
  std::move(first, due.end(), std::back_inserter(again));
  due.erase(first, due.end());
}

void on_voted(self_ptr self, std::vector<voted_pair>& done);

// Screening and planted verdicts (core/guard/pair_guard.hpp): a pair no judge
// is to be asked about gets its result here, without a call. False when `job`
// is answered.
bool guard(run_session_state& st, vote_job& job,
           std::vector<voted_pair>& unjudged_pairs) {
  auto& pair = job.pair;
  if (!st.guard || is_absent(pair.a) || is_absent(pair.b))
    return true; // rule I1, in the coordinator
  auto result = st.guard->admit(job.seq, pair.id, pair.a, pair.b, job.flags);
  if (!result)
    return true;
  unjudged_pairs.push_back(
    voted_pair{job.seq, std::move(pair), std::move(*result)});
  return false;
}

void admit(self_ptr self, input_batch& in) {
  auto& st = self->state;
  record_rejected(self, in.rejected);
  std::vector<vote_job> jobs;
  std::vector<voted_pair> unjudged_pairs;
  jobs.reserve(in.pairs.size());
  std::vector<single_verdict> again;
  for (auto& pair : in.pairs) {
    if (pair.item.empty())
      pair.item = pair.id;
    // A canary goes before the pair when the plan puts one at its position;
    // a resumed run places them as the run did (decided pairs count) and
    // skips the ones its audit holds.
    // Sequence numbers follow the input's positions, whatever the audit
    // already holds: a resumed run numbers every pair and canary as the run
    // did, and a batched judge's custom_ids are made of them.
    auto position = st.window.take_position();
    if (st.canaries && st.canaries->planned(position)) {
      auto canary_seq = st.window.take_seq();
      if (auto canary = st.canaries->before(position, canary_seq))
        jobs.push_back(std::move(*canary));
    }
    auto seq = st.window.take_seq();
    auto before = decided_before(st, pair, again);
    if (!before) {
      fail_run(self, before.error());
      return;
    }
    if (*before)
      continue;
    st.window.admit(seq, pair.id);
    st.items.admit(pair.item);
    vote_job job{seq, std::move(pair), {}, false};
    if (guard(st, job, unjudged_pairs))
      jobs.push_back(std::move(job));
  }
  if (!jobs.empty())
    self->send(st.coordinator, std::move(jobs));
  if (!unjudged_pairs.empty())
    on_voted(self, unjudged_pairs);
  if (!again.empty() && st.setup.listener)
    self->send(st.setup.listener, std::move(again));
}

// The reply to an input batch: at once while the window has room.
caf::result<std::uint64_t> answer_input(self_ptr self) {
  auto& st = self->state;
  if (st.window.has_room())
    return st.window.admitted();
  auto promise = self->make_response_promise<std::uint64_t>();
  st.held.push_back(promise);
  return promise;
}

// The input is complete: every item whose pairs are all decided is due.
void end_input(self_ptr self) {
  auto& st = self->state;
  auto due = st.items.end_input();
  std::vector<statistical_verdict> again;
  split_closed_items(st, due, again);
  if (!again.empty() && st.setup.listener)
    self->send(st.setup.listener, std::move(again));
  if (!due.empty()) {
    audit_batch batch;
    batch.durable = true;
    for (auto& v : due)
      batch.entries.push_back(
        entry(audit_type::item_verdict, item_verdict_body(v)));
    st.totals.add_items(due.size());
    pending_write w;
    w.items = std::move(due);
    write(self, std::move(batch), std::move(w));
  }
  maybe_end(self);
}

caf::result<std::uint64_t> on_input(self_ptr self, input_batch& in) {
  auto& st = self->state;
  auto& sum = st.totals.summary();
  switch (st.phase.on_input()) {
    case session_phase::input_answer::refused_ended:
      return make_error(errc::run_ended,
                        sum.interrupted
                          ? "the run was cancelled: " + sum.stop_reason
                          : std::string{"no more pairs are taken"});
    case session_phase::input_answer::refused_closed:
      return make_error(errc::run_state, "the input was already closed");
    case session_phase::input_answer::wait: {
      auto promise = self->make_response_promise<std::uint64_t>();
      st.waiting.push_back({std::move(in), promise});
      return promise;
    }
    case session_phase::input_answer::admit: break;
  }
  admit(self, in);
  if (st.phase.ended()) // the input failed the run
    return make_error(errc::bad_input, st.totals.summary().error);
  return answer_input(self);
}

// --- Votes in: verdicts and their records ----------------------------------

// Records of moved votes, late replies and host events: written in order
// with the pairs' records, counted in the run-end totals.
void on_notes(self_ptr self, std::vector<run_note>& notes) {
  auto& st = self->state;
  if (!st.phase.writes_records() || notes.empty())
    return; // nothing is written after the run-end record
  audit_batch batch;
  for (auto& n : notes) {
    st.totals.add_note(n.type, n.host, n.event);
    batch.entries.push_back(entry(n.type, std::move(n.body)));
  }
  write(self, std::move(batch), {});
}

// One pair's verdict; the pair and its votes go on to the logger, which
// renders their records (judge calls, vote, verdict).
single_verdict decide_pair(run_session_state& st, voted_pair& vp,
                           audit_batch& batch) {
  auto& vr = vp.result;
  auto d = single_invariance_verdict(vr.absent, vr.outcome);
  single_verdict v{vp.pair.id, vp.pair.item, d.verdict,    d.rule,
                   vr.outcome, vr.counts,    vp.pair.label};
  st.totals.add_pair(vr, vp.pair.label, d.rule);
  if (st.setup.config.cascade && vr.parts.size() == 2
      && cascade_disagrees(vr.parts[0].outcome, vr.parts[1].outcome))
    batch.entries.push_back(entry(audit_type::cascade_disagreement,
                                  cascade_disagreement_body(vp.pair, vr)));
  st.window.decide(vp.seq);
  batch.pairs.push_back(
    decided_pair{std::move(vp.pair), std::move(vr), d.verdict, d.rule});
  return v;
}

// A backend that refuses a judge's credentials is a configuration problem,
// not a passing fault: the listener hears of it once per worker, in the
// words of the record (which say what to check).
void warn_on_refused_credentials(self_ptr self, const vote_result& vr) {
  auto& st = self->state;
  for (auto& rec : vr.records) {
    if (rec.fault != fault_kind::auth
        || !st.credentials_warned.insert(rec.worker_id).second)
      continue;
    auto judge = std::find_if(st.judges.begin(), st.judges.end(), [&](auto& j) {
      return j.worker_id == rec.worker_id;
    });
    auto name = judge == st.judges.end() ? rec.worker_id : judge->name;
    if (st.setup.listener)
      self->send(st.setup.listener, warning_atom::value,
                 "judge " + name + ": " + rec.transport_error);
  }
}

// A canary back from its votes: its records go to the logger with the
// batch; it counts in calls and tokens, never in pairs or items.
std::vector<bias_alarm_event> take_canary(run_session_state& st, voted_pair& vp,
                                          audit_batch& batch,
                                          pending_write& w) {
  auto judged = st.canaries->take(vp, [&st](const std::string& worker) {
    return st.totals.judge_of(worker);
  });
  st.totals.add_canary(vp.result, judged.alarms);
  for (auto& e : judged.entries)
    batch.entries.push_back(std::move(e));
  w.canaries.push_back(std::move(judged.result));
  return std::move(judged.alarms);
}

// What an alarm does once its record is on its way: a warning always, then
// the declared action.
void act_on_alarms(self_ptr self, const std::vector<bias_alarm_event>& alarms) {
  auto& st = self->state;
  for (auto& a : alarms) {
    char llr[64];
    std::snprintf(llr, sizeof llr, "%.2f >= %.2f", a.llr, a.threshold);
    auto why = "bias alarm: judge " + a.judge + " fails canaries (" + a.mode
               + ": " + std::to_string(a.failures) + " of "
               + std::to_string(a.observations)
               + " of that kind; sequential test log-likelihood ratio " + llr
               + ") at canary " + std::to_string(a.at_canary)
               + "; action: " + std::string{to_string(a.action)};
    if (st.setup.listener)
      self->send(st.setup.listener, warning_atom::value, why);
    if (a.action == alarm_action::stop_judge) {
      for (auto& j : st.judges)
        if (j.name == a.judge)
          self->send(st.coordinator, stop_judge_atom::value, j.judge_id,
                     "bias alarm on " + a.judge + " (" + a.mode + ")");
    } else if (a.action == alarm_action::stop_run
               && st.phase.writes_records()) {
      st.totals.summary().stopped_by_alarm = true;
      cancel_run(self, why);
      return;
    }
  }
}

void on_voted(self_ptr self, std::vector<voted_pair>& done) {
  auto& st = self->state;
  if (!st.phase.takes_votes()) {
    // Cancelled: these pairs are listed unfinished; until the run-end
    // record is made, their calls count as answered, never recorded.
    if (st.cancelling)
      for (auto& vp : done)
        st.totals.add_dropped(vp.result);
    return;
  }
  audit_batch batch;
  batch.durable = true;
  batch.pairs.reserve(done.size());
  pending_write w;
  w.verdicts.reserve(done.size());
  std::vector<bias_alarm_event> alarms;
  for (auto& vp : done) {
    bool canary = st.canaries && st.canaries->owns(vp.seq);
    if (!canary && !st.window.is_open(vp.seq))
      continue; // not ours, or already decided
    warn_on_refused_credentials(self, vp.result);
    if (canary) {
      for (auto& a : take_canary(st, vp, batch, w))
        alarms.push_back(std::move(a));
      continue;
    }
    st.guard->settle(vp.seq, vp.result);
    // Position bias is over pairs: a canary is never one.
    if (st.setup.config.order_balancing)
      st.position_bias.add_pair(vp.result.records,
                                [&st](const judge_record& r) {
                                  return st.totals.judge_of(r.worker_id).first;
                                });
    auto v = decide_pair(st, vp, batch);
    auto item = st.items.decide(v.item, v.rule, v.outcome.probability);
    if (item && st.setup.resume
        && st.setup.resume->closed_items.count(item->item) != 0) {
      w.items.push_back(std::move(*item)); // released again, not rewritten
      item.reset();
    }
    if (item) {
      batch.entries.push_back(
        entry(audit_type::item_verdict, item_verdict_body(*item)));
      st.totals.add_items(1);
      w.items.push_back(std::move(*item));
    }
    w.verdicts.push_back(std::move(v));
  }
  if (!batch.pairs.empty() || !batch.entries.empty())
    write(self, std::move(batch), std::move(w));
  act_on_alarms(self, alarms);
}

// --- Start -----------------------------------------------------------------

void progress_tick(self_ptr self);

void on_manifest_written(self_ptr self, std::uint64_t seq, std::string& hash) {
  auto& st = self->state;
  st.totals.summary().audit_lines = seq;
  st.totals.summary().final_hash = std::move(hash);
  st.phase.start();
  if (st.setup.batch_journal)
    st.setup.batch_journal->bind(self->system(), st.logger);
  if (st.setup.listener) {
    self->send(st.setup.listener,
               run_started{st.setup.run_id, st.setup.audit_path, st.judges,
                           st.warnings});
    for (auto& w : st.warnings)
      self->send(st.setup.listener, warning_atom::value, w);
  }
  if (st.setup.progress_interval.count() > 0)
    self->delayed_send(self, st.setup.progress_interval, progress_atom::value);
  auto waiting = std::move(st.waiting);
  st.waiting.clear();
  for (auto& w : waiting) {
    if (st.phase.ended()) { // an earlier batch failed the run
      w.promise.deliver(make_error(errc::bad_input, st.totals.summary().error));
      continue;
    }
    admit(self, w.batch);
    if (st.phase.ended())
      w.promise.deliver(make_error(errc::bad_input, st.totals.summary().error));
    else if (st.window.has_room())
      w.promise.deliver(st.window.admitted());
    else
      st.held.push_back(w.promise);
  }
  if (st.phase.ended())
    return;
  if (st.phase.cancel_deferred()) {
    auto reason = st.totals.summary().stop_reason;
    cancel_run(self, std::move(reason));
    return;
  }
  if (st.phase.ends_input())
    end_input(self);
}

// The manifest first; a resumed run writes a resume record instead.
void write_manifest(self_ptr self) {
  auto& st = self->state;
  audit_batch batch;
  batch.durable = true;
  if (st.setup.resume)
    batch.entries.push_back(entry(
      audit_type::resumed, resumed_body(*st.setup.resume, wall_clock_ms())));
  else
    batch.entries.push_back(
      entry(audit_type::manifest,
            manifest_body(st.setup.run_id, st.setup.config, st.judges,
                          st.warnings, wall_clock_ms())));
  self->request(st.logger, caf::infinite, std::move(batch))
    .then([=](std::uint64_t seq,
              std::string& hash) { on_manifest_written(self, seq, hash); },
          [=](caf::error& err) { fail_run(self, err); });
}

void on_workers(self_ptr self, std::vector<worker_entry>& all) {
  auto& st = self->state;
  std::vector<judge_info> infos;
  for (auto& e : all)
    infos.push_back(e.info);
  auto picked = select_workers(st.setup.config, infos);
  if (!picked) {
    fail_run(self, picked.error());
    return;
  }
  std::vector<worker_entry> ours;
  for (auto i : *picked) {
    ours.push_back(all[i]);
    st.judges.push_back(all[i].info);
  }
  st.totals.name_workers(st.judges);
  std::uint64_t capacity = 0;
  for (auto& j : st.judges)
    capacity += j.capacity;
  const auto& cfg = st.setup.config;
  std::uint64_t batched = 0;
  for (auto& spec : cfg.judges)
    batched += batch_calls_at_once(spec.batch);
  st.window.fit_to_capacity(capacity, batched);
  st.warnings = run_warnings(st.setup.config, st.judges);
  st.guard.emplace(
    cfg.on_planted, cfg.votes, cfg.abstain_as_neither,
    !cfg.panel && !cfg.cascade
      && std::any_of(cfg.judges.begin(), cfg.judges.end(),
                     [](auto& j) { return !reads_answers_by_rule(j); }));
  // A batched vote is answered within the provider's window, not seconds.
  auto deadline = cfg.vote_deadline;
  for (auto& spec : cfg.judges)
    if (spec.batch.enabled)
      deadline = std::max(deadline, spec.batch.deadline.value_or(batch_window));
  vote_settings vs{cfg.votes,
                   cfg.order_balancing,
                   cfg.abstain_as_neither,
                   deadline,
                   cfg.failover_wait,
                   run_budgets(cfg, st.setup.resume.get()),
                   cfg.calibration_maps,
                   cfg.stop_probability,
                   run_tag_of(st.setup.run_id)};
  vote_sink_actor sink = self;
  if (auto plan = route_plan_of(cfg, vs))
    st.coordinator = self->spawn(vote_router, sink, st.setup.directory,
                                 std::move(ours), std::move(*plan));
  else
    st.coordinator =
      self->spawn(selective_vote_coordinator, sink, st.setup.directory,
                  judge_selection{cfg.judges}, std::move(ours), vs);
  end_with_session(self, st.coordinator);
  write_manifest(self);
}

// --- Progress --------------------------------------------------------------

void progress_tick(self_ptr self) {
  auto& st = self->state;
  if (!st.phase.live())
    return;
  self->request(st.coordinator, caf::infinite, status_atom::value)
    .then(
      [=](std::vector<worker_load>& loads) {
        auto& st = self->state;
        auto p = snapshot(st);
        p.workers = std::move(loads);
        if (st.setup.listener)
          self->send(st.setup.listener, std::move(p));
        self->delayed_send(self, st.setup.progress_interval,
                           progress_atom::value);
      },
      [](caf::error&) {});
}

} // namespace

run_session_actor::behavior_type
run_session(run_session_actor::stateful_pointer<run_session_state> self,
            run_setup setup) {
  auto& st = self->state;
  st.setup = std::move(setup);
  st.items = item_ledger{st.setup.config.stats};
  st.window = input_window{st.setup.window};
  std::uint64_t seq = 0;
  std::string hash{audit_genesis_hash};
  // A resumed run's records already in the file count in this run's end.
  st.totals = run_tally{
    st.setup.config, st.setup.resume ? st.setup.resume->totals : run_summary{}};
  if (auto& r = st.setup.resume) {
    seq = r->seq;
    hash = r->last_hash;
  }
  if (st.setup.config.canaries.enabled())
    st.canaries.emplace(st.setup.config.canaries, st.setup.run_id);
  if (st.canaries && st.setup.resume)
    st.canaries->skip(st.setup.resume->canaries);
  st.totals.summary().run_id = st.setup.run_id;
  const auto& path = st.setup.audit_path;
  auto policy = st.setup.config.flush;
  // The logger owns the descriptor from here on.
  auto fd = std::exchange(st.setup.audit_fd, -1);
  if (st.setup.detached_logger)
    st.logger = self->spawn<caf::detached>(audit_logger, fd, path, policy, seq,
                                           std::move(hash));
  else
    st.logger =
      self->spawn(audit_logger, fd, path, policy, seq, std::move(hash));
  // The logger's exit closes the file.
  end_with_session(self, st.logger);
  self->request(st.setup.directory, caf::infinite, list_atom::value)
    .then([=](std::vector<worker_entry>& all) { on_workers(self, all); },
          [=](caf::error& err) { fail_run(self, err); });
  return {
    [=](input_batch& in) { return on_input(self, in); },
    [=](end_of_input_atom) {
      auto& st = self->state;
      if (st.phase.close_input() && st.phase.ends_input())
        end_input(self);
    },
    [=](cancel_atom, std::string& reason) { cancel_run(self, reason); },
    [=](status_atom) -> caf::result<run_progress> {
      auto& st = self->state;
      if (!st.phase.live())
        return snapshot(st);
      auto promise = self->make_response_promise<run_progress>();
      self->request(st.coordinator, caf::infinite, status_atom::value)
        .then(
          [=](std::vector<worker_load>& loads) mutable {
            auto p = snapshot(self->state);
            p.workers = std::move(loads);
            promise.deliver(std::move(p));
          },
          [=](caf::error&) mutable { promise.deliver(snapshot(self->state)); });
      return promise;
    },
    [=](std::vector<voted_pair>& done) { on_voted(self, done); },
    [=](std::vector<run_note>& notes) { on_notes(self, notes); },
    [=](progress_atom) { progress_tick(self); },
  };
}

namespace {

// The configuration is checked by core's validate() (as parse_config and the
// daemon check it); here only what the session is given besides.
caf::error check_setup(const run_setup& setup) {
  if (auto err = validate(setup.config))
    return err;
  if (!setup.directory)
    return make_error(errc::bad_config, "no judge directory");
  if (setup.audit_path.empty())
    return make_error(errc::bad_config, "no audit file given");
  return {};
}

} // namespace

caf::expected<run_actor> spawn_run(caf::actor_system& sys, run_setup setup) {
  if (auto err = check_setup(setup)) {
    if (setup.audit_fd >= 0) // ours from the call on, as documented
      ::close(setup.audit_fd);
    return err;
  }
  // Created exclusively (or an existing empty file taken) and locked: two
  // runs never write one audit. The logger owns the descriptor.
  if (setup.audit_fd < 0) {
    auto opened = open_audit_file(setup.audit_path);
    if (!opened)
      return std::move(opened.error());
    setup.audit_fd = *opened;
  }
  if (setup.resume)
    setup.run_id = setup.resume->run_id;
  if (setup.run_id.empty())
    setup.run_id = make_run_id();
  run_actor session = sys.spawn(run_session, std::move(setup));
  return session;
}

} // namespace ij
