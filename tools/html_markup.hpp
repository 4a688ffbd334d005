#pragma once
// The report's HTML building blocks (tools/html_report,
// tools/report_agreement): formatted numbers, sections, tables, and a
// plot with the table that states its numbers. Every text is escaped here.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/agreement/agreement.hpp"
#include "tools/svg_chart.hpp"

namespace ij::html {

using svg::escape;

template <class... Ts>
std::string fmt(const char* f, Ts... xs) {
  char buf[512];
  std::snprintf(buf, sizeof buf, f, xs...);
  return buf;
}

inline unsigned long long ull(std::uint64_t x) {
  return static_cast<unsigned long long>(x);
}

/// "64.9%".
inline std::string percent(double x) {
  return fmt("%.1f%%", 100.0 * x);
}

/// "64.9% [48.8%, 78.2%]", as the run summary prints a rate.
inline std::string percent_interval(double value, double lo, double hi) {
  return fmt("%.1f%% [%.1f%%, %.1f%%]", 100.0 * value, 100.0 * lo, 100.0 * hi);
}

/// A kappa as the run summary prints it: "0.381 [0.312, 0.449]", or why
/// there is no value or no interval.
inline std::string kappa_text(bool defined, double value, bool interval,
                              double lo, double hi) {
  if (!defined)
    return "undefined (every rating in one class)";
  if (!interval)
    return fmt("%.3f (no interval: too few pairs or classes)", value);
  return fmt("%.3f [%.3f, %.3f]", value, lo, hi);
}

inline std::string kappa_text(const kappa_estimate& k) {
  return kappa_text(k.defined, k.value, k.interval_defined, k.lo, k.hi);
}

inline std::string section(const std::string& id, const std::string& title,
                           const std::string& what, const std::string& body) {
  return "<section id=\"" + escape(id) + "\"><h2>" + escape(title)
         + "</h2><p class=\"what\">" + escape(what) + "</p>" + body
         + "</section>\n";
}

inline std::string none(const std::string& text) {
  return "<p class=\"none\">" + escape(text) + "</p>";
}

/// A table: `id`, an optional caption, a header row and body rows; the
/// first cell of each row is its row header. Cells are plain text.
inline std::string table(const std::string& id, const std::string& caption,
                         const std::vector<std::string>& head,
                         const std::vector<std::vector<std::string>>& rows,
                         const std::string& cls = {}) {
  std::string t = "<table id=\"" + escape(id) + "\""
                  + (cls.empty() ? "" : " class=\"" + escape(cls) + "\"") + ">";
  if (!caption.empty())
    t += "<caption>" + escape(caption) + "</caption>";
  t += "<tr>";
  for (auto& h : head)
    t += "<th scope=\"col\">" + escape(h) + "</th>";
  t += "</tr>";
  for (auto& r : rows) {
    t += "<tr>";
    for (std::size_t i = 0; i < r.size(); ++i)
      t += (i == 0 ? "<th scope=\"row\">" : "<td>") + escape(r[i])
           + (i == 0 ? "</th>" : "</td>");
    t += "</tr>";
  }
  return t + "</table>";
}

/// A plot and the table of its numbers, for a screen reader and anyone who
/// wants the figures: one figure.
inline std::string figure(const std::string& plot, const std::string& numbers) {
  return "<figure>" + plot + numbers + "</figure>";
}

} // namespace ij::html
