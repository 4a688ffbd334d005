#include "actors/vote_coordinator.hpp"

#include <algorithm>
#include <utility>

#include <caf/typed_event_based_actor.hpp>

#include "adapters/llm_judge_comparator.hpp"
#include "core/answer.hpp"
#include "core/outcome_mapping.hpp"
#include "core/prompt.hpp"

namespace ij {

namespace {

using self_ptr =
  vote_coordinator_actor::stateful_pointer<vote_coordinator_state>;
using job = vote_coordinator_state::job;

// The least-loaded judge with room, ties broken round-robin; n when all
// are full.
std::size_t pick_judge(vote_coordinator_state& st) {
  auto n = st.judges.size();
  auto best = n;
  for (std::size_t i = 0; i < n; ++i) {
    auto j = (st.next_judge + i) % n;
    if (st.load[j] >= std::max<std::uint32_t>(st.judges[j].capacity, 1))
      continue;
    if (best == n || st.load[j] < st.load[best])
      best = j;
  }
  if (best != n)
    st.next_judge = best + 1;
  return best;
}

// The record of a vote the judge did not answer: a fault with what the
// coordinator knows of the call.
judge_record unanswered(const vote_judge& j, const judge_request& req,
                        std::int64_t started_ms, std::string error,
                        fault_kind kind) {
  judge_record rec;
  rec.pair_id = req.pair_id;
  rec.prompt_id = std::string{judge_prompt_id};
  rec.adapter_id = j.adapter_id;
  rec.model = j.model;
  rec.temperature = j.temperature;
  rec.has_seed = req.has_seed;
  rec.seed = req.seed;
  rec.vote_index = req.vote_index;
  rec.swapped = req.swapped;
  rec.decision = judge_decision::parse_error;
  rec.transport_failed = true;
  rec.transport_error = std::move(error);
  rec.fault = kind;
  rec.attempts = 0;
  rec.started_at_ms = started_ms;
  rec.finished_at_ms = wall_clock_ms();
  rec.latency_ms = static_cast<double>(rec.finished_at_ms - started_ms);
  return rec;
}

void step(self_ptr self, std::uint64_t id);
void drain(self_ptr self);

void on_vote(self_ptr self, std::uint64_t id, std::size_t judge_index,
             judge_record rec) {
  auto& st = self->state;
  --st.load[judge_index];
  auto i = st.jobs.find(id);
  if (i == st.jobs.end())
    return;
  auto& j = i->second;
  --j.in_flight;
  if (rec.transport_failed)
    j.tally.add_fault();
  else
    j.tally.add(rec.decision);
  j.records.push_back(std::move(rec));
  step(self, id);
  drain(self);
}

// Arms the one deadline timer for the oldest outstanding vote, unless it is
// armed already (it re-arms itself when it fires).
void arm_timer(self_ptr self) {
  auto& st = self->state;
  if (st.timer_armed || st.by_due.empty())
    return;
  auto p = st.pending.find(st.by_due.front());
  if (p == st.pending.end())
    return;
  auto now = self->clock().now();
  auto wait = p->second.due > now ? p->second.due - now
                                  : caf::actor_clock::duration_type{0};
  st.timer_armed = true;
  self->delayed_send(self, wait, deadline_atom::value);
}

// Removes an answered vote; false when it had already expired. Answered
// tokens at the front of the deadline queue are dropped at once, so the queue
// holds little more than the votes in flight.
bool take_pending(self_ptr self, std::uint64_t token) {
  auto& st = self->state;
  if (st.pending.erase(token) == 0)
    return false;
  while (!st.by_due.empty() && st.pending.count(st.by_due.front()) == 0)
    st.by_due.pop_front();
  return true;
}

// Every outstanding vote past its deadline becomes a fault.
void expire_votes(self_ptr self) {
  auto& st = self->state;
  st.timer_armed = false;
  auto now = self->clock().now();
  while (!st.by_due.empty()) {
    auto token = st.by_due.front();
    auto p = st.pending.find(token);
    if (p == st.pending.end()) {
      st.by_due.pop_front();
      continue;
    }
    if (p->second.due > now)
      break;
    auto v = std::move(p->second);
    st.pending.erase(p);
    st.by_due.pop_front();
    on_vote(self, v.job, v.judge,
            unanswered(st.judges[v.judge], v.meta, v.started_ms,
                       "deadline exceeded", fault_kind::deadline));
  }
  arm_timer(self);
}

// Sends the next vote of job `j` to judge `ji`.
void dispatch(self_ptr self, std::uint64_t id, job& j, std::size_t ji) {
  auto& st = self->state;
  auto vote_index = j.dispatched++;
  ++st.load[ji];
  auto& target = st.judges[ji];
  judge_request req;
  req.pair_id = j.pair.id;
  req.vote_index = vote_index;
  req.swapped = st.settings.order_balancing && vote_index % 2 == 1;
  req.a = req.swapped ? j.pair.b : j.pair.a;
  req.b = req.swapped ? j.pair.a : j.pair.b;
  if (target.base_seed) {
    req.has_seed = true;
    req.seed = *target.base_seed + static_cast<std::int64_t>(vote_index);
  }
  auto& clk = self->clock();
  auto token = st.next_token++;
  // Kept for the deadline record; the answers are not needed there.
  auto meta = req;
  meta.a.clear();
  meta.b.clear();
  st.pending.emplace(token, vote_coordinator_state::pending_vote{
                              id, ji, std::move(meta), wall_clock_ms(),
                              clk.now() + st.settings.deadline});
  st.by_due.push_back(token);
  arm_timer(self);
  self->request(target.actor, caf::infinite, std::move(req))
    .then(
      [=](judge_record& rec) {
        if (take_pending(self, token))
          on_vote(self, id, ji, std::move(rec));
      },
      [=](caf::error& err) {
        auto p = self->state.pending.find(token);
        if (p == self->state.pending.end())
          return; // already counted as a fault at its deadline
        auto rec = unanswered(self->state.judges[ji], p->second.meta,
                              p->second.started_ms,
                              "judge unreachable: "
                                + self->system().render(err),
                              fault_kind::unavailable);
        take_pending(self, token);
        on_vote(self, id, ji, std::move(rec));
      });
}

void finish(self_ptr self, std::uint64_t id, job& j) {
  auto& st = self->state;
  vote_result vr;
  vr.pair_id = j.pair.id;
  vr.counts = j.tally.counts();
  if (st.settings.votes.votes == 1 && j.records.size() == 1)
    vr.outcome = outcome_of_record(j.records.front(),
                                   st.settings.abstain_as_neither);
  else
    vr.outcome = j.tally.outcome();
  // Records in vote order, whatever order the judges answered in.
  std::sort(j.records.begin(), j.records.end(),
            [](const judge_record& x, const judge_record& y) {
              return x.vote_index < y.vote_index;
            });
  vr.records = std::move(j.records);
  j.promise.deliver(std::move(vr));
  st.jobs.erase(id);
}

// Sends backlogged votes while some judge has room.
void drain(self_ptr self) {
  auto& st = self->state;
  while (!st.backlog.empty()) {
    auto ji = pick_judge(st);
    if (ji == st.judges.size())
      return;
    auto id = st.backlog.front();
    st.backlog.pop_front();
    auto i = st.jobs.find(id);
    if (i != st.jobs.end())
      dispatch(self, id, i->second, ji);
  }
}

void step(self_ptr self, std::uint64_t id) {
  auto& st = self->state;
  auto i = st.jobs.find(id);
  if (i == st.jobs.end())
    return;
  auto& j = i->second;
  if (j.in_flight > 0)
    return; // the wave is not back yet
  auto c = j.tally.counts();
  auto k = st.settings.votes.min_agreement;
  auto left = st.settings.votes.votes - j.asked;
  if (j.tally.fixed() || left == 0) {
    finish(self, id, j);
    return;
  }
  auto best = std::max(c.equivalent, c.different);
  auto wave = std::min(k - best, left);
  j.asked += wave;
  j.in_flight += wave;
  for (std::uint32_t n = 0; n < wave; ++n)
    st.backlog.push_back(id);
}

} // namespace

vote_coordinator_actor::behavior_type
vote_coordinator(vote_coordinator_actor::stateful_pointer<vote_coordinator_state>
                   self,
                 std::vector<vote_judge> judges, vote_settings settings) {
  auto& st = self->state;
  st.judges = std::move(judges);
  st.load.assign(st.judges.size(), 0);
  st.settings = settings;
  return {
    [=](answer_pair& pair) -> caf::result<vote_result> {
      auto& st = self->state;
      if (is_absent(pair.a) || is_absent(pair.b) || st.judges.empty()) {
        vote_result vr;
        vr.pair_id = pair.id;
        vr.counts.votes = st.settings.votes.votes;
        vr.counts.min_agreement = st.settings.votes.min_agreement;
        if (st.judges.empty()) {
          vr.outcome = fault_outcome("no judge configured");
        } else {
          vr.absent = true;
          vr.outcome = absent_outcome();
        }
        return vr;
      }
      auto id = st.next_job++;
      auto promise = self->make_response_promise<vote_result>();
      auto [it, inserted] = st.jobs.emplace(
        id, vote_coordinator_state::job{std::move(pair),
                                        vote_tally{st.settings.votes}, 0, 0,
                                        0, {}, promise});
      static_cast<void>(it);
      static_cast<void>(inserted);
      step(self, id);
      drain(self);
      return promise;
    },
    [=](deadline_atom) { expire_votes(self); },
  };
}

} // namespace ij

