#include "actors/vote_router.hpp"

#include <memory>
#include <utility>

#include "core/agreement/cascade_policy.hpp"
#include "core/agreement/panel_rule.hpp"
#include "core/guard/pair_guard.hpp"
#include "core/numbers/answer.hpp"
#include "core/verdicts/outcome_mapping.hpp"

namespace ij {

namespace {

using self_ptr = vote_router_actor::stateful_pointer<vote_router_state>;
using state = vote_router_state;

// Index of the cascade's judges in the plan.
constexpr std::size_t rules_judge = 0;
constexpr std::size_t llm_judge = 1;

void give(state& st, std::uint64_t seq, std::size_t judge) {
  auto stage_seq = st.next_stage++;
  st.stages.emplace(stage_seq, state::stage{seq, judge});
  auto& op = st.pairs[seq];
  ++op.waiting;
  vote_job job{stage_seq, op.pair, {}, false};
  job.non_numeric = st.plan.cascade && judge == llm_judge && op.non_numeric;
  st.outgoing[judge].push_back(std::move(job));
}

vote_counts sum_counts(const std::vector<judge_part>& parts) {
  vote_counts c;
  for (auto& p : parts) {
    c.votes += p.counts.votes;
    c.min_agreement = std::max(c.min_agreement, p.counts.min_agreement);
    c.equivalent += p.counts.equivalent;
    c.different += p.counts.different;
    c.abstain += p.counts.abstain;
    c.parse_error += p.counts.parse_error;
    c.faults += p.counts.faults;
    c.not_cast += p.counts.not_cast;
  }
  return c;
}

// The pair's outcome and route from its parts, by the plan's rule.
void combine(const route_plan& plan, const state::open_pair& op,
             vote_result& out) {
  if (plan.panel) {
    std::vector<equivalence_outcome> outcomes;
    for (auto& p : out.parts)
      outcomes.push_back(p.outcome);
    auto d = decide_panel(*plan.panel, outcomes);
    out.outcome = std::move(d.outcome);
    out.route = std::string{to_string(d.tier)};
    return;
  }
  auto& rules = out.parts[rules_judge].outcome;
  if (out.parts.size() == 1) {
    out.outcome = rules;
    out.outcome.detail = "rules: " + rules.detail;
    out.route = std::string{to_string(cascade_path::rules)};
  } else if (op.audited) {
    out.outcome = rules;
    out.outcome.detail = "rules: " + rules.detail + "; audit by LLM: "
                         + out.parts[llm_judge].outcome.detail;
    out.route = std::string{to_string(cascade_path::audited)};
  } else {
    out.outcome = out.parts[llm_judge].outcome;
    out.outcome.detail = "LLM (rules undecided): " + out.outcome.detail;
    out.route = std::string{to_string(cascade_path::fallback)};
  }
}

void finish(state& st, std::uint64_t seq) {
  auto i = st.pairs.find(seq);
  auto& op = i->second;
  voted_pair out;
  out.seq = seq;
  auto& vr = out.result;
  vr.pair_id = op.pair.id;
  for (std::size_t j = 0; j < op.parts.size(); ++j) {
    if (!op.parts[j])
      continue;
    auto& part = *op.parts[j];
    auto& judge = st.plan.judges[j];
    vr.parts.push_back(
      judge_part{judge.name, judge.role, part.outcome, part.counts});
    for (auto& r : part.records)
      vr.records.push_back(std::move(r));
  }
  vr.counts = sum_counts(vr.parts);
  vr.flags = op.flags;
  combine(st.plan, op, vr);
  out.pair = std::move(op.pair);
  st.done.push_back(std::move(out));
  st.pairs.erase(i);
}

void add_job(state& st, vote_job& work) {
  auto& pair = work.pair;
  if (is_absent(pair.a) || is_absent(pair.b)) {
    auto result = absent_result(pair.id, st.plan.judges.back().settings.votes);
    st.done.push_back(voted_pair{work.seq, std::move(pair), std::move(result)});
    return;
  }
  auto& op = st.pairs[work.seq];
  op.pair = std::move(pair);
  op.flags = std::move(work.flags);
  op.parts.resize(st.plan.judges.size());
  if (st.plan.panel) {
    for (std::size_t j = 0; j < st.plan.judges.size(); ++j)
      give(st, work.seq, j);
  } else {
    give(st, work.seq, rules_judge);
  }
}

// A judge's result for one pair: the next stage, or the pair is done.
void on_part(state& st, voted_pair& vp) {
  auto s = st.stages.find(vp.seq);
  if (s == st.stages.end())
    return;
  auto [seq, judge] = s->second;
  st.stages.erase(s);
  auto i = st.pairs.find(seq);
  if (i == st.pairs.end())
    return;
  auto& op = i->second;
  --op.waiting;
  auto& routed = st.plan.judges[judge];
  if (!routed.by_rule) {
    pair_guard g;
    g.flags = op.flags;
    refuse_planted_equivalent(vp.result.outcome, g, routed.settings.votes,
                              routed.settings.abstain_as_neither);
  }
  op.parts[judge] = std::move(vp.result);
  if (op.waiting > 0)
    return;
  if (st.plan.cascade && judge == rules_judge) {
    auto& rules = op.parts[rules_judge]->outcome;
    op.non_numeric = cascade_non_numeric(op.parts[rules_judge]->records);
    if (!rules_decided(rules)) {
      give(st, seq, llm_judge);
      return;
    }
    if (cascade_audits(st.plan.cascade->seed, op.pair.id,
                       st.plan.cascade->audit_rate)) {
      op.audited = true;
      give(st, seq, llm_judge);
      return;
    }
  }
  finish(st, seq);
}

void settle(self_ptr self) {
  auto& st = self->state;
  if (st.cancelled)
    return;
  for (std::size_t j = 0; j < st.outgoing.size(); ++j)
    if (!st.outgoing[j].empty()) {
      self->send(st.coordinators[j], std::move(st.outgoing[j]));
      st.outgoing[j].clear();
    }
  if (!st.done.empty()) {
    self->send(st.sink, std::move(st.done));
    st.done.clear();
  }
}

// The workers of every judge, as their coordinators see them.
caf::result<std::vector<worker_load>> loads(self_ptr self) {
  auto& st = self->state;
  auto promise = self->make_response_promise<std::vector<worker_load>>();
  auto all = std::make_shared<std::vector<worker_load>>();
  auto left = std::make_shared<std::size_t>(st.coordinators.size());
  for (auto& c : st.coordinators)
    self->request(c, caf::infinite, status_atom::value)
      .then(
        [=](std::vector<worker_load>& some) mutable {
          all->insert(all->end(), some.begin(), some.end());
          if (--*left == 0)
            promise.deliver(std::move(*all));
        },
        [=](caf::error&) mutable {
          if (--*left == 0)
            promise.deliver(std::move(*all));
        });
  return promise;
}

// Parts that come back after the cancel: their pairs stay unfinished, their
// records are counted as dropped.
void on_late_parts(state& st, std::vector<voted_pair>& results) {
  for (auto& vp : results) {
    auto s = st.stages.find(vp.seq);
    if (s == st.stages.end())
      continue;
    auto& judge_id = st.plan.judges[s->second.judge].judge_id;
    for (auto& rec : vp.result.records)
      st.cancelled_calls.dropped(judge_id, rec);
    st.stages.erase(s);
  }
}

caf::result<std::vector<unrecorded_calls>> cancel(self_ptr self) {
  auto& st = self->state;
  if (st.cancelled)
    return st.cancelled_calls.result();
  st.cancelled = true;
  for (auto& [seq, op] : st.pairs)
    for (std::size_t j = 0; j < op.parts.size(); ++j)
      if (op.parts[j])
        for (auto& rec : op.parts[j]->records)
          st.cancelled_calls.dropped(st.plan.judges[j].judge_id, rec);
  st.pairs.clear();
  st.done.clear();
  if (st.coordinators.empty())
    return st.cancelled_calls.result();
  auto promise = self->make_response_promise<std::vector<unrecorded_calls>>();
  auto all = std::make_shared<std::vector<unrecorded_calls>>();
  auto left = std::make_shared<std::size_t>(st.coordinators.size());
  // A coordinator's parts sent before its reply arrive before it: when the
  // last reply is in, every late part is counted.
  auto one = [=](const std::vector<unrecorded_calls>& some) mutable {
    merge_unrecorded(*all, some);
    if (--*left > 0)
      return;
    merge_unrecorded(*all, self->state.cancelled_calls.result());
    promise.deliver(std::move(*all));
  };
  for (auto& c : st.coordinators)
    self->request(c, caf::infinite, cancel_atom::value)
      .then([=](std::vector<unrecorded_calls>& some) mutable { one(some); },
            [=](caf::error&) mutable { one({}); });
  return promise;
}

} // namespace

std::optional<route_plan> route_plan_of(const run_config& cfg,
                                        const vote_settings& base) {
  if (!cfg.panel && !cfg.cascade)
    return std::nullopt;
  route_plan plan;
  auto add = [&](const std::string& name, std::string role,
                 vote_settings settings) {
    auto spec = find_judge(cfg, name);
    judge_selection selection;
    if (spec)
      selection.judges.push_back(*spec);
    plan.judges.push_back(routed_judge{name, spec ? judge_id_of(*spec) : "",
                                       std::move(role), std::move(settings),
                                       spec && reads_answers_by_rule(*spec),
                                       std::move(selection)});
  };
  if (cfg.panel) {
    plan.panel = cfg.panel->rule;
    for (auto& name : cfg.panel->judges)
      add(name, "panel", base);
  } else {
    plan.cascade = cfg.cascade;
    // The rule judge is deterministic: one vote, and an abstention stays
    // undecided (so that it goes on to the LLM judge).
    auto rules = base;
    rules.votes = vote_config{1, 1};
    rules.abstain_as_neither = true;
    add(cfg.cascade->rules, "rules", rules);
    add(cfg.cascade->llm, "llm", base);
  }
  return plan;
}

vote_router_actor::behavior_type
vote_router(vote_router_actor::stateful_pointer<vote_router_state> self,
            vote_sink_actor sink, judge_directory_actor directory,
            std::vector<worker_entry> workers, route_plan plan) {
  auto& st = self->state;
  st.sink = std::move(sink);
  st.plan = std::move(plan);
  st.outgoing.resize(st.plan.judges.size());
  vote_sink_actor me = self;
  for (auto& j : st.plan.judges) {
    std::vector<worker_entry> theirs;
    for (auto& w : workers)
      if (j.selection.takes(w.info))
        theirs.push_back(w);
    st.coordinators.push_back(
      self->spawn<caf::linked>(selective_vote_coordinator, me, directory,
                               j.selection, std::move(theirs), j.settings));
  }
  return {
    [=](std::vector<vote_job>& work) {
      for (auto& w : work)
        add_job(self->state, w);
      settle(self);
    },
    [=](std::vector<voted_pair>& results) {
      if (self->state.cancelled)
        return on_late_parts(self->state, results);
      for (auto& vp : results)
        on_part(self->state, vp);
      settle(self);
    },
    [=](std::vector<run_note>& notes) {
      // A judge's coordinator noted a host event, a moved vote or a late
      // reply: the session's audit records them as from any coordinator.
      self->send(self->state.sink, std::move(notes));
    },
    [=](cancel_atom) { return cancel(self); },
    [=](stop_judge_atom, std::string& judge_id, std::string& why) {
      // In a panel or cascade each judge has its own coordinator, so a
      // stopped judge's votes become faults there and its parts say so.
      auto& st = self->state;
      for (std::size_t j = 0; j < st.plan.judges.size(); ++j)
        if (st.plan.judges[j].judge_id == judge_id)
          self->send(st.coordinators[j], stop_judge_atom::value, judge_id, why);
    },
    [=](status_atom) { return loads(self); },
  };
}

} // namespace ij
