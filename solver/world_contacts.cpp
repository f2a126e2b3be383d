// What touches what now: the touching pairs of a body or a shape with their points' impulses
// (World::body_contacts, shape_contacts; Box2D's b2Body_GetContactData), and the shapes inside a
// sensor (World::sensor_overlaps). Both read what the last step left: the contact set's pairs
// (their impulses through point_impulses, since a kept structure leaves them in the wide lanes)
// and the sensor overlaps of sensor_events.cpp.
#include <algorithm>
#include <string>

#include "solver/contacts/contact_solver.hpp"
#include "solver/joints/point_ref.hpp"
#include "solver/world_state.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

std::string shape_text(ShapeId id) {
  return "shape " + std::to_string(id.index) + "/" + std::to_string(id.generation);
}

// Whether pair p may be reported: touching, both colliders alive (no shape removed, no body
// destroyed since the step), neither body asleep (a sleeping island keeps no contacts).
bool reportable(const WorldState& w, std::size_t p) {
  const ContactSet& set = w.contacts;
  if (!set.pair_touching[p]) return false;
  const std::uint64_t key = set.pair_keys[p];
  for (const std::uint32_t slot : {std::uint32_t(key >> 32), std::uint32_t(key)}) {
    if (slot >= w.colliders.slots.size() || !w.colliders.slots[slot].alive) return false;
    const std::uint32_t body = w.colliders.body[w.colliders.slots[slot].dense];
    if (w.bodies.flags[body] & (kSleeping | kDead)) return false;
  }
  return true;
}

// The data of reportable pair p: the colliders by slot, lower first (as ContactEvent); the
// points oriented from a to b, their impulses converted from the solver's (normal impulse x h
// of the last substep, contact.hpp) to N s over the step.
ContactData contact_data(const WorldState& w, std::size_t p) {
  const ContactSet& set = w.contacts;
  const std::uint64_t key = set.pair_keys[p];
  const std::uint32_t slot_a = std::uint32_t(key >> 32), slot_b = std::uint32_t(key);
  ContactData d{body_of_collider(w.colliders, w.bodies, slot_a),
                body_of_collider(w.colliders, w.bodies, slot_b),
                shape_of_collider(w.colliders, slot_a), shape_of_collider(w.colliders, slot_b)};
  const std::uint32_t body_a = w.colliders.body[w.colliders.slots[slot_a].dense];
  const float to_step =
      w.timing.last_h > 0 ? float(w.timing.last_substeps) / w.timing.last_h : 0.0f;
  for (std::uint32_t k = set.pair_begin[p]; k < set.pair_begin[p + 1]; ++k) {
    const ContactPoint& cp = set.points[k];
    const PointImpulses impulses = point_impulses(set, set.points, k);
    const ContactGeometry g = evaluate_contact(w, cp);
    // g.n points from the other feature's body (o) to the vertex's body (v). The solver's
    // normal impulse pushes v along g.n and its tangent impulse acts on v along (n.y, -n.x);
    // seen from a to b, both keep their sign (turning n round turns the tangent round too).
    const bool o_is_a = cp.body_o == body_a;
    ContactPointData q;
    q.point = point_now(w, o_is_a ? g.v : g.o);
    q.separation = g.c;
    q.normal_impulse = impulses.lambda_n * to_step;
    q.tangent_impulse = impulses.lambda_t * to_step;
    const Vec2 n = o_is_a ? g.n : -g.n;
    if (d.point_count < 2) {
      if (d.point_count == 0) d.normal = n;
      d.points[d.point_count++] = q;
      continue;
    }
    // More than two points (a fast pair): keep the two that pushed hardest.
    ContactPointData& weaker =
        d.points[0].normal_impulse <= d.points[1].normal_impulse ? d.points[0] : d.points[1];
    if (q.normal_impulse > weaker.normal_impulse) weaker = q;
  }
  return d;
}

// The reportable pairs with a collider among `slots` (collider slots).
std::vector<ContactData> contacts_of(const WorldState& w, const std::vector<std::uint32_t>& slots) {
  std::vector<ContactData> out;
  const ContactSet& set = w.contacts;
  auto ours = [&](std::uint32_t slot) {
    return std::find(slots.begin(), slots.end(), slot) != slots.end();
  };
  for (std::size_t p = 0; p < set.pair_keys.size(); ++p) {
    const std::uint64_t key = set.pair_keys[p];
    if (!ours(std::uint32_t(key >> 32)) && !ours(std::uint32_t(key))) continue;
    if (reportable(w, p)) out.push_back(contact_data(w, p));
  }
  return out;
}

}  // namespace

std::vector<ContactData> World::body_contacts(BodyId id) const {
  const WorldState& w = *state_;
  const std::uint32_t k = w.dense_of(id, "body_contacts");
  if (w.bodies.flags[k] & kSleeping) return {};
  std::vector<std::uint32_t> slots;
  for (std::uint32_t i = w.bodies.collider_begin[k];
       i < w.bodies.collider_begin[k] + w.bodies.collider_count[k]; ++i)
    slots.push_back(w.colliders.slot[i]);
  return contacts_of(w, slots);
}

std::vector<ContactData> World::shape_contacts(ShapeId id) const {
  const WorldState& w = *state_;
  const std::uint32_t s = w.colliders.shape_slots.slot_of(id, "shape_contacts");
  const std::uint32_t k = w.bodies.slots[w.colliders.shapes[s].body].dense;
  if (w.bodies.flags[k] & kSleeping) return {};
  std::vector<std::uint32_t> slots;
  for (std::uint32_t i = w.bodies.collider_begin[k];
       i < w.bodies.collider_begin[k] + w.bodies.collider_count[k]; ++i)
    if (w.colliders.shape[i] == s) slots.push_back(w.colliders.slot[i]);
  return contacts_of(w, slots);
}

std::vector<ShapeId> World::sensor_overlaps(ShapeId sensor) const {
  const WorldState& w = *state_;
  const std::uint32_t s = w.colliders.shape_slots.slot_of(sensor, "sensor_overlaps");
  if (!w.colliders.shapes[s].def.sensor)
    throw Error("sensor_overlaps: " + shape_text(sensor) + " is not a sensor");
  // Keys are (sensor slot << 32 | visitor slot), sorted: the sensor's are one run.
  const std::uint64_t first = std::uint64_t(s) << 32;
  const auto begin =
      std::lower_bound(w.events.sensor_overlaps.begin(), w.events.sensor_overlaps.end(), first);
  std::vector<ShapeId> out;
  for (auto it = begin; it != w.events.sensor_overlaps.end() && (*it >> 32) == s; ++it)
    out.push_back(w.colliders.shape_slots.id_of<ShapeId>(std::uint32_t(*it)));
  return out;
}

}  // namespace strut
