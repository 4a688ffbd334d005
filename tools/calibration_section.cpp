#include "tools/calibration_section.hpp"

#include <cstdio>
#include <fstream>
#include <vector>

#include "core/calibration.hpp"
#include "tools/labelled_votes.hpp"

namespace ij {

namespace {

constexpr unsigned bins = 10;

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s)
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  return out;
}

std::string fmt(const char* f, double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

struct reliability {
  std::vector<double> count = std::vector<double>(bins, 0.0);
  std::vector<double> right = std::vector<double>(bins, 0.0);
  std::vector<double> conf = std::vector<double>(bins, 0.0);
};

reliability bin(const std::vector<double>& p, const std::vector<labelled_vote>& v) {
  reliability r;
  for (std::size_t i = 0; i < p.size(); ++i) {
    auto b = std::min<std::size_t>(bins - 1, static_cast<std::size_t>(p[i] * bins));
    r.count[b] += 1;
    r.right[b] += v[i].right ? 1 : 0;
    r.conf[b] += p[i];
  }
  return r;
}

// Accuracy against mean confidence per bin, for both curves, with the
// diagonal of perfect calibration.
std::string diagram(const std::string& judge, const reliability& raw,
                    const reliability& cal) {
  const double w = 320, h = 320, pad = 36;
  auto x = [&](double v) { return fmt("%.1f", pad + v * (w - 2 * pad)); };
  auto y = [&](double v) { return fmt("%.1f", h - pad - v * (h - 2 * pad)); };
  std::string s = "<svg class=\"plot\" width=\"320\" height=\"320\" "
                  "viewBox=\"0 0 320 320\" role=\"img\"><title>Reliability of "
                  + escape(judge) + ": accuracy against confidence</title>";
  s += "<line x1=\"" + x(0) + "\" y1=\"" + y(0) + "\" x2=\"" + x(1) + "\" y2=\""
       + y(1) + "\" stroke=\"#999\" stroke-dasharray=\"4\"/>";
  s += "<rect x=\"" + x(0) + "\" y=\"" + y(1) + "\" width=\""
       + fmt("%.1f", w - 2 * pad) + "\" height=\"" + fmt("%.1f", h - 2 * pad)
       + "\" fill=\"none\" stroke=\"#333\"/>";
  auto curve = [&](const reliability& r, const char* colour, const char* name) {
    std::string pts;
    for (unsigned b = 0; b < bins; ++b)
      if (r.count[b] > 0) {
        auto cx = x(r.conf[b] / r.count[b]), cy = y(r.right[b] / r.count[b]);
        pts += cx + "," + cy + " ";
        s += "<circle cx=\"" + cx + "\" cy=\"" + cy + "\" r=\"3\" fill=\""
             + colour + "\"><title>" + name + " bin " + std::to_string(b)
             + ": " + fmt("%.0f", r.count[b]) + " votes</title></circle>";
      }
    s += "<polyline points=\"" + pts + "\" fill=\"none\" stroke=\"" + colour
         + "\"/>";
  };
  curve(raw, "#d95f02", "raw");
  curve(cal, "#1b9e77", "calibrated");
  // Labels in the margins, apart from each other and inside the plot.
  s += "<text x=\"" + x(0.5) + "\" y=\"312\" font-size=\"12\" "
       "text-anchor=\"middle\">confidence</text><text x=\"22\" y=\"" + y(0.5)
       + "\" font-size=\"12\" transform=\"rotate(-90 22," + y(0.5)
       + ")\" text-anchor=\"middle\">accuracy</text>"
         "<text x=\"40\" y=\"22\" font-size=\"12\" fill=\"#d95f02\">raw</text>"
         "<text x=\"140\" y=\"22\" font-size=\"12\" fill=\"#1b9e77\">"
         "calibrated</text></svg>";
  return s;
}

std::string interval(const estimate& e) {
  return fmt("%.4f", e.value) + " [" + fmt("%.4f", e.lo) + ", "
         + fmt("%.4f", e.hi) + "]";
}

std::string judge_part(const std::string& judge, const judge_votes& jv) {
  std::string s = "<h3>" + escape(judge) + "</h3>";
  fit_options opts;
  opts.min_pairs = 10;
  auto fit = fit_calibration(judge, jv.source(), jv.votes, opts);
  if (!fit)
    return s + "<p class=\"none\">" + escape(context_of(fit.error()))
           + "</p>";
  std::vector<double> raw;
  for (auto& v : jv.votes)
    raw.push_back(v.confidence);
  auto cal = cross_validated(jv.votes, opts.folds, opts.seed);
  auto r = bin(raw, jv.votes), c = bin(cal, jv.votes);
  s += "<p>" + std::to_string(fit->pairs) + " labelled pairs, "
       + std::to_string(fit->votes) + " votes; raw confidence from "
       + escape(fit->map.source)
       + "; calibrated: isotonic, 5-fold cross-validated; intervals: 95 % "
         "bootstrap over pairs.</p>";
  s += "<table><tr><th></th><th>raw</th><th>calibrated</th></tr><tr><td>ECE"
       "</td><td>" + interval(fit->raw.ece) + "</td><td>"
       + interval(fit->calibrated.ece) + "</td></tr><tr><td>Brier</td><td>"
       + interval(fit->raw.brier) + "</td><td>" + interval(fit->calibrated.brier)
       + "</td></tr></table>";
  s += diagram(judge, r, c);
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
  return s + "</table>";
}

} // namespace

std::string calibration_section_html(const std::string& audit_path) {
  std::ifstream in(audit_path, std::ios::binary);
  if (!in)
    return {};
  labelled_votes lv;
  read_labelled_votes(in, audit_path, lv);
  if (lv.judges.empty())
    return {};
  std::string s = "<section id=\"calibration\"><h2>Calibration</h2><p class="
                  "\"what\">Per judge: how often a vote's decision was right "
                  "against how confident the judge was (its decision "
                  "probability, or the pair's vote share), raw and "
                  "calibrated, on the labelled pairs.</p>";
  for (auto& [judge, jv] : lv.judges)
    s += judge_part(judge, jv);
  return s + "</section>";
}

} // namespace ij
