// `strut render SCENE|RECORDING [--steps a,b,c] [-o PREFIX] [--size WxH] [--view x0,y0,x1,y1]
//  [--contacts] [--threads T]`: PNG pictures of chosen steps, PREFIX-<step>.png.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

#include "strut/limits.hpp"
#include "strut/scenes.hpp"
#include "tools/cli.hpp"
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

// A recording starts with a MessagePack map; a scene file with JSON text.
bool is_recording_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  const int c = std::fgetc(f);
  std::fclose(f);
  return (c >= 0x80 && c <= 0x8f) || c == 0xde || c == 0xdf;
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

std::string default_prefix(const std::string& input) {
  return std::filesystem::path(input).stem().string();
}

}  // namespace

int render_command(std::span<const std::string> argv) {
  const Args args = parse_args(
      "render", argv, {"--steps", "-o", "--out", "--size", "--view", "--threads"}, {"--contacts"});
  if (args.positional.size() != 1) throw UsageError("render: expected one SCENE or RECORDING");
  const std::string& input = args.positional[0];
  const auto steps_list = list_of<long long>("--steps", args.text("--steps", "0"), parse_step);
  const std::set<long long> steps(steps_list.begin(), steps_list.end());
  view::RenderOptions options;
  options.contacts = args.has("--contacts");
  if (args.has("--size")) {
    const std::string s = args.text("--size", "");
    const std::size_t x = s.find('x');
    long long w = 0, h = 0;
    if (x == std::string::npos || !parse_step(s.substr(0, x), w) ||
        !parse_step(s.substr(x + 1), h) || w < 16 || h < 16 || w > 8192 || h > 8192)
      throw UsageError("--size: expected WxH, each 16 to 8192 pixels, got '" + s + "'");
    options.width = int(w), options.height = int(h);
  }
  const int threads = int(args.integer("--threads", 0, 0, limits::kMaxThreads));
  const std::string prefix = args.text("-o", args.text("--out", default_prefix(input)));

  const bool from_recording = is_recording_file(input);
  const record::Recording rec = from_recording
                                    ? record::load_recording(input)
                                    : record_scene(input, steps, options.contacts, threads);
  if (options.contacts && !rec.has_contacts)
    throw UsageError("--contacts: " + input + " was recorded without --record-contacts");
  if (args.has("--view")) {
    const auto v = list_of<float>("--view", args.text("--view", ""), parse_float);
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

}  // namespace strut::cli
