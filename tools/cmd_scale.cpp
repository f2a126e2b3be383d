// `strut scale SCENE [--threads-max N] [--sizes a,b,c] [--steps N] [--out PREFIX]`: runs a scene
// at every thread count and size, and writes PREFIX.csv and PREFIX.svg (ms/step against threads
// and against bodies).
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "strut/limits.hpp"
#include "tools/cli.hpp"
#include "tools/scene/json_text.hpp"
#include "tools/svg_plot.hpp"

namespace strut::cli {
namespace {

std::vector<float> parse_sizes(const std::string& text) {
  std::vector<float> sizes;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    float v = 0;
    const auto [ptr, ec] = std::from_chars(text.data() + begin, text.data() + end, v);
    if (ec != std::errc() || ptr != text.data() + end || !(v > 0) || v > 1000)
      throw UsageError("--sizes: expected positive numbers separated by commas, got '" + text +
                       "'");
    sizes.push_back(v);
    begin = end + 1;
  }
  return sizes;
}

struct Sample {
  float size;
  std::size_t bodies;
  int threads;
  double ms_per_step;
  std::uint64_t hash;
};

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

int scale_command(std::span<const std::string> argv) {
  const Args args = parse_args("scale", argv, {"--threads-max", "--sizes", "--steps", "--out"}, {});
  if (args.positional.size() != 1)
    throw UsageError("scale: expected one SCENE (a file or a built-in name)");
  const std::string name = args.positional[0];
  const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  const int threads_max = int(args.integer("--threads-max", cores, 1, limits::kMaxThreads));
  const int steps = int(args.integer("--steps", 100, 1, 1000000000));
  const std::vector<float> sizes = parse_sizes(args.text("--sizes", "1"));
  const std::string prefix =
      args.text("--out", std::filesystem::path(name).stem().string() + "_scale");
  OutputFile csv_file("--out", prefix + ".csv"), svg_file("--out", prefix + ".svg");

  std::vector<Sample> samples;
  bool deterministic = true;
  for (const float size : sizes) {
    const Scene scene = resolve_scene(name, size);
    for (int t = 1; t <= threads_max; ++t) {
      SceneInstance inst = build_scene(scene, t);
      const auto start = std::chrono::steady_clock::now();
      for (int k = 0; k < steps; ++k) inst.step();
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const Sample s{size, inst.world.body_count(), t, 1000.0 * seconds / steps,
                     inst.world.state_hash()};
      if (t > 1 && s.hash != samples.back().hash) deterministic = false;
      samples.push_back(s);
      std::printf("size %-6g threads %-3d %8zu bodies %10.3f ms/step  hash %s%s\n", size, t,
                  s.bodies, s.ms_per_step, json_text::hex64(s.hash).c_str(),
                  t > 1 && s.hash != samples[samples.size() - 2].hash ? "  MISMATCH" : "");
      std::fflush(stdout);
    }
  }

  std::string csv = "scene,size,bodies,threads,steps,ms_per_step,hash\n";
  for (const Sample& s : samples)
    csv += name + "," + fmt("%g", s.size) + "," + std::to_string(s.bodies) + "," +
           std::to_string(s.threads) + "," + std::to_string(steps) + "," +
           fmt("%.4f", s.ms_per_step) + "," + json_text::hex64(s.hash) + "\n";
  csv_file.write(csv);

  LineChart by_threads{
      name + ": time per step against threads", "threads", "ms per step", {}, true};
  LineChart by_bodies{name + ": time per step against bodies", "bodies", "ms per step", {}};
  for (const float size : sizes) {
    PlotSeries series;
    for (const Sample& s : samples) {
      if (s.size != size) continue;
      series.label = "size " + fmt("%g", size) + " (" + std::to_string(s.bodies) + " bodies)";
      series.points.emplace_back(s.threads, s.ms_per_step);
    }
    by_threads.series.push_back(series);
  }
  for (int t = 1; t <= threads_max; ++t) {
    PlotSeries series{std::to_string(t) + (t == 1 ? " thread" : " threads"), {}};
    for (const Sample& s : samples)
      if (s.threads == t) series.points.emplace_back(double(s.bodies), s.ms_per_step);
    std::sort(series.points.begin(), series.points.end());
    by_bodies.series.push_back(series);
  }
  svg_file.write(svg_line_charts({by_threads, by_bodies}));
  std::printf("wrote %s.csv and %s.svg\n", prefix.c_str(), prefix.c_str());
  if (!deterministic)
    throw InternalError("the state hash differs between thread counts (see MISMATCH above)");
  return 0;
}

}  // namespace strut::cli
