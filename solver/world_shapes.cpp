// Bodies and their shapes: creating and destroying bodies, adding and removing shapes, and the
// shape ids. A body's colliders are contiguous in the dense collider arrays, so changing its
// shapes lays the body out afresh at the end of the arrays (the old entry is removed at the next
// compaction, as a destroyed body is); its slot, id, pose, velocity and joints stay.
#include <algorithm>
#include <string>

#include "solver/bodies/body_storage.hpp"
#include "solver/contacts/sensor_events.hpp"
#include "solver/core/body_level_shape.hpp"
#include "solver/islands/islands.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "solver/shapes/shape_ops.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/world_state.hpp"
#include "strut/limits.hpp"

namespace strut {
namespace {

std::string id_text(ShapeId id) {
  return "shape " + std::to_string(id.index) + "/" + std::to_string(id.generation);
}

std::uint32_t shape_slot_of(const WorldState& w, ShapeId id, const char* what) {
  return w.colliders.shape_slots.slot_of(id, what);
}

// The body's colliders join the broad phase with their filters (their boxes already made).
void insert_colliders(WorldState& w, std::uint32_t k) {
  const auto& c = w.colliders;
  const bool is_static = (w.bodies.flags[k] & kStatic) != 0;
  for (std::uint32_t i = w.bodies.collider_begin[k];
       i < w.bodies.collider_begin[k] + w.bodies.collider_count[k]; ++i) {
    w.pairs.broadphase.insert(c.slot[i], collider_broadphase_box(w, i), c.category[i],
                              broadphase_mask(w, i), is_static);
  }
}

// The body's colliders leave the broad phase; their slots are retired (see world_state.hpp).
void remove_colliders(WorldState& w, std::uint32_t k) {
  const auto& c = w.colliders;
  for (std::uint32_t i = w.bodies.collider_begin[k];
       i < w.bodies.collider_begin[k] + w.bodies.collider_count[k]; ++i) {
    w.pairs.broadphase.remove(c.slot[i]);
    w.colliders.slots.retire(c.slot[i]);
    ++w.events.wakes_and_retires;
  }
}

// Appends the body (slot `slot`) with the given shape slots, makes the slot point at it and
// puts its colliders into the broad phase.
std::uint32_t place_body(WorldState& w, const BodyDef& def, std::uint32_t slot,
                         std::span<const std::uint32_t> shape_slots) {
  const std::uint32_t dense = add_body(w, def, slot, shape_slots);
  w.bodies.slots[slot].dense = dense;
  w.bodies.motion.resize(w.bodies.size(), 0.0f);
  w.bodies.sweep_x.resize(w.bodies.size(), 0.0f), w.bodies.sweep_y.resize(w.bodies.size(), 0.0f);
  w.bodies.spread.resize(w.bodies.size(), 0.0f);
  update_tight_boxes(w, dense);
  insert_colliders(w, dense);
  ++w.bodies.edits;
  return dense;
}

// Lays body slot `slot` out again with `shapes` (shape slots and their definitions), keeping its
// pose, its centre of mass's velocity law and its joints' anchors where they are on the body.
void relayout(World& world, WorldState& w, BodyId id, std::vector<std::uint32_t> shape_slots) {
  const std::uint32_t k = w.dense_of(id, "relayout");
  const std::uint32_t slot = id.index - 1;
  BodyDef def = world.definition(id);
  const Vec2 old_com{w.bodies.px[k], w.bodies.py[k]};
  const float omega = world.angular_velocity(id);
  const Vec2 old_offset = w.bodies.cold[k].com_offset;
  def.shapes.clear();
  for (const std::uint32_t s : shape_slots) def.shapes.push_back(w.colliders.shapes[s].def);
  remove_colliders(w, k);
  w.bodies.flags[k] |= kDead;
  w.bodies.first_dead = std::min(w.bodies.first_dead, k);
  w.bodies.needs_compaction = true;
  const std::uint32_t n = place_body(w, def, slot, shape_slots);
  // The centre of mass moved by `shift` in the body's frame: its velocity gains omega x shift,
  // and joint anchors (offsets from the centre of mass) lose the shift.
  const Vec2 shift = w.bodies.cold[n].com_offset - old_offset;
  const Vec2 arm = Vec2{w.bodies.px[n], w.bodies.py[n]} - old_com;
  w.bodies.dx[n] += -omega * arm.y * w.timing.last_h;
  w.bodies.dy[n] += omega * arm.x * w.timing.last_h;
  // A sleeper stays asleep, in an island of its own (place_body): listed there.
  if (w.bodies.flags[k] & kSleeping) {
    forget_sleeper(w, k);
    w.bodies.flags[n] |= kSleeping;
    list_sleeper(w, n);
  }
  if (slot < w.joints.of_body.size())
    for (const std::uint32_t js : w.joints.of_body[slot]) {
      Joint& j = w.joints.dense[w.joints.slots[js].dense];
      if (j.slot_a == slot) j.anchor_a.local -= shift;
      if (j.slot_b == slot) j.anchor_b.local -= shift;
    }
  w.joints.mark_changed();  // the joints' lanes hold the anchors and masses
}

}  // namespace

BodyId World::create_body(const BodyDef& def) {
  try {
    validate_body_def(def);
  } catch (const Error& e) {
    throw Error(std::string("create_body: ") + e.what());
  }
  auto& w = *state_;
  if (!def.awake && !w.config.enable_sleep)
    throw Error("create_body: awake: false in a world with sleep disabled (it would never wake)");
  const std::uint32_t slot = w.bodies.slots.allocate();
  const BodyDef stored = with_shapes(def);  // the body-level single shape, if given, as shapes[0]
  std::vector<std::uint32_t> shape_slots;
  for (const ShapeDef& sd : stored.shapes) {
    const std::uint32_t s = new_shape_slot(w);
    ShapeRecord& r = w.colliders.shapes[s];
    r.body = slot, r.def = sd;
    shape_slots.push_back(s);
  }
  const std::uint32_t dense = place_body(w, stored, slot, shape_slots);
  if (!def.awake) sleep_body(w, dense);  // its own island, until something touches it
  return w.bodies.slots.id_of<BodyId>(slot);
}

void World::destroy_body(BodyId id) {
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "destroy_body");
  // Joints die with their bodies.
  const std::uint32_t slot = id.index - 1;
  if (slot < w.joints.of_body.size()) {
    const std::vector<std::uint32_t> joints = w.joints.of_body[slot];  // kill_joint edits it
    for (const std::uint32_t js : joints) kill_joint(w, w.joints.dense[w.joints.slots[js].dense]);
  }
  for (const std::uint32_t s : w.bodies.cold[k].shapes) {
    end_sensor_overlaps_of(w, s);
    forget_filter_verdicts(w, s);
    w.colliders.shape_slots.release(s);
  }
  remove_colliders(w, k);
  if (w.bodies.flags[k] & kSleeping) forget_sleeper(w, k);
  w.bodies.flags[k] |= kDead;
  w.bodies.first_dead = std::min(w.bodies.first_dead, k);
  w.bodies.slots.release(slot);
  w.bodies.needs_compaction = true;
  ++w.bodies.edits;
  // Its contacts are rebuilt at the next step (after compaction); until then only their keys
  // are read, for warm starting.
}

