// The World calls an embedding program needs beyond creating and stepping: user data, per-body
// sleep control, and changing a body's material, filter and type at run time. Each validates
// everything first and throws strut::Error (world unchanged) on bad input.
#include <cmath>
#include <cstdio>
#include <string>

#include "solver/islands/islands.hpp"
#include "solver/shapes/polygon_geometry.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "solver/shapes/shape_ops.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/step/visited_bodies.hpp"
#include "solver/world_state.hpp"
#include "strut/limits.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

std::string body_text(BodyId id) {
  return "body " + std::to_string(id.index) + "/" + std::to_string(id.generation);
}

// Mass and inertia per unit density of a rigid body's shape, from its particles (the hull about
// the centre of mass) as add_body made them.
struct UnitMass {
  double area = 0, inertia = 0;
};
UnitMass unit_mass(const WorldState& w, std::uint32_t k) {
  std::vector<shapes::MassData> parts;
  for (const std::uint32_t s : w.bodies.cold[k].shapes)
    for (const shapes::LocalCollider& c : shapes::make_colliders(w.colliders.shapes[s].def))
      parts.push_back(shapes::mass_of(c, 1.0f));
  const shapes::MassData m = shapes::combine(parts);
  return {m.mass, m.inertia};
}

void require_mass_in_limits(double mass, const char* call, BodyId id) {
  if (!(mass >= limits::kMinMass && mass <= limits::kMaxMass)) {
    throw Error(std::string(call) + ": " + body_text(id) + " would have a mass of " +
                shapes::number_text(mass) + " kg, outside [" +
                shapes::number_text(limits::kMinMass) + ", " +
                shapes::number_text(limits::kMaxMass) + "] kg (strut/limits.hpp)");
  }
}

// Pairs of this body choose their contact features afresh at the next step: reused points carry
// the materials and masses they were made with.
void forget_contact_features(WorldState& w, std::uint32_t k) {
  auto& set = w.contacts;
  for (std::size_t p = 0; p < set.pair_keys.size(); ++p) {
    const std::uint64_t key = set.pair_keys[p];
    for (const std::uint32_t slot : {std::uint32_t(key >> 32), std::uint32_t(key)}) {
      const IdSlot& cs = w.colliders.slots[slot];
      if (cs.alive && w.colliders.body[cs.dense] == k) set.pair_cache[p].margin = -1;
    }
  }
}

}  // namespace

std::uint64_t World::user_data(BodyId id) const {
  const auto& w = *state_;
  return w.bodies.cold[w.dense_of(id, "user_data")].def.user_data;
}

void World::set_user_data(BodyId id, std::uint64_t value) {
  auto& w = *state_;
  w.bodies.cold[w.dense_of(id, "set_user_data")].def.user_data = value;
}

std::uint64_t World::user_data(ShapeId id) const {
  const auto& w = *state_;
  return w.colliders.shapes[w.colliders.shape_slots.slot_of(id, "user_data")].def.user_data;
}

void World::set_user_data(ShapeId id, std::uint64_t value) {
  auto& w = *state_;
  w.colliders.shapes[w.colliders.shape_slots.slot_of(id, "set_user_data")].def.user_data = value;
}

std::uint64_t World::user_data(JointId id) const {
  const auto& w = *state_;
  w.joint_dense_of(id, "user_data");
  const std::uint32_t slot = id.index - 1;
  if (slot >= w.joints.user_data.size() || w.joints.user_data[slot].generation != id.generation)
    return 0;
  return w.joints.user_data[slot].value;
}

void World::set_user_data(JointId id, std::uint64_t value) {
  auto& w = *state_;
  w.joint_dense_of(id, "set_user_data");
  const std::uint32_t slot = id.index - 1;
  if (slot >= w.joints.user_data.size()) w.joints.user_data.resize(slot + 1);
  w.joints.user_data[slot] = {id.generation, value};
}

void World::set_sleep_enabled(BodyId id, bool enabled) {
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "set_sleep_enabled");
  if (enabled) {
    w.bodies.flags[k] &= std::uint8_t(~kNoSleep);
  } else {
    wake(id);
    w.bodies.flags[k] |= kNoSleep;
    mark_body_edited(w, k);
  }
  w.bodies.cold[k].def.enable_sleep = enabled;
}

bool World::sleep_enabled(BodyId id) const {
  const auto& w = *state_;
  return (w.bodies.flags[w.dense_of(id, "sleep_enabled")] & kNoSleep) == 0;
}

void World::put_to_sleep(BodyId id) {
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "put_to_sleep");
  auto& b = w.bodies;
  if (b.inv_mass[k] == 0)
    throw Error("put_to_sleep: " + body_text(id) + " is not dynamic (only dynamic bodies sleep)");
  // The island of the last step (a body created since is its own island).
  const std::uint32_t island = b.island[k];
  for (std::uint32_t i = 0; i < b.size(); ++i)
    if (b.island[i] == island && b.inv_mass[i] > 0 && !(b.flags[i] & kDead) &&
        (b.flags[i] & kNoSleep))
      throw Error("put_to_sleep: " + body_text(w.bodies.id_of_dense(i)) + " in the island of " +
                  body_text(id) + " has sleep disabled");
  for (std::uint32_t i = 0; i < b.size(); ++i)
    if (b.island[i] == island && b.inv_mass[i] > 0 && !(b.flags[i] & (kDead | kSleeping))) {
      sleep_body(w, i);
      b.sleep_time[i] = 0;
    }
}

