#include "core/session/run_tally.hpp"

#include <algorithm>
#include <iterator>

#include "core/budgets/cancel_account.hpp"
#include "core/budgets/judge_budget.hpp"
#include "core/session/call_route.hpp"
#include "messages/host_event.hpp"

namespace ij {

namespace {

// Sent, refused by the breaker or at a budget (core/session/call_route.hpp).
void count_route(run_summary& s, const judge_record& rec) {
  call_facts facts{rec.cached, rec.refused_by_breaker, rec.fault,
                   !rec.worker_id.empty()};
  switch (route_of(facts)) {
    case call_route::sent:
      ++s.calls_sent;
      ++s.calls_answered;
      break;
    case call_route::refused_breaker: ++s.calls_refused_breaker; break;
    case call_route::refused_budget: ++s.calls_refused_budget; break;
    default: break; // cached (counted on its own), or no worker took it
  }
}

} // namespace

run_tally::run_tally(const run_config& cfg, run_summary start)
    : summary_(std::move(start)) {
  summary_.faults_by_kind.resize(std::size(all_fault_kinds), 0);
  if (cfg.panel)
    panel_.emplace(*cfg.panel, cfg.stats.alpha);
  if (cfg.cascade)
    cascade_.emplace(*cfg.cascade);
}

void run_tally::name_workers(const std::vector<judge_info>& judges) {
  judges_ = judges;
  auto& usage = summary_.usage;
  for (auto& j : judges) {
    // A resumed run's usage so far is in the summary already, by name.
    auto named = std::find_if(usage.begin(), usage.end(),
                              [&](auto& u) { return u.judge == j.name; });
    if (named == usage.end()) {
      usage.push_back(judge_usage{j.name, 0, 0, 0, 0});
      named = std::prev(usage.end());
    }
    usage_index_[j.worker_id] = static_cast<std::size_t>(named - usage.begin());
  }
}

void run_tally::add_pair(const vote_result& vr, std::optional<bool> label,
                         verdict_rule rule) {
  add_records(vr);
  if (panel_)
    panel_->add(vr, label);
  if (cascade_)
    cascade_->add(vr);
  ++summary_.pairs;
  ++summary_.by_rule[static_cast<int>(rule) - 1];
  summary_.screened += vr.screened.empty() ? 0 : 1;
  summary_.flagged += vr.flags.empty() ? 0 : 1;
}

void run_tally::add_canary(const vote_result& vr,
                           const std::vector<bias_alarm_event>& alarms) {
  add_records(vr);
  ++summary_.canaries;
  summary_.alarms.insert(summary_.alarms.end(), alarms.begin(), alarms.end());
}

void run_tally::add_records(const vote_result& vr) {
  auto& s = summary_;
  s.judge_calls += vr.records.size();
  s.calls_skipped += vr.counts.not_cast;
  for (auto& rec : vr.records) {
    auto i = usage_index_.find(rec.worker_id);
    if (i == usage_index_.end()) {
      i = usage_index_.emplace(rec.worker_id, s.usage.size()).first;
      s.usage.push_back(judge_usage{
        rec.worker_id.empty() ? "(no worker)" : rec.worker_id, 0, 0, 0, 0});
    }
    auto& h = host(rec.host);
    ++h.calls;
    h.faults += rec.transport_failed ? 1 : 0;
    auto& u = s.usage[i->second];
    s.cached += rec.cached;
    count_route(s, rec);
    ++u.calls;
    u.input_tokens += rec.input_tokens;
    u.output_tokens += rec.output_tokens;
    if (rec.batched) {
      u.batched_input_tokens += rec.input_tokens;
      u.batched_output_tokens += rec.output_tokens;
    }
    if (rec.transport_failed) {
      ++u.faults;
      ++s.faults;
      ++s.faults_by_kind[static_cast<std::size_t>(rec.fault)];
      // A failure the adapter could not classify reads as a connection fault.
      reasons_.add(u.judge,
                   rec.fault == fault_kind::none ? fault_kind::connection
                                                 : rec.fault,
                   rec.transport_error);
    }
    if (rec.fault == fault_kind::budget) {
      budget_faults_.resize(s.usage.size(), 0);
      ++budget_faults_[i->second];
    }
  }
}

void run_tally::add_unrecorded(const std::vector<unrecorded_calls>& calls) {
  auto& s = summary_;
  for (auto& c : calls) {
    s.calls_sent += c.answered + c.aborted_sent;
    s.calls_answered += c.answered;
    s.calls_aborted += c.aborted_sent + c.aborted_unsent;
    s.calls_unrecorded += c.answered + c.aborted_sent;
  }
  merge_unrecorded(unrecorded_, calls);
}

void run_tally::add_dropped(const vote_result& vr) {
  cancel_account dropped;
  for (auto& rec : vr.records)
    dropped.dropped(judge_of(rec.worker_id).second, rec);
  add_unrecorded(dropped.result());
}

void run_tally::add_note(audit_type type, const std::string& host_name,
                         const std::string& event) {
  auto& h = host(host_name);
  switch (type) {
    case audit_type::vote_moved:
      ++summary_.votes_moved;
      ++h.votes_moved;
      break;
    case audit_type::late_reply:
      ++summary_.late_replies;
      ++h.late_replies;
      break;
    case audit_type::host:
      if (event == to_string(host_event_kind::lost))
        ++h.lost;
      break;
    default: break;
  }
}

host_usage& run_tally::host(const std::string& host_name) {
  auto name = host_name.empty() ? std::string{"(none)"} : host_name;
  auto i = host_index_.find(name);
  if (i == host_index_.end()) {
    i = host_index_.emplace(name, summary_.hosts.size()).first;
    summary_.hosts.push_back(host_usage{name, 0, 0, 0, 0, 0});
  }
  return summary_.hosts[i->second];
}

std::pair<std::string, std::string>
run_tally::judge_of(const std::string& worker_id) const {
  for (auto& j : judges_)
    if (j.worker_id == worker_id)
      return {j.name, j.judge_id};
  return {worker_id.empty() ? std::string{"(no worker)"} : worker_id,
          std::string{}};
}

void run_tally::fill_end_parts(const run_config& cfg) {
  if (panel_)
    summary_.panel = panel_->summary();
  if (cascade_)
    summary_.cascade = cascade_->summary();
  fill_spend(cfg);
}

// Spend per budgeted or priced judge: its calls less those its budget
// refused, its tokens, their cost, and the limits it had.
void run_tally::fill_spend(const run_config& cfg) {
  summary_.spend.clear();
  for (auto& spec : cfg.judges) {
    if (!spec.budget.any() && !spec.prices)
      continue;
    judge_spend s;
    s.judge = spec.name;
    std::uint64_t batched_in = 0;
    std::uint64_t batched_out = 0;
    for (std::size_t i = 0; i < summary_.usage.size(); ++i) {
      auto& u = summary_.usage[i];
      if (u.judge != spec.name)
        continue;
      auto refused = i < budget_faults_.size() ? budget_faults_[i] : 0;
      s.calls = u.calls - refused;
      s.budget_faults = refused;
      s.input_tokens = u.input_tokens;
      s.output_tokens = u.output_tokens;
      batched_in = u.batched_input_tokens;
      batched_out = u.batched_output_tokens;
    }
    // A cancelled run's calls no record shows: sent ones count as calls,
    // replies received with their tokens, aborted ones without any.
    auto id = judge_id_of(spec);
    auto first = std::find_if(cfg.judges.begin(), cfg.judges.end(),
                              [&](auto& j) { return judge_id_of(j) == id; });
    auto u = std::find_if(unrecorded_.begin(), unrecorded_.end(),
                          [&](auto& x) { return x.judge_id == id; });
    if (u != unrecorded_.end() && &*first == &spec) {
      s.calls += u->answered + u->aborted_sent;
      s.input_tokens += u->input_tokens;
      s.output_tokens += u->output_tokens;
      batched_in += u->batched_input_tokens;
      batched_out += u->batched_output_tokens;
    }
    s.priced = spec.prices.has_value();
    s.cost = cost_of(s.input_tokens, s.output_tokens, batched_in, batched_out,
                     spec.prices.value_or(token_prices{}));
    auto& b = spec.budget;
    s.has_max_calls = b.max_calls.has_value();
    s.max_calls = b.max_calls.value_or(0);
    s.has_max_input_tokens = b.max_input_tokens.has_value();
    s.max_input_tokens = b.max_input_tokens.value_or(0);
    s.has_max_output_tokens = b.max_output_tokens.has_value();
    s.max_output_tokens = b.max_output_tokens.value_or(0);
    s.has_max_cost = b.max_cost.has_value();
    s.max_cost = b.max_cost.value_or(0.0);
    summary_.spend.push_back(std::move(s));
  }
}

} // namespace ij
