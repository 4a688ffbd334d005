#include "actors/canary_watch.hpp"

#include <algorithm>
#include <utility>

#include "core/audit/audit_record.hpp"
#include "core/audit/canary_records.hpp"
#include "core/canaries/canary_set.hpp"

namespace ij {

canary_watch::canary_watch(const canary_settings& settings, std::string run_id)
    : settings_(settings), run_id_(std::move(run_id)), alarm_(settings.alarm) {
  if (settings_.enabled())
    plan_.emplace(settings_.rate, settings_.seed);
}

std::optional<vote_job> canary_watch::before(std::uint64_t position,
                                             std::uint64_t seq) {
  if (!plan_ || !plan_->canary_before(position))
    return std::nullopt;
  auto k = placed_++;
  auto index = plan_->index(k);
  const auto& c = canary_set()[index];
  vote_job job;
  job.seq = seq;
  // Never an input id: the run id is in it.
  job.pair.id = "canary-" + std::to_string(k + 1) + "@" + run_id_;
  if (skip_.count(job.pair.id) != 0)
    return std::nullopt;
  job.pair.item = job.pair.id;
  job.pair.a = c.a;
  job.pair.b = c.b;
  open_.emplace(seq, open_canary{index, position, job.pair.id});
  return job;
}

namespace {

// The records of one canary grouped by judge, in order of first record.
struct judge_votes {
  std::string name;
  std::string judge_id;
  std::vector<judge_decision> decisions;
};

std::vector<judge_votes>
group_by_judge(const std::vector<judge_record>& records,
               const canary_watch::judge_lookup& judge_of) {
  std::vector<judge_votes> out;
  for (auto& r : records) {
    if (r.transport_failed)
      continue; // a fault is no evidence
    auto [name, id] = judge_of(r.worker_id);
    auto it = std::find_if(out.begin(), out.end(),
                           [&](auto& j) { return j.name == name; });
    if (it == out.end()) {
      out.push_back(judge_votes{name, id, {}});
      it = std::prev(out.end());
    }
    it->decisions.push_back(r.decision);
  }
  return out;
}

bias_alarm_event event_of(const alarm_evidence& ev, alarm_action action,
                          std::uint64_t at_canary) {
  bias_alarm_event e;
  e.judge = ev.judge;
  e.mode = std::string{to_string(ev.mode)};
  e.canaries = ev.canaries;
  e.observations = ev.stream.observations;
  e.failures = ev.stream.failures;
  e.cycle_observations = ev.stream.cycle_observations;
  e.cycle_failures = ev.stream.cycle_failures;
  e.llr = ev.stream.llr;
  e.threshold = ev.upper;
  e.action = action;
  e.at_canary = at_canary;
  return e;
}

} // namespace

canary_watch::judged canary_watch::take(voted_pair& vp,
                                        const judge_lookup& judge_of) {
  auto node = open_.extract(vp.seq);
  auto& open = node.mapped();
  const auto& c = canary_set()[open.index];
  ++judged_;
  judged out;
  auto& res = out.result;
  res.id = open.id;
  res.kind = std::string{to_string(c.kind)};
  res.position = open.position;
  res.a = c.a;
  res.b = c.b;
  res.expected = std::string{expected_text(c.kind)};
  res.outcome = vp.result.outcome;
  res.counts = vp.result.counts;
  std::vector<canary_judgement> judgements;
  for (auto& j : group_by_judge(vp.result.records, judge_of)) {
    auto failed = canary_failed(c.kind, j.decisions);
    std::uint32_t readable = 0;
    for (auto d : j.decisions)
      readable += d != judge_decision::parse_error ? 1 : 0;
    judgements.push_back(canary_judgement{j.name, readable, failed});
    if (!failed)
      continue;
    res.passed = res.passed.value_or(true) && !*failed;
    if (*failed)
      res.failed_judges.push_back(j.name);
    if (auto ev = alarm_.observe(j.name, c.kind, *failed))
      out.alarms.push_back(event_of(*ev, settings_.on_alarm, judged_));
  }
  for (auto& rec : vp.result.records)
    out.entries.push_back(
      audit_entry{audit_type::judge_call, judge_call_body(rec)});
  out.entries.push_back(
    audit_entry{audit_type::canary,
                canary_body(res, vp.result.records.size(), judgements)});
  for (auto& a : out.alarms)
    out.entries.push_back(
      audit_entry{audit_type::bias_alarm, bias_alarm_body(a, settings_.alarm)});
  return out;
}

std::vector<canary_tally> canary_watch::tallies() const {
  std::vector<canary_tally> out;
  for (auto& j : alarm_.judges()) {
    canary_tally t;
    t.judge = j.judge;
    t.canaries = j.canaries;
    t.failed = j.failed;
    using m = canary_failure_mode;
    t.false_equivalent =
      j.streams[static_cast<std::size_t>(m::false_equivalent)].failures;
    t.decided_abstain =
      j.streams[static_cast<std::size_t>(m::decided_abstain)].failures;
    t.failed_identity =
      j.streams[static_cast<std::size_t>(m::failed_identity)].failures;
    t.alarmed = j.alarmed;
    out.push_back(std::move(t));
  }
  return out;
}

} // namespace ij
