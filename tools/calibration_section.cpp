#include "tools/calibration_section.hpp"

#include <cstdio>
#include <fstream>
#include <vector>

#include "core/calibration/calibration.hpp"
#include "tools/html_markup.hpp"
#include "tools/labelled_votes.hpp"

namespace ij {

namespace {

using namespace html;

constexpr unsigned bins = 10;

struct reliability {
  std::vector<double> count = std::vector<double>(bins, 0.0);
  std::vector<double> right = std::vector<double>(bins, 0.0);
  std::vector<double> conf = std::vector<double>(bins, 0.0);
};

reliability bin(const std::vector<double>& p,
                const std::vector<labelled_vote>& v) {
  reliability r;
  for (std::size_t i = 0; i < p.size(); ++i) {
    auto b =
      std::min<std::size_t>(bins - 1, static_cast<std::size_t>(p[i] * bins));
    r.count[b] += 1;
    r.right[b] += v[i].right ? 1 : 0;
    r.conf[b] += p[i];
  }
  return r;
}

// Accuracy against mean confidence per bin, for both curves, with the
// diagonal of perfect calibration and ticks at every 0.2 on both axes.
std::string diagram(const std::string& id, const std::string& judge,
                    const reliability& raw, const reliability& cal) {
  const double size = 340, left = 56, right = 16, top = 34, bottom = 56;
  const double pw = size - left - right, ph = size - top - bottom;
  auto x = [&](double v) { return fmt("%.1f", left + v * pw); };
  auto y = [&](double v) { return fmt("%.1f", size - bottom - v * ph); };
  std::string s = "<svg class=\"plot\" id=\"" + id
                  + "\" width=\"340\" height=\"340\" viewBox=\"0 0 340 340\" "
                    "role=\"img\"><title>Reliability of "
                  + escape(judge) + ": accuracy against confidence</title>";
  s += "<line x1=\"" + x(0) + "\" y1=\"" + y(0) + "\" x2=\"" + x(1) + "\" y2=\""
       + y(1) + "\" stroke=\"#999\" stroke-dasharray=\"4\"/>";
  s += "<rect x=\"" + x(0) + "\" y=\"" + y(1) + "\" width=\"" + fmt("%.1f", pw)
       + "\" height=\"" + fmt("%.1f", ph)
       + "\" fill=\"none\" stroke=\"#333\"/>";
  for (int t = 0; t <= 5; ++t) {
    double v = t / 5.0;
    auto label = t == 0   ? std::string{"0"}
                 : t == 5 ? std::string{"1"}
                          : fmt("%.1f", v);
    s += "<line class=\"tick\" x1=\"" + x(v) + "\" y1=\"" + y(0) + "\" x2=\""
         + x(v) + "\" y2=\"" + fmt("%.1f", size - bottom + 5)
         + "\" stroke=\"#333\"/>" + "<text class=\"tick\" x=\"" + x(v)
         + "\" y=\"" + fmt("%.1f", size - bottom + 18)
         + "\" font-size=\"11\" text-anchor=\"middle\">" + label + "</text>";
    s += "<line class=\"tick\" x1=\"" + fmt("%.1f", left - 5) + "\" y1=\""
         + y(v) + "\" x2=\"" + x(0) + "\" y2=\"" + y(v) + "\" stroke=\"#333\"/>"
         + "<text class=\"tick\" x=\"" + fmt("%.1f", left - 8) + "\" y=\""
         + fmt("%.1f", size - bottom - v * ph + 4)
         + "\" font-size=\"11\" "
           "text-anchor=\"end\">"
         + label + "</text>";
  }
  auto curve = [&](const reliability& r, const char* colour, const char* name) {
    std::string pts;
    for (unsigned b = 0; b < bins; ++b)
      if (r.count[b] > 0) {
        auto cx = x(r.conf[b] / r.count[b]), cy = y(r.right[b] / r.count[b]);
        pts += cx + "," + cy + " ";
        s += "<circle cx=\"" + cx + "\" cy=\"" + cy + "\" r=\"3\" fill=\""
             + colour + "\"><title>" + name + " bin " + std::to_string(b) + ": "
             + fmt("%.0f", r.count[b]) + " votes</title></circle>";
      }
    s += "<polyline points=\"" + pts + "\" fill=\"none\" stroke=\"" + colour
         + "\"/>";
  };
  curve(raw, "#d95f02", "raw");
  curve(cal, "#1b9e77", "calibrated");
  // Axis titles in the margins, the legend above the plot.
  s +=
    "<text x=\"" + x(0.5) + "\" y=\"" + fmt("%.1f", size - 12)
    + "\" font-size=\"12\" text-anchor=\"middle\">confidence (predicted)</text>"
      "<text x=\"16\" y=\""
    + y(0.5) + "\" font-size=\"12\" transform=\"rotate(-90 16," + y(0.5)
    + ")\" text-anchor=\"middle\">accuracy (share right)</text>"
      "<text x=\""
    + x(0)
    + "\" y=\"20\" font-size=\"12\" fill=\"#d95f02\">raw</text>"
      "<text x=\""
    + x(0.3)
    + "\" y=\"20\" font-size=\"12\" fill=\"#1b9e77\">"
      "calibrated (refit)</text></svg>";
  return s;
}

std::string interval(const estimate& e) {
  return fmt("%.4f", e.value) + " [" + fmt("%.4f", e.lo) + ", "
         + fmt("%.4f", e.hi) + "]";
}

// One judge's per-vote refit: its figures (returned through `row` for the
// comparison table), diagram and bins.
std::string judge_part(const std::string& judge, const judge_votes& jv,
                       std::size_t index, std::vector<std::string>& row) {
  std::string s =
    "<h3>" + escape(judge) + ": per-vote refit on this audit</h3>";
  fit_options opts;
  opts.min_pairs = 10;
  auto fit = fit_calibration(judge, jv.source(), jv.votes, opts);
  if (!fit)
    return s + "<p class=\"none\">" + escape(context_of(fit.error())) + "</p>";
  std::vector<double> raw;
  for (auto& v : jv.votes)
    raw.push_back(v.confidence);
  auto cal = cross_validated(jv.votes, opts.folds, opts.seed);
  auto r = bin(raw, jv.votes), c = bin(cal, jv.votes);
  row = {"per-vote refit of " + judge + " on this audit (cross-validated)",
         std::to_string(fit->votes) + " votes on " + std::to_string(fit->pairs)
           + " pairs",
         fmt("%.4f", fit->calibrated.ece.value),
         fmt("%.4f", fit->calibrated.brier.value)};
  s += "<p>" + std::to_string(fit->pairs) + " labelled pairs, "
       + std::to_string(fit->votes) + " votes; raw confidence from "
       + escape(fit->map.source)
       + "; calibrated: a map refitted on these votes (isotonic, 5-fold "
         "cross-validated), not the run's map; intervals: 95 % bootstrap over "
         "pairs.</p>";
  s += "<table><tr><th>per vote</th><th>raw</th><th>calibrated "
       "(refit)</th></tr><tr><td>ECE"
       "</td><td>"
       + interval(fit->raw.ece) + "</td><td>" + interval(fit->calibrated.ece)
       + "</td></tr><tr><td>Brier</td><td>" + interval(fit->raw.brier)
       + "</td><td>" + interval(fit->calibrated.brier) + "</td></tr></table>";
  s += "<figure>"
       + diagram("plot-reliability-" + std::to_string(index), judge, r, c);
  // The count per bin of the raw column is the distribution of the
  // judge's decision probabilities (or vote shares).
  s += "<table><tr><th>confidence</th><th>raw votes</th><th>raw accuracy</th>"
       "<th>calibrated votes</th><th>calibrated accuracy</th></tr>";
  for (unsigned b = 0; b < bins; ++b) {
    auto acc = [&](const reliability& x) {
      return x.count[b] > 0 ? fmt("%.3f", x.right[b] / x.count[b])
                            : std::string{"–"};
    };
    s += "<tr><td>" + fmt("%.1f", b / 10.0) + "–" + fmt("%.1f", (b + 1) / 10.0)
         + "</td><td>" + fmt("%.0f", r.count[b]) + "</td><td>" + acc(r)
         + "</td><td>" + fmt("%.0f", c.count[b]) + "</td><td>" + acc(c)
         + "</td></tr>";
  }
  return s + "</table></figure>";
}

// The declared map's figures on this run's pairs, as the run summary
// computed them; a row of the comparison table.
std::vector<std::string> declared_row(const audit_digest& d) {
  auto sha = d.calibration_sha256.substr(0, 12);
  std::string what = "declared map " + d.calibration_map + " (SHA-256 " + sha
                     + "...) on this run's pairs, per pair, as the run summary";
  if (d.pair_probability.empty())
    return {what, "0 labelled pairs with a probability", "-", "-"};
  return {
    what, std::to_string(d.pair_probability.size()) + " labelled pairs",
    fmt("%.4f", expected_calibration_error(d.pair_probability, d.pair_right)),
    fmt("%.4f", brier_score(d.pair_probability, d.pair_right))};
}

} // namespace

std::string calibration_section_html(const audit_digest& d,
                                     const std::string& audit_path) {
  std::ifstream in(audit_path, std::ios::binary);
  labelled_votes lv;
  if (in)
    read_labelled_votes(in, audit_path, lv);
  bool declared = !d.calibration_map.empty();
  if (lv.judges.empty() && !declared)
    return {};
  std::vector<std::vector<std::string>> rows;
  if (declared)
    rows.push_back(declared_row(d));
  std::string parts;
  for (auto& [judge, jv] : lv.judges) {
    std::vector<std::string> row;
    parts += judge_part(judge, jv, rows.size(), row);
    if (!row.empty())
      rows.push_back(std::move(row));
  }
  std::string s =
    "<section id=\"calibration\"><h2>Calibration</h2><p class="
    "\"what\">How often a decision was right against how confident "
    "it was, on the labelled pairs, measured two ways. <b>The declared "
    "map on this run's pairs</b> scores each pair's calibrated "
    "probability (the one the run computed with the map it declared, "
    "of the pair's leading decision) against its label: the figures the "
    "run summary printed. <b>The per-vote refit</b> fits a new map on "
    "this audit's own votes and scores each vote out of sample "
    "(cross-validated). They measure different things — a pair's "
    "combined probability against one vote's, the run's map against "
    "one refitted here — and agree only by chance.</p>";
  if (!declared)
    s +=
      "<p class=\"none\">No calibration map was declared for this run: the run "
      "summary has no calibrated figures; only the per-vote refit is "
      "shown.</p>";
  return s
         + table("calibration-compare", "Two measurements, each labelled",
                 {"measurement", "over", "ECE", "Brier"}, rows)
         + parts + "</section>";
}

} // namespace ij
