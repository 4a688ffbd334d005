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

// A count in at most five characters (12345 -> "12k"), for narrow bars;
// the exact figure is in the page's table.
std::string compact(double v) {
  if (v < 10000)
    return number(v);
  if (v < 1e6)
    return fmt("%.0fk", v / 1e3);
  if (v < 1e9)
    return fmt(v < 1e7 ? "%.1fM" : "%.0fM", v / 1e6);
  return fmt("%.0fG", v / 1e9);
}

// Starts a chart of w x h pixels, drawn at that size (never scaled, so the
// layout's text widths hold); role img with its title for screen readers.
std::string open(std::string_view id, std::string_view title, double w,
                 double h) {
  return fmt(
           "<svg class=\"plot\" id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" "
           "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
           "role=\"img\" "
           "aria-labelledby=\"%s-title\">",
           escape(id).c_str(), w, h, w, h, escape(id).c_str())
         + "<title id=\"" + escape(id) + "-title\">" + escape(title)
         + "</title>";
}

// `s` shortened with an ellipsis until it fits `max_width` at `size`.
std::string fitted(std::string_view s, double size, double max_width) {
  if (text_width(s, size) <= max_width)
    return std::string{s};
  std::string out{s};
  while (!out.empty() && text_width(out + "\xE2\x80\xA6", size) > max_width) {
    out.pop_back();
    while (!out.empty()
           && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80)
      out.pop_back(); // a whole UTF-8 sequence at a time
    if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0)
      out.pop_back();
  }
  return out + "\xE2\x80\xA6";
}

// A text label; when it had to be shortened to `max_width`, its whole text
// is its tooltip.
std::string text(double x, double y, std::string_view s,
                 std::string_view anchor = "start", double size = 12,
                 double max_width = 1e9) {
  auto shown = fitted(s, size, max_width);
  return fmt(
           "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" text-anchor=\"%s\">",
           x, y, size, std::string{anchor}.c_str())
         + escape(shown)
         + (shown == s ? std::string{} : "<title>" + escape(s) + "</title>")
         + "</text>";
}

double widest(const std::vector<std::string>& labels, double size) {
  double w = 0;
  for (auto& l : labels)
    w = std::max(w, text_width(l, size));
  return w;
}

// Legend entries (a swatch and a name each) flowing left to right from
// (x0, y), wrapping before `right`; returns the markup and the y of the
// last row.
std::pair<std::string, double> legend(const std::vector<std::string>& names,
                                      double x0, double y, double right) {
  std::string out;
  double x = x0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    double w = 16 + std::min(text_width(names[i], 12), right - x0 - 16);
    if (x > x0 && x + w > right) {
      x = x0;
      y += 20;
    }
    out += fmt(
      "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>", x,
      y - 10, color(i));
    out += text(x + 16, y, names[i], "start", 12, right - x0 - 16);
    x += w + 18;
  }
  return {out, y};
}

// The markers' labels, beside their lines (at `xs`), each in the first row
// (from `y`, 14 px apart) where it meets no other label, within [lo, hi].
std::string marker_labels(const std::vector<marker>& markers,
                          const std::vector<double>& xs, double lo, double hi,
                          double y) {
  std::string out;
  std::vector<std::vector<std::pair<double, double>>> rows;
  for (std::size_t i = 0; i < markers.size(); ++i) {
    double x = xs[i], want = text_width(markers[i].label, 10);
    double room_right = hi - (x + 3), room_left = x - 3 - lo;
    bool on_right = want <= room_right || room_right >= room_left;
    double w = std::min(want, on_right ? room_right : room_left);
    double x0 = on_right ? x + 3 : x - 3 - w;
    std::size_t r = 0;
    for (; r < rows.size(); ++r)
      if (std::none_of(rows[r].begin(), rows[r].end(), [&](auto& span) {
            return x0 < span.second + 6 && span.first < x0 + w + 6;
          }))
        break;
    if (r == rows.size())
      rows.emplace_back();
    rows[r].emplace_back(x0, x0 + w);
    // A white halo keeps the words readable where a line crosses them.
    auto label =
      text(on_right ? x + 3 : x - 3, y + 14.0 * static_cast<double>(r),
           markers[i].label, on_right ? "start" : "end", 10, w);
    label.insert(std::string_view{"<text "}.size(),
                 "paint-order=\"stroke\" stroke=\"#fff\" stroke-width=\"3\" ");
    out += label;
  }
  return out;
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

double text_width(std::string_view s, double size) {
  // Em widths at or above those of DejaVu Sans, the widest common sans
  // serif (what system-ui falls back to on Linux).
  double em = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) == 0x80)
      continue; // counted with its lead byte
    if (c >= 0x80)
      em += 1.0;
    else if (c == 'm' || c == 'M' || c == 'W' || c == '@' || c == '%')
      em += 1.0;
    else if (c == 'w')
      em += 0.85;
    else if (c >= 'A' && c <= 'Z')
      em += 0.78;
    else if (c >= '0' && c <= '9')
      em += 0.64;
    else if (std::string_view{"ijltfrI.,:;'!|()[] "}.find(static_cast<char>(c))
             != std::string_view::npos)
      em += 0.42;
    else
      em += 0.64;
  }
  return em * size;
}

