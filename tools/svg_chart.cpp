#include "tools/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ij::svg {

namespace {

const char* palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                         "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};

const char* color(std::size_t i) {
  return palette[i % (sizeof palette / sizeof palette[0])];
}

template <class... Ts>
std::string fmt(const char* f, Ts... xs) {
  char buf[512];
  std::snprintf(buf, sizeof buf, f, xs...);
  return buf;
}

std::string number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    return fmt("%.0f", v);
  return fmt("%.3g", v);
}

std::string open(std::string_view id, std::string_view title, int w, int h) {
  return fmt("<svg class=\"plot\" id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" "
             "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">",
             escape(id).c_str(), w, h, w, h)
         + "<title>" + escape(title) + "</title>";
}

std::string text(double x, double y, std::string_view s,
                 std::string_view anchor = "start", int size = 12) {
  return fmt("<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\">",
             x, y, size, std::string{anchor}.c_str())
         + escape(s) + "</text>";
}

} // namespace

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string bar_chart(std::string_view id, std::string_view title,
                      const std::vector<std::string>& labels,
                      const std::vector<double>& values,
                      std::string_view fill) {
  const int left = 190, width = 640, row = 24;
  int h = 20 + row * static_cast<int>(labels.size());
  double top = 0;
  for (double v : values)
    top = std::max(top, v);
  auto out = open(id, title, width, h);
  double span = width - left - 70;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    double y = 10 + row * static_cast<double>(i);
    double w = top > 0 ? span * values[i] / top : 0;
    out += text(left - 8, y + 15, labels[i], "end");
    out += fmt("<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"18\" "
               "fill=\"%s\"/>",
               left, y, w, std::string{fill}.c_str());
    out += text(left + w + 6, y + 15, number(values[i]));
  }
  return out + "</svg>";
}

std::string grouped_bars(std::string_view id, std::string_view title,
                         const std::vector<std::string>& labels,
                         const std::vector<std::string>& series,
                         const std::vector<std::vector<double>>& values) {
  const int width = 640, h = 260, base = 200, left = 50;
  double top = 0;
  for (auto& s : values)
    for (double v : s)
      top = std::max(top, v);
  auto out = open(id, title, width, h);
  double group = labels.empty() ? 0 : (width - left - 20) / static_cast<double>(labels.size());
  double bar = series.empty() ? 0 : std::min(40.0, group * 0.8 / static_cast<double>(series.size()));
  out += fmt("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>",
             left, base, width - 10, base);
  for (std::size_t g = 0; g < labels.size(); ++g) {
    double gx = left + group * static_cast<double>(g) + group * 0.1;
    for (std::size_t s = 0; s < series.size(); ++s) {
      double v = s < values.size() && g < values[s].size() ? values[s][g] : 0;
      double bh = top > 0 ? 170.0 * v / top : 0;
      double x = gx + bar * static_cast<double>(s);
      out += fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                 "fill=\"%s\"/>",
                 x, base - bh, bar - 2, bh, color(s));
      out += text(x + bar / 2, base - bh - 3, number(v), "middle", 10);
    }
    out += text(gx + bar * static_cast<double>(series.size()) / 2, base + 16,
                labels[g], "middle");
  }
  for (std::size_t s = 0; s < series.size(); ++s) {
    double x = left + 140.0 * static_cast<double>(s);
    out += fmt("<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>",
               x, h - 22, color(s));
    out += text(x + 16, h - 12, series[s]);
  }
  return out + "</svg>";
}

