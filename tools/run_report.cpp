#include "tools/run_report.hpp"

#include <algorithm>
#include <cstdio>

#include "core/agreement/cascade_tally.hpp"
#include "core/calibration/calibration.hpp"
#include "core/verdicts/verdict_table.hpp"

namespace ij {

namespace {

template <class... Ts>
std::string fmt(const char* f, Ts... xs) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, xs...);
  return buf;
}

unsigned long long ull(std::uint64_t x) {
  return static_cast<unsigned long long>(x);
}

double pct(double x) {
  return 100.0 * x;
}

std::string panel_lines(const panel_summary& p) {
  std::string names;
  for (auto& j : p.judges)
    names += (names.empty() ? "" : ", ") + j;
  std::string out = fmt("  panel (%s): ", p.rule.c_str()) + names + "\n";
  out += fmt("    %llu pairs: all agree %llu, majority %llu, split %llu\n",
             ull(p.pairs), ull(p.all), ull(p.majority), ull(p.split));
  auto conf = pct(p.confidence);
  if (p.rated == 0) {
    out += "    agreement: no pair rated by every judge (faults or absent "
           "answers)\n";
  } else {
    out +=
      fmt("    raw agreement %.1f%% [%.1f%%, %.1f%%] over %llu rated pairs; ",
          pct(p.raw), pct(p.raw_lo), pct(p.raw_hi), ull(p.rated));
    auto kind = p.kappa_kind == "cohen" ? "Cohen's" : "Fleiss'";
    if (!p.kappa_defined)
      out += fmt("%s kappa undefined (every rating in one class)\n", kind);
    else if (!p.kappa_interval)
      out += fmt("%s kappa %.3f (no interval: too few pairs or classes)\n",
                 kind, p.kappa);
    else
      out += fmt("%s kappa %.3f [%.3f, %.3f]\n", kind, p.kappa, p.kappa_lo,
                 p.kappa_hi);
    out += fmt("    (intervals at %.0f%%: Wilson for the agreement, jackknife "
               "for kappa)\n",
               conf);
  }
  if (!p.confusion.empty()) {
    out += fmt("    %-32s %14s %14s %14s\n", "judge x label (true/false)",
               "EQUIVALENT", "DIFFERENT", "NEITHER");
    for (auto& c : p.confusion) {
      auto cell = [&](std::size_t row) {
        return fmt("%llu/%llu", ull(c.cells[2 * row]),
                   ull(c.cells[2 * row + 1]));
      };
      out += fmt("    %-32s %14s %14s %14s\n", c.judge.c_str(), cell(0).c_str(),
                 cell(1).c_str(), cell(2).c_str());
    }
  }
  return out;
}

std::string cascade_lines(const cascade_summary& c, double alpha) {
  std::string out =
    "  cascade: " + c.rules + " first, " + c.llm
    + fmt(" on the rest; audit rate %.1f%%\n", pct(c.audit_rate));
  out +=
    fmt("    %llu pairs: %llu decided by the rules, %llu sent on (rules "
        "undecided), %llu rule-decided pairs audited\n",
        ull(c.pairs), ull(c.rules_decided), ull(c.fallback), ull(c.audited));
  if (c.audited > 0) {
    auto checked = c.audit_agree + c.audit_disagree;
    out +=
      fmt("    audit: %llu agree, %llu DISAGREE, %llu LLM undecided (95%% "
          "intervals)",
          ull(c.audit_agree), ull(c.audit_disagree), ull(c.audit_undecided));
    if (checked > 0) {
      auto p = rules_precision(c, alpha); // as the report states it
      out += fmt("; rules precision %.1f%% [%.1f%%, %.1f%%] (EQUIVALENT "
                 "%llu/%llu, DIFFERENT %llu/%llu confirmed)",
                 pct(p.value), pct(p.lo), pct(p.hi),
                 ull(c.equivalent_confirmed), ull(c.equivalent_checked),
                 ull(c.different_confirmed), ull(c.different_checked));
    }
    out += "\n";
  }
  auto e = estimate_llm_only(c);
  // Stubs and rule judges report no tokens: then calls only.
  bool tokens = c.llm_input_tokens + c.llm_output_tokens > 0;
  out += fmt("    LLM calls %llu", ull(c.llm_calls));
  if (tokens)
    out += fmt(", tokens %llu in / %llu out", ull(c.llm_input_tokens),
               ull(c.llm_output_tokens));
  if (e.known && e.calls > 0) {
    out += fmt("; an LLM-only run: ~%.0f calls", e.calls);
    if (tokens)
      out += fmt(", ~%.0f / ~%.0f tokens", e.input_tokens, e.output_tokens);
    out += fmt(" (saved ~%.0f calls, %.1f%%)", e.saved_calls,
               pct(e.saved_calls / e.calls));
  } else if (c.pairs > 0)
    out += "; the LLM judge was never asked (an LLM-only run: every pair)";
  out += "\n";
  return out;
}

