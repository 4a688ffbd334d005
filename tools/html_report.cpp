#include "tools/html_report.hpp"

#include "core/budgets/judge_budget.hpp"
#include "tools/batch_section.hpp"
#include "tools/calibration_section.hpp"
#include "tools/final_hash_check.hpp"
#include "tools/html_markup.hpp"
#include "tools/report_agreement.hpp"

namespace ij {

namespace {

using namespace html;

const char* style = R"(<style>
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:980px;color:#222}
h1{font-size:1.5em}h2{font-size:1.15em;border-bottom:1px solid #ccc;padding-bottom:.2em}
.what{color:#555;font-size:.9em}.none{color:#777;font-style:italic}
table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}
.ok{background:#e8f5e9;border:1px solid #66bb6a;padding:.6em}
.checked{background:#eef3f8;border:1px solid #7a9cc6;padding:.6em}
.warn{background:#fff8e1;border:1px solid #ffb300;padding:.6em}
.bad{background:#b71c1c;color:#fff;font-size:1.3em;font-weight:bold;padding:1em;border:4px solid #000}
.alarm{color:#b71c1c;font-weight:bold}table.left td,table.left th{text-align:left}code{font-size:.85em}
figure{margin:1em 0}caption{caption-side:top;text-align:left;font-size:.9em;color:#555;padding:.2em 0}
h3{font-size:1em}svg.plot{display:block;max-width:none}
</style>)";

// Says exactly what was checked: the chain covers every line but the last,
// which only the final hash the reader kept (--expect-hash) covers.
std::string banner(const report_status& s) {
  if (s.unverified)
    return "<div class=\"bad\" id=\"unverified\">UNVERIFIED AUDIT: this "
           "audit does not verify ("
           + escape(s.reason)
           + "). What follows may have been edited; do not rely on it.</div>";
  auto hash = s.hash_checked ? last_line_checked(s.lines, s.final_hash)
                             : last_line_caveat(s.lines, s.final_hash);
  // The hash in a <code> of its own, to copy and compare.
  auto at = hash.find(s.final_hash);
  auto words = escape(hash.substr(0, at)) + "<code>" + escape(s.final_hash)
               + "</code>" + escape(hash.substr(at + s.final_hash.size()));
  if (s.chain == "ok")
    return std::string{"<div class=\""} + (s.hash_checked ? "ok" : "checked")
           + "\" id=\"verified\">Audit " + words + ". Run complete."
           + (s.hash_checked ? ""
                             : " (<code>invjudge report --expect-hash "
                               "HASH</code> checks the last line against the "
                               "hash printed when the run ended.)")
           + "</div>";
  return "<div class=\"warn\" id=\"verified\">Audit " + words + "; but "
         + escape(s.reason) + ".</div>";
}

// When a pair's voting stopped, as the manifest declares it, and how
// often each reason did stop a pair.
std::string stop_rule(const audit_digest& d) {
  auto rule =
    fmt("%llu of %llu votes agree (the outcome is fixed), or the votes run out",
        ull(d.min_agreement), ull(d.votes));
  if (d.stop_probability)
    rule += fmt(
      "; or the calibrated probability of a decision some vote made reaches %g "
      "(stop.probability)",
      *d.stop_probability);
  std::string counts;
  for (auto& [why, n] : d.stops)
    counts += (counts.empty() ? "" : ", ") + why + " " + std::to_string(n);
  return counts.empty() ? rule : rule + ". Pairs stopped: " + counts;
}

std::string run_table(const audit_digest& d, const report_status& s) {
  std::string t = "<table id=\"run\" class=\"left\">";
  auto row = [&](const std::string& k, const std::string& v) {
    t += "<tr><th>" + escape(k) + "</th><td>" + escape(v) + "</td></tr>";
  };
  row("audit file", s.audit_path);
  row("run", d.run_id);
  row("started", d.started_at);
  row("invjudge version", d.version);
  row("prompt", d.prompt_id + " (SHA-256 " + d.prompt_sha256 + ")");
  std::string judges;
  for (auto& j : d.judges)
    judges += (judges.empty() ? "" : ", ") + j.name;
  row("judges", judges);
  row("votes",
      fmt("%llu, %llu must agree%s", ull(d.votes), ull(d.min_agreement),
          d.order_balancing ? ", order balancing on" : ""));
  row("answer policy",
      d.answer_policy.empty() ? "not recorded" : d.answer_policy);
  row("calibration map",
      d.calibration_map.empty()
        ? std::string{"none"}
        : d.calibration_map + " (SHA-256 " + d.calibration_sha256 + ")");
  row("stop rule", stop_rule(d));
  row("canaries", d.canary_rate > 0
                    ? fmt("rate %g, seed %llu, on alarm: ", d.canary_rate,
                          ull(d.canary_seed))
                        + d.on_alarm
                    : std::string{"none"});
  row("pairs judged",
      fmt("%llu (%llu input lines rejected)", ull(d.pairs), ull(d.rejected)));
  row("items", fmt("INVARIANT %llu, VIOLATED %llu, NEITHER %llu",
                   ull(d.items[0]), ull(d.items[1]), ull(d.items[2])));
  if (!d.other_records.empty()) {
    std::string other;
    for (auto& [type, n] : d.other_records)
      other += (other.empty() ? "" : ", ") + type + " " + std::to_string(n);
    row("other records (not read)", other);
  }
  return t + "</table>";
}

std::string verdicts(const audit_digest& d) {
  std::vector<std::string> labels{
    "I1 absent (NEITHER)", "I2 fault (NEITHER)", "I3 undecided (NEITHER)",
    "I4 equivalent (INVARIANT)", "I5 different (VIOLATED)"};
  std::vector<double> v;
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    v.push_back(static_cast<double>(d.by_rule[i]));
    rows.push_back({labels[i], fmt("%llu", ull(d.by_rule[i]))});
  }
  return section("verdicts", "Verdicts by rule",
                 "Pair verdicts by the row of the I1-I5 table that fired "
                 "(canaries are not pairs and are not counted here).",
                 figure(svg::bar_chart("plot-verdicts",
                                       "pair verdicts by rule "
                                       "(numbers in the table below)",
                                       labels, v),
                        table("data-verdicts", "Pair verdicts by rule",
                              {"rule (verdict)", "pairs"}, rows)));
}

std::string confusion(const audit_digest& d) {
  std::string body;
  if (d.labelled == 0) {
    body = none("No labelled pairs in this run.");
  } else {
    std::vector<std::vector<std::uint64_t>> c;
    for (auto& r : d.confusion)
      c.push_back({r[0], r[1]});
    std::vector<std::string> outcomes{"outcome true", "outcome false",
                                      "outcome neither"};
    std::vector<std::vector<std::string>> rows;
    for (std::size_t r = 0; r < 3; ++r)
      rows.push_back({outcomes[r], fmt("%llu", ull(d.confusion[r][0])),
                      fmt("%llu", ull(d.confusion[r][1]))});
    body = figure(svg::heat_grid("plot-confusion",
                                 "comparator outcome against label (numbers "
                                 "in the table below)",
                                 outcomes, {"label true", "label false"}, c),
                  table("data-confusion", "Labelled pairs by outcome and label",
                        {"outcome", "label true", "label false"}, rows));
    auto right = d.confusion[0][0] + d.confusion[1][1];
    auto decided = right + d.confusion[0][1] + d.confusion[1][0];
    if (decided > 0)
      body +=
        fmt("<p>Decided %llu of %llu labelled pairs; correct when decided: "
            "%.1f%%.</p>",
            ull(decided), ull(d.labelled),
            100.0 * static_cast<double>(right) / static_cast<double>(decided));
  }
  return section("confusion", "Confusion matrix against labels",
                 "Rows: the comparator's outcome for a pair; columns: the "
                 "label the input gave it.",
                 body);
}

// The canary plot's numbers: per judge, the canaries it answered, and the
// numbers of those it failed.
std::string canary_table(const audit_digest& d) {
  std::vector<std::string> judges;
  std::vector<std::uint64_t> answered;
  std::vector<std::string> failed_at;
  std::vector<std::uint64_t> failed;
  auto index = [&](const std::string& j) {
    std::size_t i = 0;
    while (i < judges.size() && judges[i] != j)
      ++i;
    if (i == judges.size()) {
      judges.push_back(j);
      answered.push_back(0);
      failed_at.emplace_back();
      failed.push_back(0);
    }
    return i;
  };
  for (std::size_t k = 0; k < d.canaries.size(); ++k) {
    for (auto& j : d.canaries[k].judges)
      ++answered[index(j)];
    for (auto& j : d.canaries[k].failed_judges) {
      auto i = index(j);
      ++failed[i];
      failed_at[i] +=
        (failed_at[i].empty() ? "" : ", ") + std::to_string(k + 1);
    }
  }
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < judges.size(); ++i)
    rows.push_back({judges[i], fmt("%llu", ull(answered[i])),
                    fmt("%llu", ull(failed[i])),
                    failed_at[i].empty() ? std::string{"-"} : failed_at[i]});
  return table(
    "data-canaries", "Canaries per judge",
    {"judge", "canaries answered", "failed", "failed at canary number"}, rows);
}

std::string canaries(const audit_digest& d) {
  std::string body;
  if (d.canaries.empty()) {
    body = none("No canaries in this run (configuration \"canaries\": "
                "{\"rate\": R} mixes negative controls into a run).");
  } else {
    // Cumulative failed canaries per judge, by canary number.
    std::vector<svg::series_points> series;
    std::vector<std::uint64_t> failed;
    for (std::size_t k = 0; k < d.canaries.size(); ++k)
      for (auto& j : d.canaries[k].failed_judges) {
        std::size_t i = 0;
        while (i < series.size() && series[i].name != j)
          ++i;
        if (i == series.size()) {
          series.push_back({j, {}});
          failed.push_back(0);
        }
        series[i].points.emplace_back(static_cast<double>(k + 1),
                                      static_cast<double>(++failed[i]));
      }
    std::vector<svg::marker> markers;
    for (auto& a : d.alarms)
      markers.push_back({static_cast<double>(a.at_canary),
                         "alarm: " + a.judge + " (" + a.mode + ")"});
    std::uint64_t passed = 0, failed_any = 0;
    for (auto& c : d.canaries) {
      passed += c.passed == true;
      failed_any += c.passed == false;
    }
    body = fmt("<p>%llu canaries: %llu passed, %llu failed, %llu without a "
               "readable decision.</p>",
               ull(d.canaries.size()), ull(passed), ull(failed_any),
               ull(d.canaries.size() - passed - failed_any));
    if (series.empty())
      series.push_back({"no judge failed a canary", {}});
    // Every line runs to the last canary.
    for (auto& sp : series)
      sp.points.emplace_back(static_cast<double>(d.canaries.size()),
                             sp.points.empty() ? 0.0 : sp.points.back().second);
    body +=
      figure(svg::step_lines("plot-canaries",
                             "failed canaries over the "
                             "run (numbers in the table below)",
                             "canary number", "failed canaries (cumulative)",
                             series, markers),
             canary_table(d));
    if (d.alarms.empty()) {
      body += "<p>No bias alarm fired.</p>";
    } else {
      body += "<table id=\"alarms\"><tr><th>judge</th><th>mode</th><th>at "
              "canary</th><th>failed</th><th>log-likelihood ratio</th><th>"
              "action</th></tr>";
      for (auto& a : d.alarms)
        body +=
          "<tr class=\"alarm\"><td>" + escape(a.judge) + "</td><td>"
          + escape(a.mode) + "</td>"
          + fmt("<td>%llu</td><td>%llu of %llu</td><td>%.2f &ge; %.2f</td>",
                ull(a.at_canary), ull(a.failures), ull(a.observations), a.llr,
                a.threshold)
          + "<td>" + escape(a.action) + "</td></tr>";
      body += "</table>";
    }
  }
  return section(
    "canaries", "Canaries and bias alarms",
    "Negative controls mixed into the run and judged like pairs: "
    "the line climbs each time a judge fails one (EQUIVALENT on "
    "mismatched or content-free answers, a decision on an abstain "
    "pair, not EQUIVALENT on identical answers); dashed lines mark "
    "the bias alarms (a sequential test per judge).",
    body);
}

std::string position_bias(const audit_digest& d) {
  std::string body;
  if (d.position_bias.empty()) {
    body = none(d.order_balancing
                  ? "No comparison: no pair got a readable decision both ways "
                    "round from one judge (votes > 1 are needed)."
                  : "Order balancing was off: A and B were never swapped.");
  } else {
    std::vector<svg::interval> rows;
    std::vector<std::vector<std::string>> numbers;
    for (auto& p : d.position_bias) {
      auto changed = fmt("%llu of %llu: ", ull(p.changed), ull(p.comparisons))
                     + percent_interval(p.rate, p.lo, p.hi);
      rows.push_back({p.judge, p.rate, p.lo, p.hi, changed});
      numbers.push_back({p.judge, fmt("%llu", ull(p.comparisons)),
                         fmt("%llu", ull(p.changed)), percent(p.rate),
                         fmt("[%.1f%%, %.1f%%]", 100 * p.lo, 100 * p.hi)});
    }
    body = figure(
      svg::interval_chart("plot-position-bias",
                          "share of pairs whose decision changed "
                          "when A and B were swapped (numbers "
                          "beside each judge and in the table "
                          "below)",
                          rows),
      table("data-position-bias", "Position bias per judge",
            {"judge", "pairs compared", "changed", "rate", "Wilson interval"},
            numbers));
  }
  return section("position-bias", "Position bias",
                 "Per judge: of the pairs it answered both ways round, the "
                 "share whose decision changed when B was shown before A "
                 "(dot), with its Wilson interval (line).",
                 body);
}

std::string latency(const audit_digest& d) {
  // Each band by its lower edge ("5": 5 ms up to the next edge).
  auto edge = [](double ms) {
    return ms >= 1000 ? fmt("%gs", ms / 1000) : fmt("%g", ms);
  };
  std::vector<std::string> labels{"<1"};
  for (auto e : latency_edges_ms)
    labels.push_back(edge(e));
  std::vector<std::string> names;
  std::vector<std::vector<double>> values;
  std::vector<std::vector<std::string>> rows(labels.size());
  for (std::size_t b = 0; b < labels.size(); ++b)
    rows[b].push_back(b + 1 < labels.size() ? labels[b] + " to " + labels[b + 1]
                                            : labels[b] + " and over");
  for (auto& j : d.judges) {
    names.push_back(j.name);
    std::vector<double> v;
    for (std::size_t b = 0; b < j.latency.size(); ++b) {
      v.push_back(static_cast<double>(j.latency[b]));
      rows[b].push_back(fmt("%llu", ull(j.latency[b])));
    }
    values.push_back(std::move(v));
  }
  std::vector<std::string> head{"latency band (ms; s: seconds)"};
  head.insert(head.end(), names.begin(), names.end());
  return section("latency", "Latency of judge calls",
                 "Answered judge calls by latency band, each labelled by its "
                 "lower edge in milliseconds (s: seconds; the last band is "
                 "open), one histogram per judge; faults excluded.",
                 figure(svg::histograms("plot-latency",
                                        "judge call latency (ms), one "
                                        "histogram per judge (numbers in the "
                                        "table below)",
                                        labels, names, values),
                        table("data-latency", "Answered calls per latency band",
                              head, rows)));
}

std::string cost(const audit_digest& d) {
  std::vector<std::string> names;
  std::vector<double> in, out;
  std::vector<std::vector<std::string>> rows;
  for (auto& j : d.judges) {
    names.push_back(j.name);
    in.push_back(static_cast<double>(j.input_tokens));
    out.push_back(static_cast<double>(j.output_tokens));
    std::vector<std::string> r{j.name};
    for (auto n :
         {j.calls, j.faults, j.decisions[0], j.decisions[1], j.decisions[2],
          j.decisions[3], j.input_tokens, j.output_tokens})
      r.push_back(fmt("%llu", ull(n)));
    rows.push_back(std::move(r));
  }
  auto body = table("cost", "",
                    {"judge", "calls", "faults", "EQUIVALENT", "DIFFERENT",
                     "ABSTAIN", "PARSE_ERROR", "input tokens", "output tokens"},
                    rows);
  for (auto& j : d.judges)
    if (j.price_input || j.price_output) {
      token_prices prices{j.price_input.value_or(0), j.price_output.value_or(0),
                          j.batch_discount};
      body +=
        "<p>" + escape(j.name)
        + fmt(": %.4f at the declared prices (%g input, %g output per "
              "million tokens",
              cost_of(j.input_tokens, j.output_tokens, j.batched_input_tokens,
                      j.batched_output_tokens, prices),
              prices.input, prices.output);
      if (j.batched_calls != 0)
        body += fmt("; %llu batched calls at %g of the price",
                    ull(j.batched_calls), j.batch_discount);
      body += ").</p>";
    }
  return section("cost", "Calls and tokens per judge",
                 "What the run cost: calls, decisions and tokens as the "
                 "backends reported them (canaries included: they are real "
                 "calls, never pairs), and the cost where the configuration "
                 "declares prices. The plot's numbers are the table's token "
                 "columns.",
                 body
                   + svg::grouped_bars("plot-tokens",
                                       "tokens per judge (numbers "
                                       "in the table above)",
                                       names, {"input tokens", "output tokens"},
                                       {in, out}));
}

} // namespace

std::string render_html_report(const audit_digest& d, const report_status& s) {
  std::string page =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<title>invjudge report: "
    + escape(d.run_id) + "</title>" + style
    + "</head><body>\n<h1>invjudge run report</h1>\n" + banner(s) + "\n"
    + run_table(d, s) + "\n";
  page += verdicts(d);
  page += confusion(d);
  page += agreement_section(d);
  page += cascade_section(d);
  page += canaries(d);
  page += position_bias(d);
  page += latency(d);
  page += cost(d);
  page += batch_section_html(d);
  page += calibration_section_html(d, s.audit_path);
  page +=
    "<p class=\"what\">Made by invjudge report from the audit trail alone.</p>"
    "</body></html>\n";
  return page;
}

} // namespace ij
