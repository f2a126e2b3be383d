// Hand-written SVG line charts for `strut scale`: no plotting library, a few hundred bytes of
// markup per series.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace strut::cli {

struct PlotSeries {
  std::string label;
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in this order
};

struct LineChart {
  std::string title, x_label, y_label;
  std::vector<PlotSeries> series;
  bool integer_x = false;  // ticks on whole numbers only (thread counts)
};

// The charts side by side in one SVG document, each with labelled axes, ticks and a legend.
std::string svg_line_charts(const std::vector<LineChart>& charts);

}  // namespace strut::cli
