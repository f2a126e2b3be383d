// `strut scale SCENE [--threads-max N] [--sizes a,b,c] [--steps N] [--out PREFIX]`: runs a scene
// at every thread count and size, and writes PREFIX.csv and PREFIX.svg (ms/step against threads
// and against bodies).
#include <CLI/CLI.hpp>
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

struct ScaleOptions {
  std::string scene, sizes = "1", out;
  int threads_max = int(std::max(1u, std::thread::hardware_concurrency()));
  int steps = 100;
};

int scale(const ScaleOptions& o, const CLI::App& command) {
  if (o.scene.empty() || !surplus_arguments(command).empty())
    throw UsageError("scale: expected one SCENE (a file or a built-in name)");
  const std::string& name = o.scene;
  const int threads_max = o.threads_max, steps = o.steps;
  const std::vector<float> sizes = parse_sizes(o.sizes);
  const std::string prefix =
      command.count("--out") ? o.out : std::filesystem::path(name).stem().string() + "_scale";
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

}  // namespace

Command add_scale_command(CLI::App& strut) {
  auto o = std::make_shared<ScaleOptions>();
  CLI::App* command = strut.add_subcommand(
      "scale",
      "Runs SCENE at every thread count and size and writes PREFIX.csv and PREFIX.svg (ms/step "
      "against threads and against bodies); exits 1 if the hash differs between thread counts.");
  command->add_option("SCENE", o->scene, "a scene file or the name of a built-in scene")
      ->type_name("");
  add_whole_number(*command, "--threads-max", o->threads_max, 1, limits::kMaxThreads, "N",
                   "runs 1 to N threads; default the number of cores");
  command
      ->add_option("--sizes", o->sizes,
                   "sizes of a built-in scene (a size multiplies its bodies); default 1")
      ->type_name("a,b,c");
  add_whole_number(*command, "--steps", o->steps, 1, 1000000000, "N", "steps per run; default 100");
  command->add_option("--out", o->out, "default <scene>_scale")->type_name("PREFIX");
  return [o, command] { return scale(*o, *command); };
}

}  // namespace strut::cli
