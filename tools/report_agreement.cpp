#include "tools/report_agreement.hpp"

#include <cmath>

#include "core/agreement/cascade_tally.hpp"
#include "tools/html_markup.hpp"

namespace ij {

namespace {

using namespace html;

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (auto& n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string panel_block(const panel_summary& p) {
  auto kind = p.kappa_kind == "cohen" ? std::string{"Cohen's kappa"}
                                      : std::string{"Fleiss' kappa"};
  std::vector<std::vector<std::string>> rows{
    {"rule", p.rule + " (a pair is decided when "
               + (p.rule == "unanimous"
                    ? std::string{"every judge gives"}
                    : std::string{"more than half of the judges give"})
               + " the same decided outcome)"},
    {"judges", joined(p.judges)},
    {"pairs the panel judged", fmt("%llu (canaries are not pairs; absent pairs "
                                   "are not judged)",
                                   ull(p.pairs))},
    {"tiers", fmt("all agree %llu, majority %llu, split %llu", ull(p.all),
                  ull(p.majority), ull(p.split))},
    {"rated pairs", fmt("%llu (no judge faulted: the pairs the statistics "
                        "below are over)",
                        ull(p.rated))}};
  if (p.rated > 0) {
    rows.push_back({"raw agreement (every judge the same)",
                    percent_interval(p.raw, p.raw_lo, p.raw_hi)});
    rows.push_back({kind, kappa_text(p.kappa_defined, p.kappa, p.kappa_interval,
                                     p.kappa_lo, p.kappa_hi)});
    rows.push_back({"intervals", fmt("at %.0f%%: Wilson for the agreement, "
                                     "jackknife for kappa",
                                     100.0 * p.confidence)});
  } else {
    rows.push_back({"agreement", "no pair rated by every judge (faults or "
                                 "absent answers)"});
  }
  auto out =
    "<h3>The panel</h3>" + table("panel", "", {"panel", "value"}, rows, "left");
  if (p.confusion.empty())
    return out + none("No labelled pairs: no judge against the labels.");
  std::vector<std::vector<std::string>> conf;
  for (auto& c : p.confusion) {
    std::vector<std::string> r{c.judge};
    for (auto n : c.cells)
      r.push_back(fmt("%llu", ull(n)));
    conf.push_back(std::move(r));
  }
  return out
         + table("panel-confusion",
                 "Each judge's outcome against the label (NEITHER includes "
                 "its faults)",
                 {"judge", "EQUIVALENT, label true", "EQUIVALENT, label false",
                  "DIFFERENT, label true", "DIFFERENT, label false",
                  "NEITHER, label true", "NEITHER, label false"},
                 conf);
}

std::string couples_block(const audit_digest& d) {
  std::vector<std::string> labels;
  std::vector<double> raw;
  std::vector<std::vector<std::string>> rows;
  for (auto& a : d.agreements) {
    labels.push_back(a.a + " / " + a.b);
    raw.push_back(std::round(1000 * a.raw.value) / 1000);
    rows.push_back(
      {a.a + " / " + a.b, fmt("%llu", ull(a.pairs)), fmt("%llu", ull(a.agree)),
       percent_interval(a.raw.value, a.raw.lo, a.raw.hi), kappa_text(a.kappa)});
  }
  auto caption = d.panel ? "Each couple of judges, on the pairs every panel "
                           "judge rated (outcomes EQUIVALENT, DIFFERENT, "
                           "NEITHER)"
                         : "Each couple of judges, on the pairs both "
                           "answered (majority decisions EQUIVALENT, "
                           "DIFFERENT, ABSTAIN)";
  return (d.panel ? "<h3>Each couple of judges</h3>" : "")
         + figure(
           svg::bar_chart("plot-agreement",
                          "raw agreement per couple of judges (numbers "
                          "in the table below)",
                          labels, raw, "#59a14f"),
           table("agreement", caption,
                 {"judges", "pairs", "agree", "raw agreement", "Cohen's kappa"},
                 rows));
}

} // namespace

std::string agreement_section(const audit_digest& d) {
  std::string body;
  if (d.panel)
    body += panel_block(*d.panel);
  if (!d.agreements.empty())
    body += couples_block(d);
  else if (!d.panel)
    body = none(d.cascade ? "A cascade: its judges do not judge the same "
                            "pairs as a panel does (see the cascade below)."
                          : "No panel in this run: no pair was answered by "
                            "two or more judges.");
  return section("agreement", "Agreement between judges",
                 "With a panel: its tiers, raw agreement and kappa with their "
                 "intervals, and each judge against the labels, as the run "
                 "summary states them. For each couple of judges that "
                 "answered the same pairs: raw agreement and Cohen's kappa "
                 "(agreement beyond chance). Canaries are not pairs and are "
                 "not counted here.",
                 body);
}

std::string cascade_section(const audit_digest& d) {
  if (!d.cascade)
    return {};
  auto& c = *d.cascade;
  // At 95%, as the run summary states it.
  auto precision = rules_precision(c, 0.05);
  auto share = c.rules_decided > 0
                 ? percent(static_cast<double>(c.audited)
                           / static_cast<double>(c.rules_decided))
                 : std::string{"-"};
  std::vector<std::vector<std::string>> paths{
    {"pairs into the cascade",
     fmt("%llu (canaries are not pairs)", ull(c.pairs))},
    {"decided by the rules (" + c.rules + ")",
     fmt("%llu", ull(c.rules_decided))},
    {"sent on to " + c.llm + " (rules undecided)",
     fmt("%llu", ull(c.fallback))},
    {"rule-decided pairs audited by " + c.llm,
     fmt("%llu of %llu: ", ull(c.audited), ull(c.rules_decided)) + share
       + " (configured audit rate " + percent(c.audit_rate) + ")"},
    {"judge calls",
     fmt("rules %llu, LLM %llu", ull(c.rules_calls), ull(c.llm_calls))}};
  std::vector<std::vector<std::string>> audit{
    {"the LLM agreed", fmt("%llu", ull(c.audit_agree))},
    {"the LLM DISAGREED", fmt("%llu", ull(c.audit_disagree))},
    {"the LLM was undecided", fmt("%llu", ull(c.audit_undecided))},
    {"rules' live precision (95%)",
     precision.n == 0
       ? std::string{"no audited pair the LLM decided"}
       : percent_interval(precision.value, precision.lo, precision.hi)
           + fmt(" over %llu audited pairs", ull(precision.n))},
    {"EQUIVALENT confirmed", fmt("%llu of %llu", ull(c.equivalent_confirmed),
                                 ull(c.equivalent_checked))},
    {"DIFFERENT confirmed", fmt("%llu of %llu", ull(c.different_confirmed),
                                ull(c.different_checked))}};
  return section(
    "cascade", "Cascade",
    "Rules first: the rule judge decides the pairs it can read, "
    "the LLM judge the rest; a seeded share of the rule-decided "
    "pairs goes to the LLM judge as well (the audit), which "
    "measures the rules' precision live (Wilson interval).",
    table("cascade-paths", "Paths", {"path", "pairs"}, paths, "left")
      + table("cascade-audit", "The audit of the rules", {"finding", "value"},
              audit, "left"));
}

} // namespace ij