std::string bar_chart(std::string_view id, std::string_view title,
                      const std::vector<std::string>& labels,
                      const std::vector<double>& values,
                      std::string_view fill) {
  const double width = 720, row = 24;
  double label_w = std::min(widest(labels, 12), 300.0);
  double left = label_w + 14;
  std::vector<std::string> shown;
  for (double v : values)
    shown.push_back(number(v));
  double span = width - left - widest(shown, 12) - 16;
  double h = 16 + row * static_cast<double>(labels.size());
  double top = 0;
  for (double v : values)
    top = std::max(top, v);
  auto out = open(id, title, width, h);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    double y = 8 + row * static_cast<double>(i);
    double v = i < values.size() ? values[i] : 0;
    double w = top > 0 ? span * v / top : 0;
    out += text(left - 8, y + 14, labels[i], "end", 12, label_w);
    out += fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"18\" "
               "fill=\"%s\"/>",
               left, y, w, std::string{fill}.c_str());
    out += text(left + w + 6, y + 14, i < shown.size() ? shown[i] : "0");
  }
  return out + "</svg>";
}

std::string grouped_bars(std::string_view id, std::string_view title,
                         const std::vector<std::string>& labels,
                         const std::vector<std::string>& series,
                         const std::vector<std::vector<double>>& values) {
  const double width = 720, bar = 14, pitch = 18, gap = 12;
  double label_w = std::min(widest(labels, 12), 240.0);
  double left = label_w + 14;
  double top = 0;
  std::vector<std::string> all;
  for (auto& s : values)
    for (double v : s) {
      top = std::max(top, v);
      all.push_back(number(v));
    }
  double span = width - left - widest(all, 11) - 16;
  auto [keys, last] = legend(series, left, 16, width - 8);
  double y0 = last + 14;
  double group = pitch * static_cast<double>(series.size()) + gap;
  double h = y0 + group * static_cast<double>(labels.size()) + 4;
  auto out = open(id, title, width, h) + keys;
  for (std::size_t g = 0; g < labels.size(); ++g) {
    double gy = y0 + group * static_cast<double>(g);
    // The group's name, centred on its bars.
    out +=
      text(left - 8, gy + pitch * static_cast<double>(series.size()) / 2 + 2,
           labels[g], "end", 12, label_w);
    for (std::size_t s = 0; s < series.size(); ++s) {
      double v = s < values.size() && g < values[s].size() ? values[s][g] : 0;
      double w = top > 0 ? span * v / top : 0;
      double y = gy + pitch * static_cast<double>(s);
      out += fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" "
                 "fill=\"%s\"/>",
                 left, y, w, bar, color(s));
      out += text(left + w + 6, y + 11, number(v), "start", 11);
    }
  }
  return out + "</svg>";
}

std::string histograms(std::string_view id, std::string_view title,
                       const std::vector<std::string>& bins,
                       const std::vector<std::string>& series,
                       const std::vector<std::vector<double>>& values) {
  const double width = 720, left = 16, right = 8, bars = 90;
  // Per series: its name, a row for the counts over the tallest bar, the
  // bars, the bin labels.
  const double name_row = 20, count_row = 14, bin_row = 18, gap = 14;
  const double panel = name_row + count_row + bars + bin_row + gap;
  double band = bins.empty()
                  ? 0
                  : (width - left - right) / static_cast<double>(bins.size());
  double top = 0;
  for (auto& s : values)
    for (double v : s)
      top = std::max(top, v);
  auto out =
    open(id, title, width, panel * static_cast<double>(series.size()) + 4);
  for (std::size_t s = 0; s < series.size(); ++s) {
    double y0 = panel * static_cast<double>(s);
    double base = y0 + name_row + count_row + bars;
    out += text(left, y0 + 15, series[s], "start", 12, width - left - right);
    out += fmt(
      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>",
      left, base, width - right, base);
    for (std::size_t b = 0; b < bins.size(); ++b) {
      double v = s < values.size() && b < values[s].size() ? values[s][b] : 0;
      double x = left + band * static_cast<double>(b);
      double bh = top > 0 ? bars * v / top : 0;
      if (v > 0) {
        out += fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                   "fill=\"%s\"/>",
                   x + band * 0.15, base - bh, band * 0.7, bh, color(s));
        out +=
          text(x + band / 2, base - bh - 3, compact(v), "middle", 10, band - 4);
      }
      out += text(x + band / 2, base + 13, bins[b], "middle", 10, band - 4);
    }
  }
  return out + "</svg>";
}

