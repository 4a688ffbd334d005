#include "tools/run_report.hpp"

#include <algorithm>

#include <cstdio>

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

} // namespace

void run_report::add(const single_verdict& v) {
  const auto& label = v.label;
  ++pairs_;
  auto r = static_cast<std::size_t>(v.rule) - 1;
  if (r < by_rule_.size())
    ++by_rule_[r];
  if (label) {
    ++labelled_;
    std::size_t row = !v.outcome.equivalent ? 2 : (*v.outcome.equivalent ? 0 : 1);
    ++confusion_[row][*label ? 0 : 1];
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
  out += fmt("invjudge: run %s: %llu pairs judged, %llu items, %llu input lines rejected\n",
             interrupted ? "INTERRUPTED" : "complete", ull(pairs_), ull(items_),
             ull(s.rejected));
  static const char* rule_names[5] = {"I1 absent      NEITHER", "I2 fault       NEITHER",
                                      "I3 undecided   NEITHER", "I4 equivalent  INVARIANT",
                                      "I5 different   VIOLATED"};
  out += "  pair verdicts by rule           pairs\n";
  for (std::size_t i = 0; i < 5; ++i)
    out += fmt("    %-26s %8llu\n", rule_names[i], ull(by_rule_[i]));
  out += fmt("  item verdicts: INVARIANT %llu, VIOLATED %llu, NEITHER %llu\n",
             ull(items_by_verdict_[0]), ull(items_by_verdict_[1]),
             ull(items_by_verdict_[2]));
  out += fmt("  judge calls: %llu made, %llu skipped by early stop, %llu faults\n",
             ull(s.judge_calls), ull(s.calls_skipped), ull(s.faults));
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
  if (labelled_ > 0) {
    out += fmt("  comparator outcome x label (%llu labelled pairs)\n", ull(labelled_));
    out += fmt("    %-12s %12s %12s\n", "outcome", "label true", "label false");
    static const char* rows[3] = {"true", "false", "neither"};
    for (std::size_t r = 0; r < 3; ++r)
      out += fmt("    %-12s %12llu %12llu\n", rows[r], ull(confusion_[r][0]),
                 ull(confusion_[r][1]));
    auto right = confusion_[0][0] + confusion_[1][1];
    auto decided = right + confusion_[0][1] + confusion_[1][0];
    if (decided > 0)
      out += fmt("    decided %llu of %llu; correct when decided: %.1f%%\n",
                 ull(decided), ull(labelled_), 100.0 * double(right) / double(decided));
  }
  out += "  audit: " + audit_path + fmt(" (%llu lines)\n", ull(s.audit_lines));
  // Kept elsewhere, it shows later that the file was neither rewritten nor
  // cut: `invjudge audit verify FILE --expect-hash HASH`.
  if (!s.final_hash.empty())
    out += "  final hash: " + s.final_hash + "\n";
  return out;
}

} // namespace ij
