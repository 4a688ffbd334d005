#include "actors/run_totals.hpp"

#include <algorithm>
#include <iterator>

#include "core/call_route.hpp"

namespace ij {

namespace {

// Sent, refused by the breaker or at a budget (core/call_route.hpp).
void count_route(run_summary& s, const judge_record& rec) {
  call_facts facts{rec.cached, rec.refused_by_breaker, rec.fault,
                   !rec.worker_id.empty()};
  switch (route_of(facts)) {
    case call_route::sent: ++s.calls_sent; break;
    case call_route::refused_breaker: ++s.calls_refused_breaker; break;
    case call_route::refused_budget: ++s.calls_refused_budget; break;
    default: break; // cached (counted above), or no worker took it
  }
}

} // namespace

// The panel, cascade and budget parts of the summary (issue 10).
void fill_watch_summaries(run_session_state& st) {
  if (st.panel)
    st.summary.panel = st.panel->summary();
  if (st.cascade)
    st.summary.cascade = st.cascade->summary();
  st.summary.spend.clear();
  for (auto& spec : st.setup.config.judges) {
    if (!spec.budget.any() && !spec.prices)
      continue;
    judge_spend s;
    s.judge = spec.name;
    for (std::size_t i = 0; i < st.summary.usage.size(); ++i) {
      auto& u = st.summary.usage[i];
      if (u.judge != spec.name)
        continue;
      auto refused = i < st.budget_faults.size() ? st.budget_faults[i] : 0;
      s.calls = u.calls - refused;
      s.budget_faults = refused;
      s.input_tokens = u.input_tokens;
      s.output_tokens = u.output_tokens;
    }
    s.priced = spec.prices.has_value();
    s.cost = cost_of(s.input_tokens, s.output_tokens,
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
    st.summary.spend.push_back(std::move(s));
  }
}

// The usage line of a host ("local", a judge host's ADDR:PORT, "(none)" for
// votes no worker took), made on first use.
host_usage& host_line(run_session_state& st, const std::string& host) {
  auto name = host.empty() ? std::string{"(none)"} : host;
  auto i = st.host_index.find(name);
  if (i == st.host_index.end()) {
    i = st.host_index.emplace(name, st.summary.hosts.size()).first;
    st.summary.hosts.push_back(host_usage{name, 0, 0, 0, 0, 0});
  }
  return st.summary.hosts[i->second];
}

void account(run_session_state& st, const vote_result& vr) {
  auto& s = st.summary;
  s.judge_calls += vr.records.size();
  s.calls_skipped += vr.counts.not_cast;
  for (auto& rec : vr.records) {
    auto i = st.usage_index.find(rec.worker_id);
    if (i == st.usage_index.end()) {
      i = st.usage_index.emplace(rec.worker_id, s.usage.size()).first;
      s.usage.push_back(judge_usage{rec.worker_id.empty() ? "(no worker)"
                                                          : rec.worker_id,
                                    0, 0, 0, 0});
    }
    auto& h = host_line(st, rec.host);
    ++h.calls;
    h.faults += rec.transport_failed ? 1 : 0;
    auto& u = s.usage[i->second];
    s.cached += rec.cached;
    count_route(s, rec);
    ++u.calls;
    u.input_tokens += rec.input_tokens;
    u.output_tokens += rec.output_tokens;
    if (rec.transport_failed) {
      ++u.faults;
      ++s.faults;
      ++s.faults_by_kind[static_cast<std::size_t>(rec.fault)];
      // A failure the adapter could not classify reads as a connection fault.
      st.fault_reasons.add(u.judge,
                           rec.fault == fault_kind::none ? fault_kind::connection
                                                         : rec.fault,
                           rec.transport_error);
    }
    if (rec.fault == fault_kind::budget) {
      st.budget_faults.resize(s.usage.size(), 0);
      ++st.budget_faults[i->second];
    }
  }
}

// Usage is reported per judge name; every worker of a judge adds to it.
void index_usage(run_session_state& st) {
  for (auto& j : st.judges) {
    auto& usage = st.summary.usage;
    auto named = std::find_if(usage.begin(), usage.end(),
                              [&](auto& u) { return u.judge == j.name; });
    if (named == usage.end()) {
      usage.push_back(judge_usage{j.name, 0, 0, 0, 0});
      named = std::prev(usage.end());
    }
    st.usage_index[j.worker_id] =
      static_cast<std::size_t>(named - usage.begin());
  }
}

// A meter per budgeted judge, by judge id (the coordinators' key); a
// resumed run's meters start from what its audit says was spent.
std::unordered_map<std::string, budget_meter>
budget_meters(const run_config& cfg, const resume_point* resume) {
  std::unordered_map<std::string, budget_meter> out;
  for (auto& spec : cfg.judges)
    if (spec.budget.any())
      out.emplace(judge_id_of(spec),
                  budget_meter{spec.budget,
                               spec.prices.value_or(token_prices{})});
  if (resume)
    for (auto& spec : cfg.judges) {
      auto meter = out.find(judge_id_of(spec));
      auto spent = resume->spent.find(spec.name);
      if (meter != out.end() && spent != resume->spent.end())
        meter->second.carry(spent->second);
    }
  return out;
}

// The judge of a worker, {name, judge id}: workers the run started with are
// named by their judge; one unknown to the manifest by its own id.
std::pair<std::string, std::string> judge_of(const run_session_state& st,
                                             const std::string& worker_id) {
  for (auto& j : st.judges)
    if (j.worker_id == worker_id)
      return {j.name, j.judge_id};
  return {worker_id.empty() ? std::string{"(no worker)"} : worker_id,
          std::string{}};
}

run_progress snapshot(const run_session_state& st) {
  run_progress p;
  p.run_id = st.setup.run_id;
  using phase = run_session_state::phase;
  p.state = st.state == phase::starting ? "starting"
            : st.state == phase::ended  ? "ended"
            : st.end_written            ? "finishing"
                                        : "running";
  p.admitted = st.admitted;
  p.released = st.released;
  p.faults = st.summary.by_rule[1];
  p.judge_calls = st.summary.judge_calls;
  return p;
}

} // namespace ij
