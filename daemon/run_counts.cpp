#include "daemon/run_counts.hpp"

#include <algorithm>

#include <rapidjson/document.h>

namespace ij {

namespace {

std::uint64_t rule(const run_totals& t, int i) {
  return t.summary.by_rule[i];
}

std::string key_of(const run_count& c) {
  return c.group ? std::string{c.group} + "." + c.name : std::string{c.name};
}

} // namespace

void run_totals::add(const single_verdict& v) {
  ++summary.pairs;
  ++summary.by_rule[static_cast<int>(v.rule) - 1];
  summary.calls_skipped += v.counts.not_cast;
  summary.faults += v.counts.faults;
}

const std::vector<run_count>& run_count_table() {
  static const std::vector<run_count> table = {
    {"pairs", nullptr, "Pairs accepted from the uploads.",
     [](const run_totals& t) { return t.accepted; }},
    {"verdicts", nullptr, "Pairs that got a verdict, by any rule (I1-I5).",
     [](const run_totals& t) { return t.summary.pairs; }},
    {"decided", nullptr,
     "Pairs decided INVARIANT (I4) or VIOLATED (I5); absent (I1), faulted "
     "(I2) and undecided (I3) pairs are not decided.",
     [](const run_totals& t) { return rule(t, 3) + rule(t, 4); }},
    {"I1", "by_rule", "Pair verdicts by rule I1: an answer absent.",
     [](const run_totals& t) { return rule(t, 0); }},
    {"I2", "by_rule", "Pair verdicts by rule I2: the judge faulted.",
     [](const run_totals& t) { return rule(t, 1); }},
    {"I3", "by_rule",
     "Pair verdicts by rule I3: undecided (abstain, "
     "unreadable reply, no agreement).",
     [](const run_totals& t) { return rule(t, 2); }},
    {"I4", "by_rule", "Pair verdicts by rule I4: equivalent, INVARIANT.",
     [](const run_totals& t) { return rule(t, 3); }},
    {"I5", "by_rule", "Pair verdicts by rule I5: different, VIOLATED.",
     [](const run_totals& t) { return rule(t, 4); }},
    {"items", nullptr, "Item (statistical) verdicts.",
     [](const run_totals& t) { return t.summary.items; }},
    {"judge_calls", nullptr,
     "Judge call records (faulted and cached calls included).",
     [](const run_totals& t) { return t.summary.judge_calls; }},
    {"faults", nullptr, "Judge calls that failed (each a fault record).",
     [](const run_totals& t) { return t.summary.faults; }},
    {"cached", nullptr,
     "Judge records reused from the response cache (known once the run "
     "has ended).",
     [](const run_totals& t) { return t.summary.cached; }},
    {"sent", "calls",
     "Judge calls that reached a backend, recorded or not (a cancelled "
     "run's aborted and dropped ones too; known once the run has ended).",
     [](const run_totals& t) { return t.summary.calls_sent; }},
    {"answered", "calls",
     "Judge calls sent whose reply (or fault) came back, recorded or "
     "dropped with a pair a cancel left unfinished (known once the run has "
     "ended).",
     [](const run_totals& t) { return t.summary.calls_answered; }},
    {"aborted", "calls",
     "Judge calls a cancel (DELETE, SIGTERM) ended in flight or queued; "
     "those already sent count in sent too (known once the run has ended).",
     [](const run_totals& t) { return t.summary.calls_aborted; }},
    {"refused_breaker", "calls",
     "Judge calls the circuit breaker refused: never sent (known once the "
     "run has ended).",
     [](const run_totals& t) { return t.summary.calls_refused_breaker; }},
    {"refused_budget", "calls",
     "Judge calls refused at a budget: never sent (known once the run has "
     "ended).",
     [](const run_totals& t) { return t.summary.calls_refused_budget; }},
    {"skipped", nullptr,
     "Votes not cast because the pair's outcome was already fixed.",
     [](const run_totals& t) { return t.summary.calls_skipped; }},
    {"rejected", nullptr, "Input lines the uploads rejected.",
     [](const run_totals& t) { return t.rejected; }},
    {"unfinished", nullptr,
     "Pairs taken in without a verdict when the run was interrupted or "
     "cancelled.",
     [](const run_totals& t) { return t.summary.unfinished; }},
  };
  return table;
}

void write_counts(json_writer& w, const run_totals& t) {
  w.StartObject();
  const char* open_group = nullptr;
  for (auto& c : run_count_table()) {
    if (open_group && (!c.group || std::string{c.group} != open_group)) {
      w.EndObject();
      open_group = nullptr;
    }
    if (c.group && !open_group) {
      w.Key(c.group);
      w.StartObject();
      open_group = c.group;
    }
    w.Key(c.name);
    w.Uint64(c.of(t));
  }
  if (open_group)
    w.EndObject();
  w.EndObject();
}

std::string counts_json(const run_totals& t) {
  rapidjson::StringBuffer sb;
  json_writer w(sb);
  write_counts(w, t);
  return {sb.GetString(), sb.GetSize()};
}

namespace {

// Adds (sign +1) or takes away (-1) a counts object's fields.
void fold_counts(const std::string& counts_json,
                 std::map<std::string, std::uint64_t>& sums, int sign) {
  rapidjson::Document d;
  d.Parse(counts_json);
  if (!d.IsObject())
    return;
  for (auto& c : run_count_table()) {
    const rapidjson::Value* obj = &d;
    if (c.group) {
      auto g = d.FindMember(c.group);
      if (g == d.MemberEnd() || !g->value.IsObject())
        continue;
      obj = &g->value;
    }
    auto v = obj->FindMember(c.name);
    if (v == obj->MemberEnd() || !v->value.IsUint64())
      continue;
    auto& sum = sums[key_of(c)];
    auto n = v->value.GetUint64();
    sum = sign > 0 ? sum + n : sum - std::min(sum, n);
  }
}

} // namespace

void add_counts(const std::string& counts_json,
                std::map<std::string, std::uint64_t>& sums) {
  fold_counts(counts_json, sums, 1);
}

void fold_finished(run_state state, const std::string& counts_json,
                   run_figures& sums, bool add) {
  fold_counts(counts_json, sums.count_sums, add ? 1 : -1);
  auto& n = sums.runs_by_state[state];
  n = add ? n + 1 : n - std::min<std::uint64_t>(n, 1);
}

std::string counts_metrics(const std::map<std::string, std::uint64_t>& sums) {
  std::string out =
    "# HELP invjudge_run_counts The counts of GET /v1/runs/{id}, summed over "
    "every run in the state (count: the field, by_rule.I1..I5 inside "
    "by_rule).\n# TYPE invjudge_run_counts gauge\n";
  for (auto& c : run_count_table()) {
    auto key = key_of(c);
    auto it = sums.find(key);
    out += "invjudge_run_counts{count=\"" + key + "\"} "
           + std::to_string(it == sums.end() ? 0 : it->second) + "\n";
  }
  return out;
}

} // namespace ij