std::string limit_text(bool has, std::uint64_t v) {
  return has ? fmt("/%llu", ull(v)) : std::string{};
}

std::string spend_lines(const std::vector<judge_spend>& spend) {
  std::string out = fmt("  spend against budget                calls        "
                        "input tokens       output tokens            cost  "
                        "refused\n");
  for (auto& s : spend) {
    auto calls =
      fmt("%llu", ull(s.calls)) + limit_text(s.has_max_calls, s.max_calls);
    auto in = fmt("%llu", ull(s.input_tokens))
              + limit_text(s.has_max_input_tokens, s.max_input_tokens);
    auto outt = fmt("%llu", ull(s.output_tokens))
                + limit_text(s.has_max_output_tokens, s.max_output_tokens);
    auto cost = !s.priced        ? std::string{"-"}
                : s.has_max_cost ? fmt("%.4f/%.4f", s.cost, s.max_cost)
                                 : fmt("%.4f", s.cost);
    out += fmt("    %-28s %13s %19s %19s %15s %8llu\n", s.judge.c_str(),
               calls.c_str(), in.c_str(), outt.c_str(), cost.c_str(),
               ull(s.budget_faults));
  }
  return out;
}

// Canaries, bias alarms and position bias: what the run learnt about its
// judges (issue 10).
std::string render_judge_watch(const run_summary& s) {
  std::string out;
  // Issue 29: pairs no judge was asked about, pairs carrying a verdict.
  if (s.screened > 0 || s.flagged > 0)
    out += fmt(
      "  guarded pairs: %llu screened (an answer states no result: ABSTAIN, no "
      "call), %llu with a planted verdict (flags in the audit's vote "
      "records)\n",
      ull(s.screened), ull(s.flagged));
  if (s.canaries > 0) {
    out +=
      fmt("  canaries: %llu judged (not counted as pairs)\n", ull(s.canaries));
    out += fmt("    %-32s %9s %7s %12s %9s %9s  %s\n", "judge", "answered",
               "failed", "false equiv", "decided", "identity", "alarm");
    for (auto& t : s.canary_tallies)
      out += fmt("    %-32s %9llu %7llu %12llu %9llu %9llu  %s\n",
                 t.judge.c_str(), ull(t.canaries), ull(t.failed),
                 ull(t.false_equivalent), ull(t.decided_abstain),
                 ull(t.failed_identity), t.alarmed ? "FIRED" : "-");
  }
  for (auto& a : s.alarms)
    out +=
      fmt("  BIAS ALARM: judge %s, %s (%llu of %llu failed), at canary "
          "%llu; action %s\n",
          a.judge.c_str(), a.mode.c_str(), ull(a.failures), ull(a.observations),
          ull(a.at_canary), std::string{to_string(a.action)}.c_str());
  if (!s.position_bias.empty()) {
    out += "  position bias (order balancing: the decision changed when A and "
           "B were swapped)\n";
    for (auto& p : s.position_bias)
      out += fmt("    %-32s %6llu of %6llu pairs  %5.1f%%  [%.1f%%, %.1f%%]\n",
                 p.judge.c_str(), ull(p.changed), ull(p.comparisons),
                 100.0 * p.rate, 100.0 * p.lo, 100.0 * p.hi);
  }
  return out;
}

// The judge calls recorded, and where they went: a vote refused by the
// breaker or at a budget is recorded (a fault) but was never sent.
std::string judge_calls_line(const run_summary& s) {
  // calls_sent also counts a cancel's calls no record shows.
  auto recorded_sent = s.calls_sent - s.calls_unrecorded;
  auto out = fmt("  judge calls: %llu recorded: %llu sent, %llu refused by the "
                 "breaker, %llu refused by a budget",
                 ull(s.judge_calls), ull(recorded_sent),
                 ull(s.calls_refused_breaker), ull(s.calls_refused_budget));
  if (s.cached > 0)
    out += fmt(", %llu from the cache", ull(s.cached));
  auto routed =
    recorded_sent + s.calls_refused_breaker + s.calls_refused_budget + s.cached;
  if (s.judge_calls > routed)
    out += fmt(", %llu taken by no worker", ull(s.judge_calls - routed));
  out += fmt("; %llu skipped by early stop; %llu faults\n",
             ull(s.calls_skipped), ull(s.faults));
  if (s.calls_aborted > 0 || s.calls_unrecorded > 0) {
    auto aborted_sent = s.calls_sent - s.calls_answered;
    out += fmt("  calls of the cancel: %llu aborted (%llu of them already "
               "sent), %llu answered but dropped with unfinished pairs; "
               "%llu sent in all, %llu answered\n",
               ull(s.calls_aborted), ull(aborted_sent),
               ull(s.calls_unrecorded - aborted_sent), ull(s.calls_sent),
               ull(s.calls_answered));
  }
  return out;
}

} // namespace

