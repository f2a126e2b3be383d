// Scene -> World (build_scene) and World -> Scene (capture_scene), the two directions of saving
// and loading a simulation.
#include <algorithm>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "strut/scene.hpp"

namespace strut {
namespace {

std::uint64_t key_of(BodyId id) { return (std::uint64_t(id.index) << 32) | id.generation; }

// A joint as a definition that recreates it where its bodies are now: anchors and axes moved
// with the bodies, a distance joint's rest length kept (a reloaded joint must not take its
// current, stretched length as its rest length), limits shifted so that they stay where they
// are relative to the bodies (a reloaded joint measures from the pose at load). What cannot
// move with them: a spring's rest angle or translation (0 at load) and a motor joint's target.
SceneJoint capture_joint(const SceneInstance& inst, std::size_t i) {
  const World& world = inst.world;
  const JointId id = inst.joints[i];
  const SceneInstance::JointFrame& f = inst.joint_frames[i];
  SceneJoint j;
  j.name = inst.joint_names[i];
  j.def = world.definition(id);
  const JointReading now = world.joint_reading(id);
  const auto [body_a, body_b] = joint_bodies(j.def);
  const Transform ta = world.transform(body_a), tb = world.transform(body_b);
  const Vec2 anchor_a = ta.position + rotate(make_rot(ta.angle), f.local_a);
  const Vec2 anchor_b = tb.position + rotate(make_rot(tb.angle), f.local_b);
  auto shift = [](JointLimit& limit, float by) {
    limit.lower = std::min(limit.lower - by, 0.0f);
    limit.upper = std::max(limit.upper - by, 0.0f);
  };
  std::visit(
      [&](auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, DistanceJointDef>) {
          d.anchor_a = anchor_a, d.anchor_b = anchor_b;
          if (f.length >= 0) d.length = f.length;
        } else if constexpr (std::is_same_v<D, MouseJointDef>) {
          if (d.anchor) d.anchor = anchor_b;
        } else if constexpr (requires { d.anchor; }) {
          d.anchor = anchor_a;
          if constexpr (requires { d.axis; }) {
            d.axis = rotate(make_rot(ta.angle), f.axis_a);
            shift(d.limit, now.translation);
          } else if constexpr (requires { d.limit; }) {
            shift(d.limit, now.angle);
          }
          if constexpr (requires { d.reference_angle; }) d.reference_angle.reset();
        }
      },
      j.def);
  return j;
}

}  // namespace

SceneInstance build_scene(const Scene& scene, int threads) {
  WorldConfig config = scene.config;
  config.threads = threads;
  SceneInstance inst(World{config});
  inst.source = scene.source;
  inst.description = scene.description;
  inst.dt = scene.dt;
  inst.steps = scene.steps;
  inst.materials = scene.materials;
  for (std::size_t i = 0; i < scene.tile_maps.size(); ++i) {
    try {
      inst.tile_map_parts.push_back(inst.world.create_tile_map(scene.tile_maps[i]));
    } catch (const Error& e) {
      throw SceneError(scene.source, "tile_maps[" + std::to_string(i) + "]", e.what());
    }
    inst.tile_maps.push_back(scene.tile_maps[i]);
  }
  inst.bodies.reserve(scene.bodies.size());
  inst.names.reserve(scene.bodies.size());
  std::unordered_map<std::string, BodyId> by_name;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const SceneBody& b = scene.bodies[i];
    BodyId id;
    try {
      id = inst.create_body(b.def, b.name);
    } catch (const Error& e) {
      // The loader checks everything the world checks; this is the safety net for scenes
      // made in code and for checks the loader does not know yet.
      throw SceneError(scene.source, "bodies[" + std::to_string(i) + "]", e.what());
    }
    if (!b.name.empty()) by_name.emplace(b.name, id);
  }
  inst.joints.reserve(scene.joints.size());
  inst.joint_frames.reserve(scene.joints.size());
  for (std::size_t i = 0; i < scene.joints.size(); ++i) {
    const SceneJoint& j = scene.joints[i];
    const std::string path = "joints[" + std::to_string(i) + "]";
    JointDef def = j.def;
    const bool mouse = type_of(def) == JointType::Mouse;
    auto find = [&](const std::string& name, const char* key) {
      const auto it = by_name.find(name);
      if (it == by_name.end())
        throw SceneError(scene.source, path + "." + key, "unknown body \"" + name + "\"");
      return it->second;
    };
    const BodyId b = find(j.b, "b");
    set_joint_bodies(def, mouse ? b : find(j.a, "a"), b);
    try {
      inst.create_joint(def, j.name);
    } catch (const Error& e) {
      throw SceneError(scene.source, path, e.what());
    }
  }
  if (scene.make_step_hook) inst.hook = scene.make_step_hook();
  return inst;
}

BodyId SceneInstance::create_body(const BodyDef& def, std::string name) {
  const BodyId id = world.create_body(def);
  bodies.push_back(id);
  names.push_back(std::move(name));
  return id;
}

