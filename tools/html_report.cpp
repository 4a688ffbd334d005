#include "tools/html_report.hpp"

#include <cmath>
#include <cstdio>

#include "tools/svg_chart.hpp"

namespace ij {

namespace {

using svg::escape;

template <class... Ts>
std::string fmt(const char* f, Ts... xs) {
  char buf[512];
  std::snprintf(buf, sizeof buf, f, xs...);
  return buf;
}

unsigned long long ull(std::uint64_t x) {
  return static_cast<unsigned long long>(x);
}

std::string section(const std::string& id, const std::string& title,
                    const std::string& what, const std::string& body) {
  return "<section id=\"" + escape(id) + "\"><h2>" + escape(title)
         + "</h2><p class=\"what\">" + escape(what) + "</p>" + body
         + "</section>\n";
}

std::string none(const std::string& text) {
  return "<p class=\"none\">" + escape(text) + "</p>";
}

const char* style = R"(<style>
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:980px;color:#222}
h1{font-size:1.5em}h2{font-size:1.15em;border-bottom:1px solid #ccc;padding-bottom:.2em}
.what{color:#555;font-size:.9em}.none{color:#777;font-style:italic}
table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}
.ok{background:#e8f5e9;border:1px solid #66bb6a;padding:.6em}
.warn{background:#fff8e1;border:1px solid #ffb300;padding:.6em}
.bad{background:#b71c1c;color:#fff;font-size:1.3em;font-weight:bold;padding:1em;border:4px solid #000}
.alarm{color:#b71c1c;font-weight:bold}table.left td{text-align:left}code{font-size:.85em}
</style>)";

std::string banner(const report_status& s) {
  if (s.unverified)
    return "<div class=\"bad\" id=\"unverified\">UNVERIFIED AUDIT: the hash "
           "chain of this audit does not verify ("
           + escape(s.reason)
           + "). What follows may have been edited; do not rely on it.</div>";
  if (s.chain == "ok")
    return "<div class=\"ok\" id=\"verified\">Audit chain verified: intact, run "
           "complete. Final hash <code>"
           + escape(s.final_hash) + "</code></div>";
  return "<div class=\"warn\" id=\"verified\">Audit chain intact, but "
         + escape(s.reason) + ". Final hash <code>"
         + escape(s.final_hash) + "</code></div>";
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
  row("votes", fmt("%llu, %llu must agree%s", ull(d.votes), ull(d.min_agreement),
                   d.order_balancing ? ", order balancing on" : ""));
  row("canaries", d.canary_rate > 0
                    ? fmt("rate %g, seed %llu, on alarm: ", d.canary_rate,
                          ull(d.canary_seed))
                        + d.on_alarm
                    : std::string{"none"});
  row("pairs judged", fmt("%llu (%llu input lines rejected)", ull(d.pairs),
                          ull(d.rejected)));
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
  std::vector<std::string> labels{"I1 absent (NEITHER)", "I2 fault (NEITHER)",
                                  "I3 undecided (NEITHER)",
                                  "I4 equivalent (INVARIANT)",
                                  "I5 different (VIOLATED)"};
  std::vector<double> v;
  for (auto n : d.by_rule)
    v.push_back(static_cast<double>(n));
  return section("verdicts", "Verdicts by rule",
                 "Pair verdicts by the row of the I1-I5 table that fired "
                 "(canaries are not pairs and are not counted here).",
                 svg::bar_chart("plot-verdicts", "pair verdicts by rule", labels, v));
}

std::string confusion(const audit_digest& d) {
  std::string body;
  if (d.labelled == 0) {
    body = none("No labelled pairs in this run.");
  } else {
    std::vector<std::vector<std::uint64_t>> c;
    for (auto& r : d.confusion)
      c.push_back({r[0], r[1]});
    body = svg::heat_grid("plot-confusion", "comparator outcome against label",
                          {"outcome true", "outcome false", "outcome neither"},
                          {"label true", "label false"}, c);
    auto right = d.confusion[0][0] + d.confusion[1][1];
    auto decided = right + d.confusion[0][1] + d.confusion[1][0];
    if (decided > 0)
      body += fmt("<p>Decided %llu of %llu labelled pairs; correct when decided: "
                  "%.1f%%.</p>",
                  ull(decided), ull(d.labelled),
                  100.0 * static_cast<double>(right) / static_cast<double>(decided));
  }
  return section("confusion", "Confusion matrix against labels",
                 "Rows: the comparator's outcome for a pair; columns: the "
                 "label the input gave it.", body);
}

std::string agreement(const audit_digest& d) {
  std::string body;
  if (d.agreements.empty()) {
    body = none("No panel in this run: no pair was answered by two or more "
                "judges.");
  } else {
    std::vector<std::string> labels;
    std::vector<double> raw;
    body = "<table id=\"agreement\"><tr><th>judges</th><th>pairs</th><th>agree"
           "</th><th>raw agreement</th><th>Cohen's kappa</th></tr>";
    for (auto& a : d.agreements) {
      double r = static_cast<double>(a.agree) / static_cast<double>(a.pairs);
      labels.push_back(a.a + " / " + a.b);
      raw.push_back(std::round(1000 * r) / 1000);
      body += "<tr><td>" + escape(a.a + " / " + a.b) + "</td>"
              + fmt("<td>%llu</td><td>%llu</td><td>%.3f</td><td>", ull(a.pairs),
                    ull(a.agree), r)
              + (a.kappa ? fmt("%.3f", *a.kappa) : std::string{"n/a (one class)"})
              + "</td></tr>";
    }
    body += "</table>"
            + svg::bar_chart("plot-agreement", "raw agreement per couple of "
                             "judges", labels, raw, "#59a14f");
  }
  return section("agreement", "Agreement between judges",
                 "For pairs two judges both answered: each judge's majority "
                 "decision (EQUIVALENT, DIFFERENT, ABSTAIN) compared; raw "
                 "agreement and Cohen's kappa (agreement beyond chance).",
                 body);
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
    body += svg::step_lines("plot-canaries", "failed canaries over the run",
                            "canary number", "failed canaries (cumulative)",
                            series, markers);
    if (d.alarms.empty()) {
      body += "<p>No bias alarm fired.</p>";
    } else {
      body += "<table id=\"alarms\"><tr><th>judge</th><th>mode</th><th>at "
              "canary</th><th>failed</th><th>log-likelihood ratio</th><th>"
              "action</th></tr>";
      for (auto& a : d.alarms)
        body += "<tr class=\"alarm\"><td>" + escape(a.judge) + "</td><td>"
                + escape(a.mode) + "</td>"
                + fmt("<td>%llu</td><td>%llu of %llu</td><td>%.2f &ge; %.2f</td>",
                      ull(a.at_canary), ull(a.failures), ull(a.observations),
                      a.llr, a.threshold)
                + "<td>" + escape(a.action) + "</td></tr>";
      body += "</table>";
    }
  }
  return section("canaries", "Canaries and bias alarms",
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
    for (auto& p : d.position_bias)
      rows.push_back({p.judge + fmt(" (%llu of %llu)", ull(p.changed),
                                    ull(p.comparisons)),
                      p.rate, p.lo, p.hi});
    body = svg::interval_chart("plot-position-bias",
                               "share of pairs whose decision changed when A "
                               "and B were swapped",
                               rows);
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
  for (auto& j : d.judges) {
    names.push_back(j.name);
    std::vector<double> v;
    for (auto n : j.latency)
      v.push_back(static_cast<double>(n));
    values.push_back(std::move(v));
  }
  return section("latency", "Latency of judge calls",
                 "Answered judge calls by latency band, each labelled by its "
                 "lower edge in milliseconds (s: seconds; the last band is "
                 "open), per judge; faults excluded.",
                 svg::grouped_bars("plot-latency", "judge call latency (ms)",
                                   labels, names, values));
}

std::string cost(const audit_digest& d) {
  std::vector<std::string> names;
  std::vector<double> in, out;
  std::string table = "<table id=\"cost\"><tr><th>judge</th><th>calls</th><th>"
                      "faults</th><th>EQUIVALENT</th><th>DIFFERENT</th><th>"
                      "ABSTAIN</th><th>PARSE_ERROR</th><th>input tokens</th><th>"
                      "output tokens</th></tr>";
  for (auto& j : d.judges) {
    names.push_back(j.name);
    in.push_back(static_cast<double>(j.input_tokens));
    out.push_back(static_cast<double>(j.output_tokens));
    table += "<tr><td>" + escape(j.name) + "</td>"
             + fmt("<td>%llu</td><td>%llu</td><td>%llu</td><td>%llu</td><td>"
                   "%llu</td><td>%llu</td><td>%llu</td><td>%llu</td></tr>",
                   ull(j.calls), ull(j.faults), ull(j.decisions[0]),
                   ull(j.decisions[1]), ull(j.decisions[2]), ull(j.decisions[3]),
                   ull(j.input_tokens), ull(j.output_tokens));
  }
  table += "</table>";
  for (auto& j : d.judges)
    if (j.price_input || j.price_output)
      table += "<p>" + escape(j.name)
               + fmt(": %.4f at the declared prices (%g input, %g output per "
                     "million tokens).</p>",
                     (static_cast<double>(j.input_tokens) * j.price_input.value_or(0)
                      + static_cast<double>(j.output_tokens) * j.price_output.value_or(0))
                       / 1e6,
                     j.price_input.value_or(0), j.price_output.value_or(0));
  return section("cost", "Calls and tokens per judge",
                 "What the run cost: calls, decisions and tokens as the "
                 "backends reported them (canaries included: they are real "
                 "calls), and the cost where the configuration declares "
                 "prices.",
                 table
                   + svg::grouped_bars("plot-tokens", "tokens per judge", names,
                                       {"input tokens", "output tokens"},
                                       {in, out}));
}

} // namespace

std::string render_html_report(const audit_digest& d, const report_status& s) {
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                     "<title>invjudge report: " + escape(d.run_id) + "</title>"
                     + style + "</head><body>\n<h1>invjudge run report</h1>\n"
                     + banner(s) + "\n" + run_table(d, s) + "\n";
  page += verdicts(d);
  page += confusion(d);
  page += agreement(d);
  page += canaries(d);
  page += position_bias(d);
  page += latency(d);
  page += cost(d);
  page += "<p class=\"what\">Made by invjudge report from the audit trail alone.</p>"
          "</body></html>\n";
  return page;
}

} // namespace ij
