#include "tools/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace strut::cli {
namespace {

constexpr double kWidth = 460, kHeight = 340;                       // one chart
constexpr double kLeft = 64, kRight = 16, kTop = 36, kBottom = 52;  // plot margins
constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                    "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

// Tick step of 1, 2 or 5 x 10^k giving about five ticks over [0, hi].
double tick_step(double hi) {
  const double raw = hi / 5;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

void chart(std::string& out, const LineChart& c, double ox) {
  double x_hi = 0, y_hi = 0;
  for (const auto& s : c.series)
    for (const auto& [x, y] : s.points) x_hi = std::max(x_hi, x), y_hi = std::max(y_hi, y);
  if (x_hi <= 0) x_hi = 1;
  if (y_hi <= 0) y_hi = 1;
  const double xs = c.integer_x ? std::max(1.0, std::round(tick_step(x_hi))) : tick_step(x_hi);
  const double ys = tick_step(y_hi);
  x_hi = std::ceil(x_hi / xs) * xs;
  y_hi = std::ceil(y_hi / ys) * ys;
  const double w = kWidth - kLeft - kRight, h = kHeight - kTop - kBottom;
  auto px = [&](double x) { return ox + kLeft + w * x / x_hi; };
  auto py = [&](double y) { return kTop + h * (1 - y / y_hi); };

  out += "<text x=\"" + num(ox + kWidth / 2) +
         "\" y=\"20\" text-anchor=\"middle\" "
         "font-weight=\"bold\">" +
         escape(c.title) + "</text>\n";
  for (double x = 0; x <= x_hi + 1e-9 * x_hi; x += xs) {
    out += "<line x1=\"" + num(px(x)) + "\" y1=\"" + num(kTop) + "\" x2=\"" + num(px(x)) +
           "\" y2=\"" + num(kTop + h) + "\" stroke=\"#ddd\"/>\n";
    out += "<text x=\"" + num(px(x)) + "\" y=\"" + num(kTop + h + 16) +
           "\" text-anchor=\"middle\">" + num(x) + "</text>\n";
  }
  for (double y = 0; y <= y_hi + 1e-9 * y_hi; y += ys) {
    out += "<line x1=\"" + num(ox + kLeft) + "\" y1=\"" + num(py(y)) + "\" x2=\"" +
           num(ox + kLeft + w) + "\" y2=\"" + num(py(y)) + "\" stroke=\"#ddd\"/>\n";
    out += "<text x=\"" + num(ox + kLeft - 6) + "\" y=\"" + num(py(y) + 4) +
           "\" text-anchor=\"end\">" + num(y) + "</text>\n";
  }
  out += "<rect x=\"" + num(ox + kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(w) +
         "\" height=\"" + num(h) + "\" fill=\"none\" stroke=\"#000\"/>\n";
  out += "<text x=\"" + num(ox + kLeft + w / 2) + "\" y=\"" + num(kHeight - 12) +
         "\" text-anchor=\"middle\">" + escape(c.x_label) + "</text>\n";
  out += "<text transform=\"translate(" + num(ox + 16) + " " + num(kTop + h / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + escape(c.y_label) + "</text>\n";
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const PlotSeries& s = c.series[i];
    const char* colour = kColours[i % std::size(kColours)];
    std::string pts;
    for (const auto& [x, y] : s.points) pts += num(px(x)) + "," + num(py(y)) + " ";
    out += "<polyline fill=\"none\" stroke=\"" + std::string(colour) +
           "\" stroke-width=\"2\" points=\"" + pts + "\"/>\n";
    for (const auto& [x, y] : s.points)
      out += "<circle cx=\"" + num(px(x)) + "\" cy=\"" + num(py(y)) + "\" r=\"3\" fill=\"" +
             colour + "\"/>\n";
    const double ly = kTop + 10 + 16 * double(i), lx = ox + kLeft + w + 10;
    out += "<line x1=\"" + num(lx) + "\" y1=\"" + num(ly - 4) + "\" x2=\"" + num(lx + 18) +
           "\" y2=\"" + num(ly - 4) + "\" stroke=\"" + colour + "\" stroke-width=\"2\"/>\n";
    out +=
        "<text x=\"" + num(lx + 22) + "\" y=\"" + num(ly) + "\">" + escape(s.label) + "</text>\n";
  }
}

}  // namespace

std::string svg_line_charts(const std::vector<LineChart>& charts) {
  const double width = kWidth * double(std::max<std::size_t>(1, charts.size()));
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) +
                    "\" height=\"" + num(kHeight) +
                    "\" font-family=\"sans-serif\" "
                    "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  for (std::size_t i = 0; i < charts.size(); ++i) chart(out, charts[i], kWidth * double(i));
  out += "</svg>\n";
  return out;
}

}  // namespace strut::cli
