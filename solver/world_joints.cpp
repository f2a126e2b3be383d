// The joint part of the World API: creation through each type's validate and init
// (solver/joints/), destruction, reading back, and the run-time setters.
#include <cmath>
#include <string>
#include <utility>

#include "solver/bodies/body_storage.hpp"
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_solver.hpp"
#include "solver/world_state.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

bool collide_of(const JointDef& def) {
  return std::visit(
      [](const auto& d) {
        if constexpr (requires { d.collide; })
          return d.collide;
        else
          return true;  // a mouse joint has one body: no pair to filter
      },
      def);
}

std::string joint_text(JointId id) {
  return "joint " + std::to_string(id.index) + "/" + std::to_string(id.generation);
}

BodyId body_id(const WorldState& w, std::uint32_t slot) {
  return w.bodies.slots.id_of<BodyId>(slot);
}

}  // namespace

JointId World::create_joint(const JointDef& def) {
  auto& w = *state_;
  const JointType type = type_of(def);
  const bool mouse = type == JointType::Mouse;
  const auto [id_a, id_b] = joint_bodies(def);
  const std::uint32_t a = w.dense_of(id_a, mouse ? "create_joint: body" : "create_joint: a");
  const std::uint32_t b = w.dense_of(id_b, mouse ? "create_joint: body" : "create_joint: b");
  if (!mouse && a == b) throw Error("create_joint: a and b are the same body");
  const auto& bd = w.bodies;
  const bool both_fixed = bd.inv_mass[a] == 0 && bd.inv_mass[b] == 0 && bd.inv_inertia[a] == 0 &&
                          bd.inv_inertia[b] == 0;
  if (both_fixed)
    throw Error(mouse ? "create_joint: body is static or kinematic"
                      : "create_joint: both bodies are static or kinematic");
  const JointOps& ops = joint_ops(type);
  try {
    std::visit(
        [](const auto& d) {
          check_threshold(d.force_threshold, "force_threshold");
          check_threshold(d.torque_threshold, "torque_threshold");
        },
        def);
    ops.validate(w, def, a, b);
  } catch (const Error& e) {
    throw Error(std::string("create_joint: ") + e.what());
  }

  Joint j;
  j.type = type;
  j.slot_a = id_a.index - 1;
  j.slot_b = id_b.index - 1;
  j.collide = collide_of(def);
  j.def = def;
  ops.init(w, j, a, b);
  const std::uint32_t slot = w.joints.slots.allocate();
  j.slot = slot;
  w.joints.slots[slot].dense = static_cast<std::uint32_t>(w.joints.dense.size());
  w.joints.dense.push_back(std::move(j));
  const Joint& added = w.joints.dense.back();
  for (const std::uint32_t body : {added.slot_a, added.slot_b}) {
    if (body >= w.joints.of_body.size()) w.joints.of_body.resize(body + 1);
    auto& list = w.joints.of_body[body];
    if (list.empty() || list.back() != slot) list.push_back(slot);  // a mouse: once
  }
  w.pairs.ignored_dirty = true;
  w.joints.mark_changed();
  if (has_event_threshold(def)) ++w.joints.threshold_count;
  return w.joints.slots.id_of<JointId>(slot);
}

void World::destroy_joint(JointId id) {
  auto& w = *state_;
  kill_joint(w, w.joints.dense[w.joint_dense_of(id, "destroy_joint")]);
}

bool World::is_valid(JointId id) const { return state_->joints.slots.is_live(id); }

std::size_t World::joint_count() const { return state_->joints.slots.live_count(); }

JointType World::joint_type(JointId id) const {
  const auto& w = *state_;
  return w.joints.dense[w.joint_dense_of(id, "joint_type")].type;
}

JointDef World::definition(JointId id) const {
  const auto& w = *state_;
  return w.joints.dense[w.joint_dense_of(id, "definition")].def;
}

float World::joint_length(JointId id) const {
  const auto& w = *state_;
  const Joint& j = w.joints.dense[w.joint_dense_of(id, "joint_length")];
  const PointRef a = anchor_ref(w, w.bodies.slots[j.slot_a].dense, j.anchor_a);
  const PointRef b = anchor_ref(w, w.bodies.slots[j.slot_b].dense, j.anchor_b);
  return length(point_now(w, b) - point_now(w, a));
}

JointReading World::joint_reading(JointId id) const {
  const auto& w = *state_;
  return read_joint(w, w.joints.dense[w.joint_dense_of(id, "joint_reading")]);
}

