// `strut run [SCENE] [--steps N] [--threads T] [--substeps S] [--no-contact-cache]
//            [--state-out FILE] [--profile-out FILE] [--events-out FILE] [--snapshot-out FILE]
//            [--record FILE [--record-every K] [--record-contacts] [--record-islands]]
//            [--quiet]`: runs a scene (or continues a snapshot) and reports where the time went.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>

#include "strut/limits.hpp"
#include "strut/scenes.hpp"
#include "tools/cli.hpp"
#include "tools/record/run_recording.hpp"
#include "tools/scene/json_text.hpp"

namespace strut::cli {
namespace {

using Clock = std::chrono::steady_clock;

// A one-line bar redrawn in place on stderr, at most ~10 times a second.
class ProgressBar {
 public:
  ProgressBar(bool enabled, int total) : enabled_(enabled && total > 0), total_(total) {}
  void update(int done) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (done < total_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const int width = 40, filled = int(std::int64_t(width) * done / total_);
    std::fprintf(stderr, "\r[%s%s] %3d%% %d/%d steps", std::string(filled, '#').c_str(),
                 std::string(width - filled, '.').c_str(), int(100LL * done / total_), done,
                 total_);
    std::fflush(stderr);
  }
  void finish() {
    if (enabled_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  bool enabled_;
  int total_;
  Clock::time_point last_{};
};

struct RunResult {
  int steps = 0;
  double wall_seconds = 0;
  std::uint64_t hash = 0;
};

// Every body's pose and velocity must still be finite; anything else is a solver failure.
void check_finite(const SceneInstance& inst) {
  for (std::size_t i = 0; i < inst.bodies.size(); ++i) {
    const BodyId id = inst.bodies[i];
    if (!inst.world.is_valid(id)) continue;
    const Transform t = inst.world.transform(id);
    if (!is_finite(t.position) || !std::isfinite(t.angle) ||
        !is_finite(inst.world.linear_velocity(id)) ||
        !std::isfinite(inst.world.angular_velocity(id))) {
      throw InternalError("body " + std::to_string(i) +
                          (inst.names[i].empty() ? "" : " ('" + inst.names[i] + "')") +
                          " has a non-finite state after " + std::to_string(inst.steps_done) +
                          " steps");
    }
  }
}

struct Phase {
  const char* label;
  const char* key;
  double StepProfile::*field;
};
constexpr Phase kPhases[] = {
    {"integrate", "integrate", &StepProfile::integrate},
    {"broad phase", "broad_phase", &StepProfile::broad_phase},
    {"narrow phase", "narrow_phase", &StepProfile::narrow_phase},
    {"islands", "islands", &StepProfile::islands},
    {"solve", "solve", &StepProfile::solve},
    {"velocity", "velocity", &StepProfile::velocity},
    {"sleep", "sleep", &StepProfile::sleep},
    {"total", "total", &StepProfile::total},
};

std::string threads_text(int threads) {
  if (threads != 0) return std::to_string(threads);
  return "all (" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + ")";
}

void print_report(const SceneInstance& inst, const std::string& name, int threads,
                  const RunResult& r) {
  const World& w = inst.world;
  const StepProfile& p = w.profile();
  std::printf("scene        %s: %zu bodies, %zu joints\n", name.c_str(), w.body_count(),
              w.joint_count());
  std::printf("run          %d steps of %.4g ms, %d substeps, threads %s\n", r.steps,
              inst.dt * 1000.0, w.config().substeps, threads_text(threads).c_str());
  std::printf("\n%-14s %10s %7s\n", "phase", "ms/step", "share");
  for (const Phase& ph : kPhases) {
    const double ms = p.*ph.field;
    const double share = p.total > 0 ? 100.0 * ms / p.total : 0.0;
    std::printf("%-14s %10.3f %6.1f%%\n", ph.label, ms, share);
  }
  const double rate = r.wall_seconds > 0 ? r.steps / r.wall_seconds : 0.0;
  std::printf("\nbodies %zu, contacts %zu (last step), %.1f steps/s (%.3f ms/step wall clock)\n",
              w.body_count(), w.contact_count(), rate,
              r.steps > 0 ? 1000.0 * r.wall_seconds / r.steps : 0.0);
  std::printf("hash: %s\n", json_text::hex64(r.hash).c_str());
}

std::string state_json(const SceneInstance& inst, const RunResult& r) {
  using namespace json_text;
  // Counted from the scene's start: a run resumed from a snapshot goes on counting.
  std::string out = "{\"steps\": " + std::to_string(inst.steps_done) + ", \"time\": ";
  append_number(out, double(inst.steps_done) * inst.dt);
  out += ", \"hash\": \"" + hex64(r.hash) + "\",\n \"bodies\": [";
  bool first = true;
  for (std::size_t i = 0; i < inst.bodies.size(); ++i) {
    const BodyId id = inst.bodies[i];
    if (!inst.world.is_valid(id)) continue;
    const Transform t = inst.world.transform(id);
    out += first ? "\n  {\"name\": " : ",\n  {\"name\": ";
    first = false;
    if (inst.names[i].empty())
      out += "null";
    else
      append_string(out, inst.names[i]);
    out += ", \"center\": ";
    append_vec2(out, t.position);
    out += ", \"angle\": ";
    append_number(out, t.angle);
    out += ", \"velocity\": ";
    append_vec2(out, inst.world.linear_velocity(id));
    out += ", \"angular_velocity\": ";
    append_number(out, inst.world.angular_velocity(id));
    out += inst.world.is_sleeping(id) ? ", \"sleeping\": true}" : ", \"sleeping\": false}";
  }
  out += first ? "],\n \"joints\": [" : "\n ],\n \"joints\": [";
  // Scene format version 2: each joint's measure (angle: revolute and wheel; translation:
  // prismatic and wheel) and its reaction on b over the last substep.
  first = true;
  for (std::size_t i = 0; i < inst.joints.size(); ++i) {
    const JointId id = inst.joints[i];
    if (!inst.world.is_valid(id)) continue;
    const JointReading r = inst.world.joint_reading(id);
    out += first ? "\n  {\"name\": " : ",\n  {\"name\": ";
    first = false;
    if (inst.joint_names[i].empty())
      out += "null";
    else
      append_string(out, inst.joint_names[i]);
    out += ", \"type\": ";
    append_string(out, joint_type_name(r.type));
    if (r.type == JointType::Revolute || r.type == JointType::Wheel)
      out += ", \"angle\": ", append_number(out, r.angle);
    if (r.type == JointType::Prismatic || r.type == JointType::Wheel)
      out += ", \"translation\": ", append_number(out, r.translation);
    out += ", \"force\": ";
    append_vec2(out, r.force);
    out += ", \"torque\": ";
    append_number(out, r.torque);
    out += "}";
  }
  out += first ? "]}\n" : "\n ]}\n";
  return out;
}

std::string profile_json(const SceneInstance& inst, const std::string& name, int threads,
                         const RunResult& r) {
  using namespace json_text;
  const World& w = inst.world;
  std::string out = "{\"scene\": ";
  append_string(out, name);
  out += ", \"steps\": " + std::to_string(r.steps) + ", \"threads\": " + std::to_string(threads) +
         ", \"substeps\": " + std::to_string(w.config().substeps) + ", \"dt\": ";
  append_number(out, inst.dt);
  out += ",\n \"bodies\": " + std::to_string(w.body_count()) +
         ", \"joints\": " + std::to_string(w.joint_count()) +
         ", \"contacts\": " + std::to_string(w.contact_count()) + ", \"wall_seconds\": ";
  append_number(out, r.wall_seconds);
  out += ", \"steps_per_second\": ";
  append_number(out, r.wall_seconds > 0 ? r.steps / r.wall_seconds : 0.0);
  out += ",\n \"ms_per_step\": {";
  for (const Phase& ph : kPhases) {
    out += &ph == kPhases ? "\"" : ", \"";
    out += ph.key;
    out += "\": ";
    append_number(out, w.profile().*ph.field);
  }
  out += "},\n \"hash\": \"" + hex64(r.hash) + "\"}\n";
  return out;
}

// --events-out: JSON Lines, one line for each step that had contact or sensor events (scene
// format version 2, "Output"):
//   {"step": 12, "begin": [["a", "b"]], "end": [], "sensor_begin": [["zone", 3]], "sensor_end": []}
// A body is its name, or its index in the instance's bodies (the scene's, then those its step
// hook created) when unnamed, or "tile_maps[k]" for the body of the scene's tile map k; null if
// the instance does not list it. Called after every step:
// the world keeps a step's events until the next step (SceneInstance::step reads them so that
// they never pile up), so every step's events are written whoever ran it.
class EventLog {
 public:
  explicit EventLog(OutputFile file) : file_(std::move(file)) {}

  void after_step(const SceneInstance& inst, int step) {
    const World& w = inst.world;
    const auto begin = w.contact_begin_events(), end = w.contact_end_events();
    const auto sensor_begin = w.sensor_begin_events(), sensor_end = w.sensor_end_events();
    if (begin.empty() && end.empty() && sensor_begin.empty() && sensor_end.empty()) return;
    line_ = "{\"step\": " + std::to_string(step);
    auto contacts = [&](const char* key, std::span<const ContactEvent> events) {
      append_pairs(inst, key, events, [](const ContactEvent& e) { return std::pair{e.a, e.b}; });
    };
    auto sensors = [&](const char* key, std::span<const SensorEvent> events) {
      append_pairs(inst, key, events, [](const SensorEvent& e) {
        return std::pair{e.sensor_body, e.visitor_body};  // the sensor first
      });
    };
    contacts("begin", begin);
    contacts("end", end);
    sensors("sensor_begin", sensor_begin);
    sensors("sensor_end", sensor_end);
    line_ += "}\n";
    file_.append(line_);
  }
  // Closes the file, so that a failure to write its last buffered lines is an error too.
  void finish() { file_.write(""); }

 private:
  template <class Event, class Bodies>
  void append_pairs(const SceneInstance& inst, const char* key, std::span<const Event> events,
                    Bodies bodies) {
    line_ += ", \"";
    line_ += key;
    line_ += "\": [";
    for (std::size_t i = 0; i < events.size(); ++i) {
      const auto [a, b] = bodies(events[i]);
      line_ += i ? ", [" : "[";
      append_body(inst, a);
      line_ += ", ";
      append_body(inst, b);
      line_ += "]";
    }
    line_ += "]";
  }

  void append_body(const SceneInstance& inst, BodyId id) {
    const std::optional<std::size_t> i = index_of(inst, id);
    if (!i) {
      // A tile map's body is not among the scene's bodies: it is named by its map.
      for (std::size_t m = 0; m < inst.tile_map_parts.size(); ++m) {
        if (inst.tile_map_parts[m].body == id) {
          json_text::append_string(line_, "tile_maps[" + std::to_string(m) + "]");
          return;
        }
      }
      line_ += "null";
    } else if (inst.names[*i].empty()) {
      line_ += std::to_string(*i);
    } else {
      json_text::append_string(line_, inst.names[*i]);
    }
  }

  // The body's index in inst.bodies. The map is rebuilt when it is out of date: a step hook
  // that creates or forgets bodies shifts or extends the list.
  std::optional<std::size_t> index_of(const SceneInstance& inst, BodyId id) {
    auto lookup = [&]() -> std::optional<std::size_t> {
      const auto it = index_.find(id);
      if (it == index_.end() || it->second >= inst.bodies.size() ||
          !(inst.bodies[it->second] == id))
        return std::nullopt;
      return it->second;
    };
    if (const auto i = lookup()) return i;
    index_.clear();
    for (std::size_t k = 0; k < inst.bodies.size(); ++k) index_.emplace(inst.bodies[k], k);
    return lookup();
  }

  OutputFile file_;
  std::unordered_map<BodyId, std::size_t> index_;
  std::string line_;
};

// The options of `strut run`, as parsed.
struct RunOptions {
  std::string scene{kDefaultSceneName};
  int threads = 0, substeps = 0, steps = -1, record_every = 1;
  bool quiet = false, no_contact_cache = false, record_contacts = false, record_islands = false;
  std::string state_out, profile_out, events_out, snapshot_out, record;
};

int run(const RunOptions& o, const CLI::App& command) {
  const std::vector<std::string> surplus = surplus_arguments(command);
  if (!surplus.empty())
    throw UsageError("run: expected at most one SCENE, got '" + surplus[0] + "'");
  const std::string& name = o.scene;
  const auto given = [&](const char* option) { return command.count(option) > 0; };
  for (const char* option : {"--record-every", "--record-contacts", "--record-islands"})
    if (given(option) && !given("--record"))
      throw UsageError(std::string("run: ") + option + " needs --record FILE");
  // Open outputs first: a bad path should not cost a long run.
  OutputFile state_out, profile_out, snapshot_out;
  if (given("--state-out")) state_out = OutputFile("--state-out", o.state_out);
  if (given("--snapshot-out")) snapshot_out = OutputFile("--snapshot-out", o.snapshot_out);
  if (given("--profile-out")) profile_out = OutputFile("--profile-out", o.profile_out);
  std::optional<EventLog> events;
  if (given("--events-out")) events.emplace(OutputFile("--events-out", o.events_out));

  // A snapshot continues with its own settings: the contact cache is part of its state, and
  // --substeps changes the world's from the next step on.
  const bool resumed = is_snapshot_file(name);
  if (resumed && o.no_contact_cache)
    throw UsageError("run: --no-contact-cache applies to scenes, not to the snapshot '" + name +
                     "'");
  SceneInstance inst = load_instance(name, o.threads, [&](Scene& scene) {
    if (given("--substeps")) scene.config.substeps = o.substeps;
    if (o.no_contact_cache) scene.config.contact_cache = false;
  });
  if (resumed && given("--substeps")) inst.world.set_substeps(o.substeps);
  // Without --steps, a scene runs its default length and a snapshot the rest of it.
  const int steps = o.steps >= 0 ? o.steps : std::max(0, inst.steps - inst.steps_done);
  inst.world.reset_profile();
  std::optional<RunRecording> recording;
  if (given("--record"))
    recording.emplace(o.record, name, inst, o.record_every, o.record_contacts, o.record_islands);

  ProgressBar bar(!o.quiet && isatty(STDERR_FILENO), steps);
  RunResult r;
  r.steps = steps;
  const auto start = Clock::now();
  for (int k = 0; k < steps; ++k) {
    inst.step();
    if (events) events->after_step(inst, k + 1);
    if (recording) recording->after_step(inst, k + 1, k + 1 == steps);
    bar.update(k + 1);
  }
  if (recording && steps == 0) recording->after_step(inst, 0, true);
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  // The steps' own time, without the recording's (which is reported apart).
  if (recording) r.wall_seconds -= recording->seconds();
  bar.finish();
  check_finite(inst);
  r.hash = inst.world.state_hash();

  if (o.quiet)
    std::printf("hash: %s\n", json_text::hex64(r.hash).c_str());
  else
    print_report(inst, name, o.threads, r);
  if (recording && !o.quiet)
    std::printf(
        "recording    %d frames, %zu bytes, %.3f ms of CPU time per frame to capture and write\n",
        recording->frames(), recording->bytes(),
        1000.0 * recording->cpu_seconds() / recording->frames());
  std::fflush(stdout);
  if (state_out) state_out.write(state_json(inst, r));
  if (snapshot_out) {
    const std::vector<std::uint8_t> bytes = save_scene_snapshot(inst);
    snapshot_out.append(
        std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }
  if (profile_out) profile_out.write(profile_json(inst, name, o.threads, r));
  if (events) events->finish();
  return 0;
}

}  // namespace

Command add_run_command(CLI::App& strut) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* command = strut.add_subcommand(
      "run", "Runs a scene (or continues a snapshot) and reports where the time went.");
  command
      ->add_option("SCENE", o->scene,
                   "a scene file (JSON), a snapshot file (--snapshot-out) or the name of a "
                   "built-in scene; default large_pyramid")
      ->type_name("");
  // Checked in this order: a bad --threads is reported before a bad --steps.
  add_whole_number(*command, "--threads", o->threads, 0, limits::kMaxThreads, "T",
                   "worker threads; 0 (the default) uses all cores. Every count gives the same "
                   "results");
  add_whole_number(*command, "--substeps", o->substeps, 1, 1000, "S",
                   "substeps per step, instead of the scene's");
  add_whole_number(*command, "--steps", o->steps, 0, 1000000000, "N",
                   "steps to run; default the scene's length (a snapshot: the rest of it)");
  command->add_flag("--no-contact-cache", o->no_contact_cache,
                    "every pair collides afresh every step (the scene's world.contact_cache)");
  command->add_option("--state-out", o->state_out, "writes the final state (JSON)")
      ->type_name("FILE");
  command->add_option("--profile-out", o->profile_out, "writes the timings (JSON)")
      ->type_name("FILE");
  command
      ->add_option("--events-out", o->events_out,
                   "writes each step's contact and sensor events (JSON Lines)")
      ->type_name("FILE");
  command
      ->add_option("--snapshot-out", o->snapshot_out,
                   "writes the world after the run; such a file runs on exactly where it was, "
                   "wherever a scene is accepted")
      ->type_name("FILE");
  command
      ->add_option("--record", o->record,
                   "writes a recording (docs/recording_format.md) for strut view and strut "
                   "render")
      ->type_name("FILE");
  add_whole_number(*command, "--record-every", o->record_every, 1, 1000000000, "K",
                   "records every K-th step (and the last); default 1");
  command->add_flag("--record-contacts", o->record_contacts,
                    "records contact points and normals too");
  command->add_flag("--record-islands", o->record_islands, "records each body's island too");
  command->add_flag("--quiet", o->quiet, "prints the hash only, and no progress bar");
  return [o, command] { return run(*o, *command); };
}

}  // namespace strut::cli