void run_report::add(const single_verdict& v) {
  const auto& label = v.label;
  ++pairs_;
  auto r = static_cast<std::size_t>(v.rule) - 1;
  if (r < by_rule_.size())
    ++by_rule_[r];
  if (label) {
    ++labelled_;
    std::size_t row =
      !v.outcome.equivalent ? 2 : (*v.outcome.equivalent ? 0 : 1);
    ++confusion_[row][*label ? 0 : 1];
    if (auto pe = v.outcome.probability; pe >= 0) {
      auto score = score_pair(pe, *label); // as the report scores it
      calibrated_.push_back(score.leading);
      calibrated_right_.push_back(score.right);
    }
  }
}

void run_report::add(const statistical_verdict& v) {
  ++items_;
  ++items_by_verdict_[static_cast<std::size_t>(v.verdict)];
}

std::string run_report::render(const run_summary& s,
                               const std::string& audit_path,
                               bool interrupted) const {
  std::string out;
  out += fmt("invjudge: run %s: %llu pairs judged, %llu items, %llu input "
             "lines rejected\n",
             interrupted ? "INTERRUPTED" : "complete", ull(pairs_), ull(items_),
             ull(s.rejected));
  static const char* rule_names[5] = {
    "I1 absent      NEITHER", "I2 fault       NEITHER",
    "I3 undecided   NEITHER", "I4 equivalent  INVARIANT",
    "I5 different   VIOLATED"};
  out += "  pair verdicts by rule           pairs\n";
  for (std::size_t i = 0; i < 5; ++i)
    out += fmt("    %-26s %8llu\n", rule_names[i], ull(by_rule_[i]));
  out += fmt("  item verdicts: INVARIANT %llu, VIOLATED %llu, NEITHER %llu\n",
             ull(items_by_verdict_[0]), ull(items_by_verdict_[1]),
             ull(items_by_verdict_[2]));
  out += judge_calls_line(s);
  if (s.cached > 0)
    out +=
      fmt("  cached: %llu judge record(s) reused from the response cache\n",
          ull(s.cached));
  if (!s.usage.empty()) {
    out += fmt("    %-32s %10s %8s %14s %14s\n", "judge", "calls", "faults",
               "input tokens", "output tokens");
    for (auto& u : s.usage)
      out += fmt("    %-32s %10llu %8llu %14llu %14llu\n", u.judge.c_str(),
                 ull(u.calls), ull(u.faults), ull(u.input_tokens),
                 ull(u.output_tokens));
  }
  // Judge hosts: who served, who failed, what moved (only when a run used
  // any host beyond this process).
  bool remote = std::any_of(s.hosts.begin(), s.hosts.end(),
                            [](auto& h) { return h.host != "local"; });
  if (remote) {
    out += fmt("  hosts: %llu votes moved, %llu late replies dropped\n",
               ull(s.votes_moved), ull(s.late_replies));
    out += fmt("    %-32s %10s %8s %8s %8s %6s\n", "host", "calls", "faults",
               "moved", "late", "lost");
    for (auto& h : s.hosts)
      out += fmt("    %-32s %10llu %8llu %8llu %8llu %6llu\n", h.host.c_str(),
                 ull(h.calls), ull(h.faults), ull(h.votes_moved),
                 ull(h.late_replies), ull(h.lost));
  }
  if (s.panel.enabled)
    out += panel_lines(s.panel);
  if (s.cascade.enabled)
    out += cascade_lines(s.cascade, 0.05);
  if (!s.spend.empty())
    out += spend_lines(s.spend);
  if (labelled_ > 0) {
    out += fmt("  comparator outcome x label (%llu labelled pairs)\n",
               ull(labelled_));
    out += fmt("    %-12s %12s %12s\n", "outcome", "label true", "label false");
    static const char* rows[3] = {"true", "false", "neither"};
    for (std::size_t r = 0; r < 3; ++r)
      out += fmt("    %-12s %12llu %12llu\n", rows[r], ull(confusion_[r][0]),
                 ull(confusion_[r][1]));
    auto right = confusion_[0][0] + confusion_[1][1];
    auto decided = right + confusion_[0][1] + confusion_[1][0];
    if (decided > 0)
      out += fmt("    decided %llu of %llu; correct when decided: %.1f%%\n",
                 ull(decided), ull(labelled_),
                 100.0 * double(right) / double(decided));
    if (!calibrated_.empty())
      out += fmt("    calibrated probability: ECE %.4f, Brier %.4f over %llu "
                 "labelled pairs\n",
                 expected_calibration_error(calibrated_, calibrated_right_),
                 brier_score(calibrated_, calibrated_right_),
                 ull(calibrated_.size()));
  }
  out += render_judge_watch(s);
  out += "  audit: " + audit_path + fmt(" (%llu lines)\n", ull(s.audit_lines));
  // Kept elsewhere, it shows later that the file was neither rewritten nor
  // cut: `invjudge audit verify FILE --expect-hash HASH`.
  if (!s.final_hash.empty())
    out += "  final hash: " + s.final_hash + "\n";
  return out;
}

} // namespace ij