namespace {

// Applies `change` to the definition of a joint that has the feature, after checking the new
// value; wakes the bodies. `feature` names it in the error for types without it.
template <class Change>
void change_joint(World& world, WorldState& w, JointId id, const char* call, const char* feature,
                  Change change) {
  Joint& j = w.joints.dense[w.joint_dense_of(id, call)];
  bool has = false;
  try {
    std::visit([&](auto& d) { has = change(d); }, j.def);
  } catch (const Error& e) {
    throw Error(std::string(call) + ": " + e.what());
  }
  if (!has)
    throw Error(std::string(call) + ": " + joint_text(id) + " is a " + joint_type_name(j.type) +
                " joint, which has no " + feature);
  w.joints.mark_changed();
  world.wake(body_id(w, j.slot_a));
  world.wake(body_id(w, j.slot_b));
}

}  // namespace

void World::set_joint_enabled(JointId id, bool enabled) {
  auto& w = *state_;
  Joint& j = w.joints.dense[w.joint_dense_of(id, "set_joint_enabled")];
  j.enabled = enabled;
  w.joints.mark_changed();
  if (!enabled) j.reaction_force = {}, j.reaction_torque = 0, j.motor_impulse = 0;
  wake(body_id(w, j.slot_a));
  wake(body_id(w, j.slot_b));
}

void World::set_joint_limit(JointId id, const JointLimit& limit) {
  change_joint(*this, *state_, id, "set_joint_limit", "limit", [&](auto& d) {
    if constexpr (requires { d.limit; }) {
      check_limit(limit, kLimitMeasure<std::decay_t<decltype(d)>>);
      d.limit = limit;
      return true;
    }
    return false;
  });
}

void World::set_joint_motor(JointId id, const JointMotor& motor) {
  change_joint(*this, *state_, id, "set_joint_motor", "motor", [&](auto& d) {
    if constexpr (requires { d.motor; }) {
      check_motor(motor, kMotorMeasure<std::decay_t<decltype(d)>>);
      d.motor = motor;
      return true;
    }
    return false;
  });
}

void check_motor_speed(const WorldState& w, JointId id, float speed, const char* call) {
  const Joint& j = w.joints.dense[w.joint_dense_of(id, call)];
  bool has = false;
  try {
    std::visit(
        [&](const auto& d) {
          if constexpr (requires { d.motor; }) {
            JointMotor motor = d.motor;
            motor.speed = speed;
            check_motor(motor, kMotorMeasure<std::decay_t<decltype(d)>>);
            has = true;
          }
        },
        j.def);
  } catch (const Error& e) {
    throw Error(std::string(call) + ": " + e.what());
  }
  if (!has)
    throw Error(std::string(call) + ": " + joint_text(id) + " is a " + joint_type_name(j.type) +
                " joint, which has no motor");
}

void World::set_joint_motor_speed(JointId id, float speed) {
  check_motor_speed(*state_, id, speed, "set_joint_motor_speed");
  change_joint(*this, *state_, id, "set_joint_motor_speed", "motor", [&](auto& d) {
    if constexpr (requires { d.motor; }) {
      d.motor.speed = speed;
      return true;
    }
    return false;
  });
}

void World::set_joint_spring(JointId id, const JointSpring& spring) {
  change_joint(*this, *state_, id, "set_joint_spring", "spring", [&](auto& d) {
    if constexpr (requires { d.spring; }) {
      check_spring(spring);
      d.spring = spring;
      return true;
    }
    return false;
  });
}

void World::set_mouse_target(JointId id, Vec2 target) {
  auto& w = *state_;
  change_joint(*this, w, id, "set_mouse_target", "target", [&](auto& d) {
    if constexpr (requires { d.target; }) {
      check_finite_field(target, "target");
      d.target = target;
      return true;
    }
    return false;
  });
  w.joints.dense[w.joint_dense_of(id, "set_mouse_target")].target = target;
}

namespace {

// Sets one of a joint's event thresholds (every type has both), keeping threshold_joints.
template <class Field>
void set_threshold(WorldState& w, JointId id, float threshold, const char* call, const char* field,
                   Field field_of) {
  Joint& j = w.joints.dense[w.joint_dense_of(id, call)];
  try {
    check_threshold(threshold, field);
  } catch (const Error& e) {
    throw Error(std::string(call) + ": " + e.what());
  }
  const bool before = has_event_threshold(j.def);
  std::visit([&](auto& d) { field_of(d) = threshold; }, j.def);
  const bool after = has_event_threshold(j.def);
  w.joints.threshold_count += std::uint32_t(after) - std::uint32_t(before);
}

}  // namespace

void World::set_joint_force_threshold(JointId id, float threshold) {
  set_threshold(*state_, id, threshold, "set_joint_force_threshold", "force_threshold",
                [](auto& d) -> float& { return d.force_threshold; });
}

void World::set_joint_torque_threshold(JointId id, float threshold) {
  set_threshold(*state_, id, threshold, "set_joint_torque_threshold", "torque_threshold",
                [](auto& d) -> float& { return d.torque_threshold; });
}

}  // namespace strut
