// Sensor events: at the end of the step, every sensor/visitor pair whose broad-phase boxes
// overlap is tested for overlap of the shapes (at the step's final poses; touching is not
// overlap). Overlaps new since the last step begin, overlaps gone end. Sensors take no part in
// the contact solver, so they cost only this test per nearby pair.
//
// A visitor that falls asleep inside a sensor stays inside it (no end event until it wakes and
// leaves); a removed sensor or visitor makes no end event (its id would be stale).
#include "solver/contacts/sensor_events.hpp"

#include <algorithm>

#include "solver/collide_phase.hpp"

namespace strut {

void record_sensor_events(World::Impl& w) {
  if (w.events_read) {
    w.sensor_begin_events.clear();
    w.sensor_end_events.clear();
  }
  const auto& c = w.colliders;
  std::vector<std::uint64_t> now;
  now.reserve(w.sensor_candidates.size());
  for (const auto& [sensor, visitor] : w.sensor_candidates) {
    if (collide::collide(shape_view(w, sensor), shape_view(w, visitor), 0.0f).count == 0) continue;
    now.push_back((std::uint64_t(c.slot[sensor]) << 32) | c.slot[visitor]);
  }
  auto alive = [&](std::uint32_t slot) { return w.collider_slots[slot].alive; };
  auto body_flags = [&](std::uint32_t slot) {
    return w.bodies.flags[c.body[w.collider_slots[slot].dense]];
  };
  // Overlaps of last step that the broad phase no longer lists because both sides are at rest
  // (a sleeping visitor in a static sensor) still hold.
  for (const std::uint64_t key : w.sensor_overlaps) {
    const std::uint32_t s = std::uint32_t(key >> 32), v = std::uint32_t(key);
    if (!alive(s) || !alive(v)) continue;
    const bool resting = (body_flags(s) & (kStatic | kSleeping)) && (body_flags(v) & kSleeping);
    if (resting) now.push_back(key);
  }
  std::sort(now.begin(), now.end());
  now.erase(std::unique(now.begin(), now.end()), now.end());
  auto event = [&](std::uint64_t key) {
    const std::uint32_t s = std::uint32_t(key >> 32), v = std::uint32_t(key);
    return SensorEvent{w.shape_of_collider(s), w.shape_of_collider(v), w.body_of_collider(s),
                       w.body_of_collider(v)};
  };
  const auto& before = w.sensor_overlaps;
  std::size_t i = 0, j = 0;
  while (i < now.size() || j < before.size()) {
    if (j == before.size() || (i < now.size() && now[i] < before[j])) {
      w.sensor_begin_events.push_back(event(now[i++]));
    } else if (i == now.size() || before[j] < now[i]) {
      const std::uint64_t key = before[j++];
      if (alive(std::uint32_t(key >> 32)) && alive(std::uint32_t(key)))
        w.sensor_end_events.push_back(event(key));
    } else {
      ++i, ++j;
    }
  }
  w.sensor_overlaps = std::move(now);
}

}  // namespace strut