std::string heat_grid(std::string_view id, std::string_view title,
                      const std::vector<std::string>& rows,
                      const std::vector<std::string>& columns,
                      const std::vector<std::vector<std::uint64_t>>& counts) {
  const double cell_w = 130, cell_h = 40, top_off = 30;
  double left = std::min(widest(rows, 12), 240.0) + 16;
  double width = left + cell_w * static_cast<double>(columns.size()) + 10;
  double h = top_off + cell_h * static_cast<double>(rows.size()) + 10;
  std::uint64_t top = 0;
  for (auto& r : counts)
    for (auto c : r)
      top = std::max(top, c);
  auto out = open(id, title, width, h);
  for (std::size_t c = 0; c < columns.size(); ++c)
    out += text(left + cell_w * (static_cast<double>(c) + 0.5), 20, columns[c],
                "middle", 12, cell_w - 8);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    double y = top_off + cell_h * static_cast<double>(r);
    out += text(left - 8, y + 25, rows[r], "end", 12, left - 16);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      auto n = r < counts.size() && c < counts[r].size() ? counts[r][c] : 0;
      double shade =
        top > 0 ? static_cast<double>(n) / static_cast<double>(top) : 0;
      out += fmt("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
                 "fill=\"rgb(%d,%d,%d)\" stroke=\"#fff\"/>",
                 left + cell_w * static_cast<double>(c), y, cell_w, cell_h,
                 static_cast<int>(235 - 157 * shade),
                 static_cast<int>(240 - 119 * shade),
                 static_cast<int>(250 - 83 * shade));
      out += text(left + cell_w * (static_cast<double>(c) + 0.5), y + 25,
                  number(static_cast<double>(n)), "middle", 14, cell_w - 8);
    }
  }
  return out + "</svg>";
}

std::string step_lines(std::string_view id, std::string_view title,
                       std::string_view x_label, std::string_view y_label,
                       const std::vector<series_points>& series,
                       const std::vector<marker>& markers) {
  const double width = 720, left = 50, right = 20, top = 34, base = 254;
  double xmax = 1, ymax = 1;
  for (auto& s : series)
    for (auto& [x, y] : s.points) {
      xmax = std::max(xmax, x);
      ymax = std::max(ymax, y);
    }
  auto sx = [&](double x) { return left + (width - left - right) * x / xmax; };
  auto sy = [&](double y) { return base - (base - top) * y / ymax; };
  std::vector<std::string> names;
  for (auto& s : series)
    names.push_back(s.name);
  auto [keys, last] = legend(names, left, base + 56, width - 8);
  auto out = open(id, title, width, last + 10) + keys;
  out += fmt(
    "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#333\"/>",
    left, base, width - right, base);
  out += fmt(
    "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#333\"/>",
    left, top, left, base);
  // Axis words above the plot, away from the axis numbers.
  out += text(12, 16, y_label, "start", 12, width - 24);
  out += text(left - 6, sy(ymax) + 4, number(ymax), "end", 10);
  out += text(left - 6, base + 4, "0", "end", 10);
  out += text(sx(xmax), base + 14, number(xmax), "end", 10);
  out +=
    text((left + width) / 2.0, base + 32, x_label, "middle", 12, width - 24);
  for (std::size_t i = 0; i < series.size(); ++i) {
    std::string pts = fmt("%.1f,%.1f", sx(0), sy(0));
    double last_y = 0;
    for (auto& [x, y] : series[i].points) {
      pts += fmt(" %.1f,%.1f %.1f,%.1f", sx(x), sy(last_y), sx(x), sy(y));
      last_y = y;
    }
    out +=
      fmt("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
          color(i))
      + pts + "\"/>";
  }
  for (auto& m : markers)
    out += fmt("<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
               "stroke=\"#d62728\" stroke-dasharray=\"4 3\"/>",
               sx(m.x), top, sx(m.x), base);
  std::vector<double> xs;
  for (auto& m : markers)
    xs.push_back(sx(m.x));
  out += marker_labels(markers, xs, left + 4, width - 4, top + 10);
  return out + "</svg>";
}

std::string interval_chart(std::string_view id, std::string_view title,
                           const std::vector<interval>& rows) {
  const double width = 720, row = 28;
  std::vector<std::string> labels, numbers;
  for (auto& r : rows) {
    labels.push_back(r.label);
    numbers.push_back(r.numbers);
  }
  double label_w = std::min(widest(labels, 12), 220.0);
  double numbers_w = std::min(widest(numbers, 11), 240.0);
  double left = label_w + 14;
  double span = width - left - numbers_w - 34;
  double h = 40 + row * static_cast<double>(rows.size());
  auto out = open(id, title, width, h);
  for (double t : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    out += fmt(
      "<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>",
      left + span * t, left + span * t, h - 22);
    out += text(left + span * t, h - 8, fmt("%.0f%%", 100 * t), "middle", 10);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto& r = rows[i];
    double y = 24 + row * static_cast<double>(i);
    out += text(left - 8, y + 4, r.label, "end", 12, label_w);
    out += fmt("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
               "stroke=\"#4e79a7\" stroke-width=\"3\"/>",
               left + span * r.lo, y, left + span * r.hi, y);
    out += fmt("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#e15759\"/>",
               left + span * r.rate, y);
    // The figures beside every row, whatever the interval's length.
    out += text(left + span + 20, y + 4, r.numbers, "start", 11, numbers_w);
  }
  return out + "</svg>";
}

} // namespace ij::svg