void World::set_material(BodyId id, const Material& m) {
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "set_material");
  try {
    validate_material(m, "material");
  } catch (const Error& e) {
    throw Error(std::string("set_material: ") + e.what());
  }
  auto& b = w.bodies;
  Material stored = m;
  const bool dynamic = !(b.flags[k] & (kStatic | kKinematic));
  if (!w.bodies.is_rigid(k)) {
    // its particles carry the mass: a soft body's one shape keeps its density
    stored.density = w.colliders.shapes[w.bodies.cold[k].shapes[0]].def.material.density;
  } else {
    const UnitMass u = unit_mass(w, k);
    const double mass = double(m.density) * u.area;
    if (dynamic) require_mass_in_limits(mass, "set_material", id);
    b.mass[k] = float(mass);
    b.inertia[k] = float(double(m.density) * u.inertia);
    if (dynamic) {
      b.inv_mass[k] = 1.0f / b.mass[k];
      b.inv_inertia[k] = w.bodies.cold[k].def.fixed_rotation ? 0.0f : 1.0f / b.inertia[k];
      w.joints.mark_changed();  // the joints' lanes hold the masses
    }
  }
  auto& c = w.colliders;
  for (std::uint32_t i = b.collider_begin[k]; i < b.collider_begin[k] + b.collider_count[k]; ++i) {
    c.friction[i] = m.friction;
    c.static_friction[i] = static_friction_of(m);
    c.restitution[i] = m.restitution;
    c.mix_rules[i] = mix_rules_of(m);
  }
  for (const std::uint32_t s : w.bodies.cold[k].shapes) w.colliders.shapes[s].def.material = stored;
  for (ShapeDef& sd : w.bodies.cold[k].def.shapes) sd.material = stored;
  forget_contact_features(w, k);
  wake(id);
}

void World::set_filter(BodyId id, std::uint32_t category, std::uint32_t mask) {
  auto& w = *state_;
  w.dense_of(id, "set_filter");  // a stale id is named as set_filter's
  for (const ShapeId shape : shapes(id)) {
    ShapeFilter filter = definition(shape).filter;
    filter.category = category, filter.mask = mask;
    set_filter(shape, filter);
  }
  wake(id);
}

BodyType World::type(BodyId id) const {
  const auto& w = *state_;
  const std::uint8_t f = w.bodies.flags[w.dense_of(id, "type")];
  return (f & kStatic)      ? BodyType::Static
         : (f & kKinematic) ? BodyType::Kinematic
                            : BodyType::Dynamic;
}

void World::set_type(BodyId id, BodyType type) {
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "set_type");
  auto& b = w.bodies;
  if (type == this->type(id)) return;
  if (!w.bodies.is_rigid(k))
    throw Error("set_type: " + body_text(id) + " is soft; soft bodies keep their type");
  if (type == BodyType::Dynamic) {
    require_mass_in_limits(b.mass[k], "set_type", id);
    if (!(b.inertia[k] > 0)) throw Error("set_type: " + body_text(id) + " has no inertia");
  } else {
    // A joint needs one body of finite mass.
    const std::uint32_t slot = b.slot[k];
    if (slot < w.joints.of_body.size())
      for (const std::uint32_t js : w.joints.of_body[slot]) {
        const Joint& j = w.joints.dense[w.joints.slots[js].dense];
        const std::uint32_t other = w.bodies.slots[j.slot_a == slot ? j.slot_b : j.slot_a].dense;
        if (b.inv_mass[other] == 0 && b.inv_inertia[other] == 0)
          throw Error("set_type: " + body_text(id) +
                      " has a joint to a body of infinite mass; it must stay dynamic");
      }
  }
  if (b.flags[k] & kSleeping) wake(id);
  b.flags[k] &= std::uint8_t(~(kStatic | kKinematic));
  const bool is_static = type == BodyType::Static;
  if (is_static) b.flags[k] |= kStatic;
  if (type == BodyType::Kinematic) b.flags[k] |= kKinematic;
  const bool dynamic = type == BodyType::Dynamic;
  b.inv_mass[k] = dynamic ? 1.0f / b.mass[k] : 0.0f;
  b.inv_inertia[k] = dynamic && !w.bodies.cold[k].def.fixed_rotation ? 1.0f / b.inertia[k] : 0.0f;
  w.joints.mark_changed();  // the joints' lanes hold the masses
  if (is_static) b.dx[k] = b.dy[k] = b.da[k] = 0;
  b.sleep_time[k] = 0;
  mark_body_edited(w, k);
  b.island[k] = b.slot[k];
  w.bodies.cold[k].def.is_static = is_static;
  w.bodies.cold[k].def.is_kinematic = type == BodyType::Kinematic;
  // The broad phase keeps static proxies apart (StaticSet): the proxies move over.
  reinsert_body(w, k);
  forget_contact_features(w, k);
}

}  // namespace strut
