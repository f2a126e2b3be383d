// `strut render SCENE|RECORDING [--steps a,b,c] [-o PREFIX] [--size WxH] [--view x0,y0,x1,y1]
//  [--contacts] [--threads T]`: PNG pictures of chosen steps, PREFIX-<step>.png.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

#include "strut/limits.hpp"
#include "strut/scenes.hpp"
#include "tools/cli.hpp"
#include "tools/record/compression.hpp"
#include "tools/record/recording.hpp"
#include "tools/record/recording_writer.hpp"
#include "tools/view/png_render.hpp"

namespace strut::cli {
namespace {

// Comma-separated numbers of an option, each parsed by `parse` (which returns false if bad).
template <class T, class Parse>
std::vector<T> list_of(const std::string& option, const std::string& text, Parse parse) {
  std::vector<T> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    T v{};
    if (!parse(item, v)) throw UsageError(option + ": bad value '" + item + "' in '" + text + "'");
    out.push_back(v);
  }
  if (out.empty()) throw UsageError(option + ": expected a comma-separated list");
  return out;
}

bool parse_step(const std::string& s, long long& v) {
  std::size_t end = 0;
  try {
    v = std::stoll(s, &end);
  } catch (const std::exception&) {
    return false;
  }
  return end == s.size() && v >= 0 && v <= 100000000;
}

bool parse_float(const std::string& s, float& v) {
  std::size_t end = 0;
  try {
    v = std::stof(s, &end);
  } catch (const std::exception&) {
    return false;
  }
  return end == s.size() && std::isfinite(v);
}

// A recording starts with a zstd frame or a MessagePack map; a scene file with JSON text.
bool is_recording_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char head[4] = {};
  const std::size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  const int c = n > 0 ? std::uint8_t(head[0]) : -1;
  return record::is_compressed({head, n}) || (c >= 0x80 && c <= 0x8f) || c == 0xde || c == 0xdf;
}

// Runs the scene to the last chosen step, recording the chosen steps only.
record::Recording record_scene(const std::string& name, const std::set<long long>& steps,
                               bool contacts, int threads) {
  SceneInstance inst = load_instance(name, threads);
  record::RecordingWriter writer({.scene = name, .dt = inst.dt, .every = 1, .contacts = contacts});
  for (long long k = 0; k <= *steps.rbegin(); ++k) {
    if (k > 0) inst.step();
    if (steps.count(k)) writer.capture(inst.world, k);
  }
  return record::read_recording(writer.take_bytes(), name);
}

struct RenderOptions {
  std::string input, steps = "0", prefix, size, view;
  int threads = 0;
  bool contacts = false;
};

int render(const RenderOptions& o, const CLI::App& command) {
  if (o.input.empty() || !surplus_arguments(command).empty())
    throw UsageError("render: expected one SCENE or RECORDING");
  const std::string& input = o.input;
  const auto steps_list = list_of<long long>("--steps", o.steps, parse_step);
  const std::set<long long> steps(steps_list.begin(), steps_list.end());
  view::RenderOptions options;
  options.contacts = o.contacts;
  if (command.count("--size")) {
    const std::string& s = o.size;
    const std::size_t x = s.find('x');
    long long w = 0, h = 0;
    if (x == std::string::npos || !parse_step(s.substr(0, x), w) ||
        !parse_step(s.substr(x + 1), h) || w < 16 || h < 16 || w > 8192 || h > 8192)
      throw UsageError("--size: expected WxH, each 16 to 8192 pixels, got '" + s + "'");
    options.width = int(w), options.height = int(h);
  }
  const int threads = o.threads;
  // Without -o, the input's file name without its extension.
  const std::string prefix =
      command.count("--out") ? o.prefix : std::filesystem::path(input).stem().string();

  const bool from_recording = is_recording_file(input);
  const record::Recording rec = from_recording
                                    ? record::load_recording(input)
                                    : record_scene(input, steps, options.contacts, threads);
  if (options.contacts && !rec.has_contacts)
    throw UsageError("--contacts: " + input + " was recorded without --record-contacts");
  if (command.count("--view")) {
    const auto v = list_of<float>("--view", o.view, parse_float);
    if (v.size() != 4 || !(v[0] < v[2]) || !(v[1] < v[3]))
      throw UsageError("--view: expected x0,y0,x1,y1 with x0 < x1 and y0 < y1");
    options.view = {{v[0], v[1]}, {v[2], v[3]}};
  } else {
    options.view = view::fit_view(rec);
  }
  for (const long long step : steps) {
    const auto frame = std::find_if(rec.frames.begin(), rec.frames.end(),
                                    [&](const record::Frame& f) { return f.step == step; });
    if (frame == rec.frames.end())
      throw UsageError("--steps: " + input + " has no frame at step " + std::to_string(step) +
                       " (its frames are " + std::to_string(rec.frames.front().step) + " to " +
                       std::to_string(rec.frames.back().step) + ", every " +
                       std::to_string(rec.every) + " steps)");
    const std::string path = prefix + "-" + std::to_string(step) + ".png";
    try {
      view::render_png(rec, std::size_t(frame - rec.frames.begin()), options, path);
    } catch (const std::runtime_error& e) {
      throw UsageError(std::string("-o: ") + e.what());
    }
    std::printf("%s\n", path.c_str());
  }
  return 0;
}

}  // namespace

Command add_render_command(CLI::App& strut) {
  auto o = std::make_shared<RenderOptions>();
  CLI::App* command = strut.add_subcommand(
      "render",
      "Draws PREFIX-<step>.png for each chosen step, from a recording (each step one of its "
      "frames) or from a scene run to the last step asked for; prints each file's name.");
  command
      ->add_option("SCENE|RECORDING", o->input,
                   "a recording, a scene file, a snapshot or a built-in scene's name")
      ->type_name("");
  command->add_option("--steps", o->steps, "the steps to draw; default 0")->type_name("a,b,c");
  command->add_option("-o,--out", o->prefix, "default the input's file name without extension")
      ->type_name("PREFIX");
  command->add_option("--size", o->size, "pixels, 16 to 8192 a side; default 800x600")
      ->type_name("WxH");
  command
      ->add_option("--view", o->view,
                   "the world rectangle to show; default every body of every frame, plus 5 %")
      ->type_name("x0,y0,x1,y1");
  command->add_flag("--contacts", o->contacts,
                    "draws contact points and normals (a recording must have them)");
  add_whole_number(*command, "--threads", o->threads, 0, limits::kMaxThreads, "T",
                   "threads running a scene; 0 (the default) uses all cores");
  return [o, command] { return render(*o, *command); };
}

}  // namespace strut::cli
