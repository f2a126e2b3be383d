// Scene -> World (build_scene) and World -> Scene (capture_scene), the two directions of saving
// and loading a simulation.
#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "strut/scene.hpp"

namespace strut {
namespace {

std::uint64_t key_of(BodyId id) { return (std::uint64_t(id.index) << 32) | id.generation; }

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
    for (auto [name, slot, key] : {std::tuple{&j.a, &def.a, "a"}, std::tuple{&j.b, &def.b, "b"}}) {
      const auto it = by_name.find(*name);
      if (it == by_name.end())
        throw SceneError(scene.source, path + "." + key, "unknown body \"" + *name + "\"");
      *slot = it->second;
    }
    try {
      inst.create_joint(def);
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

JointId SceneInstance::create_joint(const JointDef& def) {
  const JointId id = world.create_joint(def);
  const Transform ta = world.transform(def.a), tb = world.transform(def.b);
  JointFrame f;
  f.local_a = inv_rotate(make_rot(ta.angle), def.anchor_a - ta.position);
  f.local_b =
      inv_rotate(make_rot(tb.angle),
                 (def.type == JointType::Distance ? def.anchor_b : def.anchor_a) - tb.position);
  if (def.type == JointType::Distance && def.length < 0 && def.max_length < 0)
    f.length = length(def.anchor_b - def.anchor_a);
  joints.push_back(id);
  joint_frames.push_back(f);
  return id;
}

void SceneInstance::step() {
  if (hook) hook(*this, steps_done);
  world.step(dt);
  // Only the last step's contact events are kept (read them before the next step): a runner
  // that never reads them must not let them pile up.
  world.contact_begin_events();
  ++steps_done;
}

void SceneInstance::forget_destroyed() {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (!world.is_valid(bodies[i])) continue;
    bodies[kept] = bodies[i];
    names[kept] = std::move(names[i]);
    ++kept;
  }
  bodies.resize(kept);
  names.resize(kept);
  kept = 0;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    if (!world.is_valid(joints[i])) continue;
    joints[kept] = joints[i];
    joint_frames[kept] = joint_frames[i];
    ++kept;
  }
  joints.resize(kept);
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
    SceneJoint j;
    j.def = inst.world.definition(id);
    // Anchors where the bodies are now, and the rest length the joint was given (a reloaded
    // joint must not take its current, stretched length as its rest length).
    const SceneInstance::JointFrame& f = inst.joint_frames[i];
    const Transform ta = inst.world.transform(j.def.a), tb = inst.world.transform(j.def.b);
    j.def.anchor_a = ta.position + rotate(make_rot(ta.angle), f.local_a);
    j.def.anchor_b = j.def.type == JointType::Distance
                         ? tb.position + rotate(make_rot(tb.angle), f.local_b)
                         : j.def.anchor_a;
    if (f.length >= 0) j.def.length = f.length;
    j.a = name_of(j.def.a);
    j.b = name_of(j.def.b);
    j.def.a = j.def.b = BodyId{};
    s.joints.push_back(std::move(j));
  }
  return s;
}

}  // namespace strut