ShapeId World::add_shape(BodyId body, const ShapeDef& def) {
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(body, "add_shape");
  const std::uint8_t flags = w.bodies.flags[k];
  if (flags & kSoft) throw Error("add_shape: a soft body has exactly one polygon");
  try {
    shapes::validate(def, !(flags & (kStatic | kKinematic)), (flags & kStatic) != 0);
  } catch (const Error& e) {
    throw Error(std::string("add_shape: ") + e.what());
  }
  std::vector<std::uint32_t> slots = w.bodies.cold[k].shapes;
  const std::uint32_t s = new_shape_slot(w);
  ShapeRecord& r = w.colliders.shapes[s];
  r.body = body.index - 1, r.def = def;
  slots.push_back(s);
  relayout(*this, w, body, slots);
  return w.colliders.shape_slots.id_of<ShapeId>(s);
}

void World::remove_shape(ShapeId id) {
  auto& w = *state_;
  const std::uint32_t s = shape_slot_of(w, id, "remove_shape");
  const BodyId body = w.bodies.slots.id_of<BodyId>(w.colliders.shapes[s].body);
  const std::uint32_t k = w.dense_of(body, "remove_shape");
  std::vector<std::uint32_t> slots = w.bodies.cold[k].shapes;
  if (slots.size() == 1)
    throw Error("remove_shape: " + id_text(id) + " is its body's only shape (destroy the body)");
  std::erase(slots, s);
  const bool dynamic = !(w.bodies.flags[k] & (kStatic | kKinematic));
  if (dynamic) {
    double mass = 0;
    for (const std::uint32_t o : slots) {
      for (const shapes::LocalCollider& c : shapes::make_colliders(w.colliders.shapes[o].def))
        mass += shapes::mass_of(c, w.colliders.shapes[o].def.material.density).mass;
    }
    // The magnitude rule of create_body and add_shape: a shape of negligible density may ride on
    // heavier ones, but left alone its mass underflows (fuzz_api: a capsule of 1.7e-41 kg made
    // the body's state NaN at the next step).
    if (!(mass >= limits::kMinMass && mass <= limits::kMaxMass))
      throw Error("remove_shape: the body's other shapes have a mass of " +
                  shapes::number_text(float(mass)) + " kg, outside [" +
                  shapes::number_text(limits::kMinMass) + ", " +
                  shapes::number_text(limits::kMaxMass) +
                  "] kg (strut/limits.hpp; a dynamic body needs it)");
  }
  end_sensor_overlaps_of(w, s);
  forget_filter_verdicts(w, s);
  w.colliders.shape_slots.release(s);
  relayout(*this, w, body, slots);
}