JointId SceneInstance::create_joint(const JointDef& def, std::string name) {
  const JointId id = world.create_joint(def);
  const auto [body_a, body_b] = joint_bodies(def);
  const Transform ta = world.transform(body_a), tb = world.transform(body_b);
  auto local = [](const Transform& t, Vec2 p) {
    return inv_rotate(make_rot(t.angle), p - t.position);
  };
  JointFrame f;
  std::visit(
      [&](const auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, DistanceJointDef>) {
          f.local_a = local(ta, d.anchor_a), f.local_b = local(tb, d.anchor_b);
          if (d.length < 0 && d.max_length < 0) f.length = length(d.anchor_b - d.anchor_a);
        } else if constexpr (std::is_same_v<D, MouseJointDef>) {
          f.local_b = d.anchor ? local(tb, *d.anchor) : Vec2{};
        } else if constexpr (requires { d.anchor; }) {
          f.local_a = local(ta, d.anchor), f.local_b = local(tb, d.anchor);
          if constexpr (requires { d.axis; }) f.axis_a = inv_rotate(make_rot(ta.angle), d.axis);
        }
      },
      def);
  joints.push_back(id);
  joint_names.push_back(std::move(name));
  joint_frames.push_back(f);
  return id;
}

void SceneInstance::step() {
  if (hook) hook(*this, steps_done);
  world.step(dt);
  // Only the last step's contact and sensor events are kept (read them before the next step):
  // a runner that never reads them must not let them pile up.
  world.contact_begin_events();
  world.sensor_begin_events();
  ++steps_done;
}

namespace {

// Everything of an instance but its world.
void copy_lists(SceneInstance& to, const SceneInstance& from) {
  to.source = from.source, to.description = from.description, to.dt = from.dt;
  to.steps = from.steps, to.steps_done = from.steps_done, to.bodies = from.bodies;
  to.names = from.names, to.joints = from.joints, to.materials = from.materials;
  to.tile_maps = from.tile_maps, to.tile_map_parts = from.tile_map_parts, to.hook = from.hook;
  to.joint_names = from.joint_names, to.joint_frames = from.joint_frames;
}

}  // namespace

SceneInstance SceneInstance::copy() const {
  SceneInstance c(world.copy());
  copy_lists(c, *this);
  return c;
}

void SceneInstance::restore(const SceneInstance& state) {
  if (&state == this) return;
  world.restore(state.world);
  copy_lists(*this, state);
}

void SceneInstance::forget_destroyed() {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (!world.is_valid(bodies[i])) continue;
    bodies[kept] = bodies[i];
    if (kept != i) names[kept] = std::move(names[i]);  // moved onto itself, a string may empty
    ++kept;
  }
  bodies.resize(kept);
  names.resize(kept);
  kept = 0;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    if (!world.is_valid(joints[i])) continue;
    joints[kept] = joints[i];
    if (kept != i) joint_names[kept] = std::move(joint_names[i]);
    joint_frames[kept] = joint_frames[i];
    ++kept;
  }
  joints.resize(kept);
  joint_names.resize(kept);
  joint_frames.resize(kept);
}

Scene capture_scene(const SceneInstance& inst) {
  Scene s;
  s.source = inst.source;
  s.description = inst.description;
  s.config = inst.world.config();
  s.config.threads = 0;
  s.dt = inst.dt;
  s.steps = inst.steps;
  s.materials = inst.materials;
  s.tile_maps = inst.tile_maps;
  std::unordered_map<std::uint64_t, std::size_t> index_of;  // body id -> index in s.bodies
  std::unordered_set<std::string> taken;
  for (std::size_t i = 0; i < inst.bodies.size(); ++i) {
    if (!inst.world.is_valid(inst.bodies[i])) continue;
    index_of.emplace(key_of(inst.bodies[i]), s.bodies.size());
    s.bodies.push_back({inst.names[i], inst.world.definition(inst.bodies[i])});
    if (!inst.names[i].empty()) taken.insert(inst.names[i]);
  }
  auto name_of = [&](BodyId id) -> std::string {
    const auto it = index_of.find(key_of(id));
    if (it == index_of.end())
      throw Error("capture_scene: a joint names a body the scene instance does not list");
    std::string& name = s.bodies[it->second].name;
    if (name.empty()) {
      // Joints refer to bodies by name: give the unnamed ones a free name of their index.
      name = "body" + std::to_string(it->second);
      while (taken.count(name)) name += "_";
      taken.insert(name);
    }
    return name;
  };
  for (std::size_t i = 0; i < inst.joints.size(); ++i) {
    const JointId id = inst.joints[i];
    if (!inst.world.is_valid(id)) continue;
    s.joints.push_back(capture_joint(inst, i));
    SceneJoint& j = s.joints.back();
    const auto [body_a, body_b] = joint_bodies(j.def);
    if (type_of(j.def) != JointType::Mouse) j.a = name_of(body_a);
    j.b = name_of(body_b);
    set_joint_bodies(j.def, BodyId{}, BodyId{});
  }
  return s;
}

}  // namespace strut