std::string heat_grid(std::string_view id, std::string_view title,
                      const std::vector<std::string>& rows,
                      const std::vector<std::string>& columns,
                      const std::vector<std::vector<std::uint64_t>>& counts) {
  const int left = 160, cell_w = 130, cell_h = 40, top_off = 30;
  int width = left + cell_w * static_cast<int>(columns.size()) + 10;
  int h = top_off + cell_h * static_cast<int>(rows.size()) + 10;
  std::uint64_t top = 0;
  for (auto& r : counts)
    for (auto c : r)
      top = std::max(top, c);
  auto out = open(id, title, width, h);
  for (std::size_t c = 0; c < columns.size(); ++c)
    out += text(left + cell_w * (static_cast<double>(c) + 0.5), 20, columns[c],
                "middle");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    double y = top_off + cell_h * static_cast<double>(r);
    out += text(left - 8, y + 25, rows[r], "end");
    for (std::size_t c = 0; c < columns.size(); ++c) {
      auto n = r < counts.size() && c < counts[r].size() ? counts[r][c] : 0;
      double shade = top > 0 ? static_cast<double>(n) / static_cast<double>(top) : 0;
      out += fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
                 "fill=\"rgb(%d,%d,%d)\" stroke=\"#fff\"/>",
                 left + cell_w * static_cast<double>(c), y, cell_w, cell_h,
                 static_cast<int>(235 - 157 * shade),
                 static_cast<int>(240 - 119 * shade),
                 static_cast<int>(250 - 83 * shade));
      out += text(left + cell_w * (static_cast<double>(c) + 0.5), y + 25,
                  number(static_cast<double>(n)), "middle", 14);
    }
  }
  return out + "</svg>";
}

std::string step_lines(std::string_view id, std::string_view title,
                       std::string_view x_label, std::string_view y_label,
                       const std::vector<series_points>& series,
                       const std::vector<marker>& markers) {
  const int width = 640, h = 300, left = 50, right = 20, top = 20, base = 240;
  double xmax = 1, ymax = 1;
  for (auto& s : series)
    for (auto& [x, y] : s.points) {
      xmax = std::max(xmax, x);
      ymax = std::max(ymax, y);
    }
  auto sx = [&](double x) { return left + (width - left - right) * x / xmax; };
  auto sy = [&](double y) { return base - (base - top) * y / ymax; };
  auto out = open(id, title, width, h);
  out += fmt("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>",
             left, base, width - right, base);
  out += fmt("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>",
             left, top, left, base);
  out += text(left - 6, sy(ymax) + 4, number(ymax), "end", 10);
  out += text(left - 6, base + 4, "0", "end", 10);
  out += text(sx(xmax), base + 14, number(xmax), "middle", 10);
  out += text((left + width) / 2.0, base + 30, x_label, "middle");
  out += text(12, top - 6, y_label, "start");
  for (std::size_t i = 0; i < markers.size(); ++i) {
    auto& m = markers[i];
    out += fmt("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d62728\" "
               "stroke-dasharray=\"4 3\"/>",
               sx(m.x), top, sx(m.x), base);
    // Staggered, so that close alarms keep readable labels.
    out += text(sx(m.x) + 3, top + 10 + 12.0 * static_cast<double>(i % 4),
                m.label, "start", 10);
  }
  for (std::size_t i = 0; i < series.size(); ++i) {
    std::string pts = fmt("%.1f,%.1f", sx(0), sy(0));
    double last_y = 0;
    for (auto& [x, y] : series[i].points) {
      pts += fmt(" %.1f,%.1f %.1f,%.1f", sx(x), sy(last_y), sx(x), sy(y));
      last_y = y;
    }
    out += fmt("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
               color(i))
           + pts + "\"/>";
    out += fmt("<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>",
               left + 160.0 * static_cast<double>(i), h - 16, color(i));
    out += text(left + 160.0 * static_cast<double>(i) + 16, h - 6, series[i].name);
  }
  return out + "</svg>";
}

std::string interval_chart(std::string_view id, std::string_view title,
                           const std::vector<interval>& rows) {
  const int left = 190, width = 640, row = 28;
  int h = 40 + row * static_cast<int>(rows.size());
  double span = width - left - 30;
  auto out = open(id, title, width, h);
  for (double t : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    out += fmt("<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>",
               left + span * t, left + span * t, h - 22);
    out += text(left + span * t, h - 8, fmt("%.0f%%", 100 * t), "middle", 10);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto& r = rows[i];
    double y = 24 + row * static_cast<double>(i);
    out += text(left - 8, y + 4, r.label, "end");
    out += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
               "stroke=\"#4e79a7\" stroke-width=\"3\"/>",
               left + span * r.lo, y, left + span * r.hi, y);
    out += fmt("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#e15759\"/>",
               left + span * r.rate, y);
  }
  return out + "</svg>";
}

} // namespace ij::svg
