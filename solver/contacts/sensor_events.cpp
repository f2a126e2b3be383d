// Sensor events: at the end of the step, every sensor/visitor pair whose broad-phase boxes
// overlap is tested for overlap of the shapes (at the step's final poses; touching is not
// overlap). Overlaps new since the last step begin, overlaps gone end. Sensors take no part in
// the contact solver, so they cost only this test per nearby pair.
//
// Overlaps are kept per pair of shapes (sensor shape slot, visitor shape slot), not per pair of
// colliders: a chain is one shape of many colliders and reports one begin, and a body whose
// shapes are laid out again (add_shape, remove_shape) keeps its shapes' slots, so a visitor
// inside stays inside.
//
// Visitors are every non-sensor shape the sensor's filter admits, static ones included (a
// probe on a moving body finds walls and floors); a static sensor sees only moving visitors,
// as two static bodies never pair. A visitor asleep in a sensor (or a sleeping sensor over a
// static shape) stays inside: no end event until it wakes and leaves.
//
// Removing a sensor or a visitor (remove_shape, destroy_body) ends its overlaps at once
// (end_sensor_overlaps_of); the end events are reported with the next step's, naming the shapes
// and bodies by the ids they had, which are stale by then.
#include "solver/contacts/sensor_events.hpp"

#include <algorithm>

#include "solver/bodies/body_store.hpp"
#include "solver/bodies/collider_store.hpp"
#include "solver/contacts/event_store.hpp"
#include "solver/contacts/pair_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/step/collide_phase.hpp"

namespace strut {
namespace {

std::uint64_t overlap_key(std::uint32_t sensor_shape, std::uint32_t visitor_shape) {
  return (std::uint64_t(sensor_shape) << 32) | visitor_shape;
}

// The event of an overlap key, the shapes and their bodies named by their current ids.
SensorEvent event_of(Stores<ReadsBodies, ReadsColliders> w, std::uint64_t key) {
  const std::uint32_t s = std::uint32_t(key >> 32), v = std::uint32_t(key);
  const std::uint32_t sb = w.colliders.shapes[s].body, vb = w.colliders.shapes[v].body;
  return SensorEvent{w.colliders.shape_slots.id_of<ShapeId>(s),
                     w.colliders.shape_slots.id_of<ShapeId>(v), w.bodies.slots.id_of<BodyId>(sb),
                     w.bodies.slots.id_of<BodyId>(vb)};
}

}  // namespace

void record_sensor_events(
    Stores<ReadsBodies, ReadsColliders, ReadsParticles, ReadsPairs, WritesEvents> w) {
  if (w.events.read & EventStore::kSensorBeginList) w.events.sensor_begin.clear();
  if (w.events.read & EventStore::kSensorEndList) w.events.sensor_end.clear();
  w.events.read &= std::uint8_t(~(EventStore::kSensorBeginList | EventStore::kSensorEndList));
  // Overlaps ended by removals since the last step come first: they happened before this step.
  w.events.sensor_end.insert(w.events.sensor_end.end(), w.events.removed_sensor_ends.begin(),
                             w.events.removed_sensor_ends.end());
  w.events.removed_sensor_ends.clear();
  const auto& c = w.colliders;
  std::vector<std::uint64_t> now;
  now.reserve(w.pairs.sensor_candidates.size());
  for (const auto& [sensor, visitor] : w.pairs.sensor_candidates) {
    if (collide::collide(shape_view(w, sensor), shape_view(w, visitor), 0.0f).count == 0) continue;
    now.push_back(overlap_key(c.shape[sensor], c.shape[visitor]));
  }
  auto at_rest = [&](std::uint32_t shape) {
    return (w.bodies.flags[w.bodies.slots[w.colliders.shapes[shape].body].dense] &
            (kStatic | kSleeping)) != 0;
  };
  // Overlaps of last step that the broad phase no longer lists because both sides are at rest
  // (a sleeping visitor in a static sensor, a sleeping sensor over the ground) still hold.
  for (const std::uint64_t key : w.events.sensor_overlaps) {
    if (at_rest(std::uint32_t(key >> 32)) && at_rest(std::uint32_t(key))) now.push_back(key);
  }
  std::sort(now.begin(), now.end());
  now.erase(std::unique(now.begin(), now.end()), now.end());
  const auto& before = w.events.sensor_overlaps;
  std::size_t i = 0, j = 0;
  while (i < now.size() || j < before.size()) {
    if (j == before.size() || (i < now.size() && now[i] < before[j])) {
      w.events.sensor_begin.push_back(event_of(w, now[i++]));
    } else if (i == now.size() || before[j] < now[i]) {
      w.events.sensor_end.push_back(event_of(w, before[j++]));
    } else {
      ++i, ++j;
    }
  }
  w.events.sensor_overlaps = std::move(now);
}

void end_sensor_overlaps_of(WorldState& w, std::uint32_t shape) {
  auto involves = [&](std::uint64_t key) {
    return std::uint32_t(key >> 32) == shape || std::uint32_t(key) == shape;
  };
  for (const std::uint64_t key : w.events.sensor_overlaps)
    if (involves(key)) w.events.removed_sensor_ends.push_back(event_of(w, key));
  std::erase_if(w.events.sensor_overlaps, involves);
}

}  // namespace strut
