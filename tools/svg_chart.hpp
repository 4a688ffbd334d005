#pragma once
// Small inline-SVG charts for the HTML report (tools/html_report): no
// script, no external resource, every text escaped. Each chart is one
// <svg class="plot" id=...> element with a <title> for screen readers; the
// page puts each plot's numbers in a table beside it as well.
//
// Readable by construction: every text label is laid out from an estimate
// of its width (generous for common sans-serif fonts), so that no two labels
// overlap and none leaves its plot; a label too long for its place is
// shortened with an ellipsis and keeps its whole text as a tooltip.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ij::svg {

/// Text safe inside HTML or SVG (&, <, >, ", ' escaped).
std::string escape(std::string_view text);

/// A generous estimate of `text`'s width in pixels at `font_size`.
double text_width(std::string_view text, double font_size);

/// Horizontal bars, one per label, the value printed at the bar's end.
std::string bar_chart(std::string_view id, std::string_view title,
                      const std::vector<std::string>& labels,
                      const std::vector<double>& values,
                      std::string_view color = "#4e79a7");

/// Horizontal bars in groups: one group per label (named once, at the
/// left), one bar per series, each value at its bar's end; a legend on top.
std::string grouped_bars(std::string_view id, std::string_view title,
                         const std::vector<std::string>& labels,
                         const std::vector<std::string>& series,
                         const std::vector<std::vector<double>>& values);

/// One vertical histogram per series, stacked (small multiples): the same
/// bins for each, a count above every non-empty bar.
std::string histograms(std::string_view id, std::string_view title,
                       const std::vector<std::string>& bins,
                       const std::vector<std::string>& series,
                       const std::vector<std::vector<double>>& values);

/// A grid of counts shaded by size: rows x columns.
std::string heat_grid(std::string_view id, std::string_view title,
                      const std::vector<std::string>& rows,
                      const std::vector<std::string>& columns,
                      const std::vector<std::vector<std::uint64_t>>& counts);

/// One step line per series (x ascending), with labelled vertical markers.
struct series_points {
  std::string name;
  std::vector<std::pair<double, double>> points;
};
struct marker {
  double x = 0;
  std::string label;
};
std::string step_lines(std::string_view id, std::string_view title,
                       std::string_view x_label, std::string_view y_label,
                       const std::vector<series_points>& series,
                       const std::vector<marker>& markers);

/// A rate per label with its interval (a dot and a whisker, 0..1 axis), and
/// the numbers beside it: `numbers` (e.g. "3 of 40: 7.5% [2.6%, 19.9%]"),
/// so that an interval too short to see still states itself.
struct interval {
  std::string label;
  double rate = 0, lo = 0, hi = 0;
  std::string numbers;
};
std::string interval_chart(std::string_view id, std::string_view title,
                           const std::vector<interval>& rows);

} // namespace ij::svg
