// Scenes: a world described as data. A Scene is loaded from (or saved to) the JSON scene format
// of docs/scene_format.md, or made in code (include/strut/scenes.hpp), and built into a World.
// Loading validates the whole file before anything is created, so a bad file is rejected whole.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strut/body.hpp"
#include "strut/error.hpp"
#include "strut/ids.hpp"
#include "strut/material.hpp"
#include "strut/tile_map.hpp"
#include "strut/world.hpp"

namespace strut {

// A scene that cannot be loaded or built. what() is one line, "<file>: <json.path>: <problem>",
// e.g. "pile.json: bodies[3].vertices: polygon is not convex at vertex 2".
class SceneError : public Error {
 public:
  SceneError(std::string file, std::string path, std::string problem);
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }  // "(root)" for the document itself
  const std::string& problem() const { return problem_; }

 private:
  std::string file_, path_, problem_;
};

struct SceneBody {
  std::string name;  // empty = unnamed
  BodyDef def;
};

struct SceneJoint {
  std::string name;  // empty = unnamed
  std::string a, b;  // body names (a mouse joint: only b); the ids in def are set by build_scene
  JointDef def;
};

struct SceneInstance;
// Called before each step with the index of the step about to run (0-based): scenes made in
// code use it to create and destroy bodies as they go (rain, particles). Stateful, so a Scene
// holds a factory and every built instance gets a fresh hook. Copied, a hook copies its state.
// A hook made from a function cannot be saved in a scene snapshot; one made from a Resumable
// (the built-in scenes' hooks) can, and save_scene_snapshot stores its name and state.
class StepHook {
 public:
  using Function = std::function<void(SceneInstance& io_scene, int step)>;
  class Resumable {
   public:
    virtual ~Resumable() = default;
    virtual void operator()(SceneInstance& io_scene, int step) = 0;
    virtual std::unique_ptr<Resumable> clone() const = 0;
    virtual std::string name() const = 0;                 // the built-in hook it is
    virtual std::vector<std::uint8_t> state() const = 0;  // everything it remembers
  };
  StepHook() = default;
  StepHook(Function function) : function_(std::move(function)) {}
  StepHook(std::unique_ptr<Resumable> hook) : resumable_(std::move(hook)) {}
  StepHook(const StepHook& other)
      : function_(other.function_),
        resumable_(other.resumable_ ? other.resumable_->clone() : nullptr) {}
  StepHook& operator=(const StepHook& other) {
    if (this != &other) *this = StepHook(other);
    return *this;
  }
  StepHook(StepHook&&) noexcept = default;
  StepHook& operator=(StepHook&&) noexcept = default;

  void operator()(SceneInstance& io_scene, int step) {
    if (resumable_)
      (*resumable_)(io_scene, step);
    else if (function_)
      function_(io_scene, step);
  }
  explicit operator bool() const { return resumable_ || function_; }
  const Resumable* resumable() const { return resumable_.get(); }

 private:
  Function function_;
  std::unique_ptr<Resumable> resumable_;
};

struct Scene {
  std::string source;       // file name or built-in name, used in error messages
  std::string description;  // free text: what the scene shows, any substitutions made
  WorldConfig config;       // config.threads is ignored: build_scene chooses the threads
  float dt = 1.0f / 60.0f;
  int steps = 600;                                          // default length of a run
  std::vector<std::pair<std::string, Material>> materials;  // extra named materials
  std::vector<TileMapDef> tile_maps;  // built before the bodies (version 2, `tile_maps`)
  std::vector<SceneBody> bodies;
  std::vector<SceneJoint> joints;
  std::function<StepHook()> make_step_hook;  // empty for scenes loaded from files
};

// Parses and validates a scene file's text. Throws SceneError naming `file_label`.
Scene parse_scene(std::string_view json, std::string_view file_label);
// Reads and parses a file; the error messages name the file by its path as given.
Scene load_scene_file(const std::string& path);
// The scene as a JSON document parse_scene reads back to equal values (floats are written with
// the shortest decimal that round-trips). The step hook is not saved.
std::string scene_to_json(const Scene& scene);
// Writes scene_to_json to a file; throws SceneError if it cannot be written.
void save_scene_file(const Scene& scene, const std::string& path);

// A built scene: the world plus the scene's bodies and joints in scene order. Bodies created by
// the step hook are appended; destroyed ones are removed.
struct SceneInstance {
  explicit SceneInstance(World w) : world(std::move(w)) {}

  World world;
  std::string source, description;  // copied from the scene
  float dt = 1.0f / 60.0f;
  int steps = 600;  // the scene's default run length
  int steps_done = 0;
  std::vector<BodyId> bodies;
  std::vector<std::string> names;  // parallel to `bodies`, empty = unnamed
  std::vector<JointId> joints;
  std::vector<std::pair<std::string, Material>> materials;  // the scene's, for capture_scene
  // The scene's tile maps (capture_scene saves them as they were: their bodies are static and
  // not listed in `bodies`) and what the world made of each.
  std::vector<TileMapDef> tile_maps;
  std::vector<TileMap> tile_map_parts;
  StepHook hook;

  // Creates a body or joint and lists it; step hooks create through these so that
  // capture_scene sees everything.
  BodyId create_body(const BodyDef& def, std::string name = {});
  JointId create_joint(const JointDef& def, std::string name = {});
  // Runs the hook (if any) and then one world step of `dt`.
  void step();
  // Drops destroyed bodies and joints from the lists.
  void forget_destroyed();
  // A copy (World::copy, the lists, the hook and its state) that continues as this one does; and
  // this instance made a copy of `state`, reusing its world's memory (World::restore).
  SceneInstance copy() const;
  void restore(const SceneInstance& state);

  std::vector<std::string> joint_names;  // parallel to `joints`, empty = unnamed

  // Where each joint's anchors sit on its bodies (body frame), its axis in a's frame and its
  // resolved rest length, parallel to `joints`: World::definition(JointId) returns the anchors
  // as they were at creation, and capture_scene needs them where the bodies are now.
  struct JointFrame {
    Vec2 local_a, local_b, axis_a;
    float length = -1.0f;
  };
  std::vector<JointFrame> joint_frames;
};

// Creates the world (threads: 0 = all cores) and everything in the scene. Throws SceneError if
// the world rejects a body or joint the loader let through.
SceneInstance build_scene(const Scene& scene, int threads);
// The instance's current state as a scene (for saving): bodies in scene order with their current
// pose and velocity, joints, the world settings. Unnamed bodies that a joint needs get a name.
Scene capture_scene(const SceneInstance& scene);

// Scene snapshots: the world's snapshot (World::snapshot) followed by the instance's lists (body
// and joint order and names, materials, tile maps, steps done, dt) and its step hook's state, so
// that load_scene_snapshot continues exactly where the instance was (`strut run S --steps N
// --snapshot-out F` then `strut run F --steps M` ends as `run S --steps N+M`). Throws SceneError
// when the step hook cannot be saved (a hook made from a function).
std::vector<std::uint8_t> save_scene_snapshot(const SceneInstance& scene);
// Whether the bytes start as a snapshot does (the world's or a scene's).
bool is_snapshot(std::span<const std::uint8_t> bytes);
// A scene snapshot, or a bare World::snapshot (its bodies then in creation order, unnamed), on
// `threads` threads. Throws SceneError "<file_label>: bytes A-B: <field>: <problem>" for a
// damaged, truncated or foreign snapshot.
SceneInstance load_scene_snapshot(std::span<const std::uint8_t> bytes, std::string_view file_label,
                                  int threads);

}  // namespace strut