bool World::is_valid(ShapeId id) const { return state_->colliders.shape_slots.is_live(id); }

BodyId World::body_of(ShapeId id) const {
  const auto& w = *state_;
  const std::uint32_t body = w.colliders.shapes[shape_slot_of(w, id, "body_of")].body;
  return w.bodies.slots.id_of<BodyId>(body);
}

std::vector<ShapeId> World::shapes(BodyId id) const {
  const auto& w = *state_;
  std::vector<ShapeId> out;
  for (const std::uint32_t s : w.bodies.cold[w.dense_of(id, "shapes")].shapes)
    out.push_back(w.colliders.shape_slots.id_of<ShapeId>(s));
  return out;
}

ShapeDef World::definition(ShapeId id) const {
  const auto& w = *state_;
  return w.colliders.shapes[shape_slot_of(w, id, "definition")].def;
}

void World::set_filter(ShapeId id, const ShapeFilter& filter) {
  auto& w = *state_;
  const std::uint32_t s = shape_slot_of(w, id, "set_filter");
  w.colliders.shapes[s].def.filter = filter;
  forget_filter_verdicts(w, s);  // the custom filter is asked again
  const std::uint32_t k = w.bodies.slots[w.colliders.shapes[s].body].dense;
  auto& c = w.colliders;
  for (std::uint32_t i = w.bodies.collider_begin[k];
       i < w.bodies.collider_begin[k] + w.bodies.collider_count[k]; ++i) {
    if (c.shape[i] != s) continue;
    c.category[i] = filter.category, c.mask[i] = filter.mask, c.group[i] = filter.group;
    w.pairs.broadphase.set_filter(c.slot[i], filter.category, broadphase_mask(w, i));
  }
}

}  // namespace strut
