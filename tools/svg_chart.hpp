#pragma once
// Small inline-SVG charts for the HTML report (tools/html_report): no
// script, no external resource, every text escaped. Each chart is one
// <svg class="plot" id=...> element with a <title> for screen readers.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ij::svg {

/// Text safe inside HTML or SVG (&, <, >, ", ' escaped).
std::string escape(std::string_view text);

/// Horizontal bars, one per label, the value printed at the bar's end.
std::string bar_chart(std::string_view id, std::string_view title,
                      const std::vector<std::string>& labels,
                      const std::vector<double>& values,
                      std::string_view color = "#4e79a7");

/// Vertical bars in groups: one group per label, one bar per series.
std::string grouped_bars(std::string_view id, std::string_view title,
                         const std::vector<std::string>& labels,
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

/// A rate per label with its interval (a dot and a whisker, 0..1 axis).
struct interval {
  std::string label;
  double rate = 0, lo = 0, hi = 0;
};
std::string interval_chart(std::string_view id, std::string_view title,
                           const std::vector<interval>& rows);

} // namespace ij::svg
