// Events are per collider pair (two shapes of two bodies; a chain's links are one shape each).
// Begin: pairs touching now that did not touch last step (in pair order). End: pairs that touched
// last step and do not now, or are gone (in last step's pair order), unless a collider was removed.
// Hit: the begin events whose fastest point closed faster than the threshold before the step.
//
// Sleep does not end a contact: an island that falls asleep drops its contact pairs, and wakes
// them afresh, so the pairs touching when it fell asleep are remembered (sleeping_touches) and
// make neither an end event then nor a begin event when they wake still touching; one that
// wakes apart ends then.
//
// Each list grows step after step until the program reads it (World::contact_*_events set its
// bit of events_read), so a FixedStepDriver::advance that runs three steps loses nothing, and a
// program that reads the begin events every step and the end events now and then loses none of
// either.
#include "solver/contacts/contact_events.hpp"

#include <algorithm>
#include <vector>

#include "solver/bodies/body_store.hpp"
#include "solver/bodies/collider_store.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/contacts/contact_store.hpp"
#include "solver/contacts/event_store.hpp"
#include "solver/core/step_timing.hpp"
#include "solver/core/stores.hpp"
#include "solver/joints/point_ref.hpp"
#include "solver/step/step_scratch.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

// The event of a pair of live colliders (by slot): their bodies and shapes, lower slot first.
ContactEvent event_of(Stores<ReadsBodies, ReadsColliders> w, std::uint32_t slot_a,
                      std::uint32_t slot_b) {
  return ContactEvent{body_of_collider(w.colliders, w.bodies, slot_a),
                      body_of_collider(w.colliders, w.bodies, slot_b),
                      shape_of_collider(w.colliders, slot_a),
                      shape_of_collider(w.colliders, slot_b)};
}

// The begin event of pair p (colliders by slot, lower first, as the pair key orders them), and
// its hit event if it closed fast enough.
void begin_pair(
    Stores<ReadsConfig, ReadsBodies, ReadsColliders, ReadsParticles, ReadsContacts, WritesEvents> w,
    std::size_t p, float h) {
  const ContactSet& set = w.contacts;
  const std::uint64_t key = set.pair_keys[p];
  const std::uint32_t slot_a = std::uint32_t(key >> 32), slot_b = std::uint32_t(key);
  ContactEvent e = event_of(w, slot_a, slot_b);
  const std::uint32_t body_a = w.colliders.body[w.colliders.slots[slot_a].dense];
  float fastest = 0;
  Vec2 fastest_point;
  // A pair begins touching when a point was pressed or lies within the slop; the manifold is the
  // pressed points, speculative ones are not part of it. A pair that touches without being pressed
  // yet (the top of a stack placed at rest, on its first step) reports its touching points.
  ContactEvent touching = e;
  for (std::uint32_t k = set.pair_begin[p]; k < set.pair_begin[p + 1]; ++k) {
    const ContactPoint& cp = set.points[k];
    const PointImpulses impulses = point_impulses(set, set.points, k);
    const bool pressed = impulses.max_lambda_n > 0;
    const ContactGeometry g = evaluate_contact(w, cp);
    if (!pressed && (g.c > w.config.contact_slop || touching.point_count == 2)) continue;
    // g.n points from the edge's body (o) to the vertex's body (v); events use a to b.
    const bool o_is_a = cp.body_o == body_a;
    const Vec2 n = o_is_a ? g.n : -g.n;
    // The point on b's surface.
    const Vec2 point = point_now(w, o_is_a ? g.v : g.o);
    ContactEvent& to = pressed ? e : touching;
    if (to.point_count < 2) {
      to.normal = n;
      to.points[to.point_count++] = point;
    }
    if (!pressed) continue;
    const float approach = -impulses.vn_pre / h;  // vn_pre < 0: closing, per substep
    if (approach > fastest) fastest = approach, fastest_point = point, e.normal = n;
  }
  if (e.point_count == 0) e = touching;
  w.events.begin.push_back(e);
  if (fastest > w.config.hit_event_threshold)
    w.events.hit.push_back({e.a, e.b, fastest_point, e.normal, fastest});
}

using SleepingTouch = EventStore::SleepingTouch;

bool by_key(const SleepingTouch& t, std::uint64_t key) { return t.key < key; }

// Whether the body of a live collider (by slot) is asleep.
bool asleep(Stores<ReadsBodies, ReadsColliders> w, std::uint32_t slot) {
  return (w.bodies.flags[w.colliders.body[w.colliders.slots[slot].dense]] & kSleeping) != 0;
}

// The remembered pair is still the same two colliders (neither removed, slot not reused).
bool same_bodies(Stores<ReadsColliders> w, const SleepingTouch& t) {
  const auto& cs = w.colliders.slots;
  const std::uint32_t a = std::uint32_t(t.key >> 32), b = std::uint32_t(t.key);
  return cs[a].alive && cs[b].alive && cs[a].generation == t.generation_a &&
         cs[b].generation == t.generation_b;
}

}  // namespace

void record_contact_events(Stores<ReadsConfig, ReadsTiming, ReadsBodies, ReadsColliders,
                                  ReadsParticles, WritesContacts, WritesEvents, WritesScratch>
                               w) {
  if (w.events.read & EventStore::kBeginList) w.events.begin.clear();
  if (w.events.read & EventStore::kEndList) w.events.end.clear();
  if (w.events.read & EventStore::kHitList) w.events.hit.clear();
  w.events.read &=
      std::uint8_t(~(EventStore::kBeginList | EventStore::kEndList | EventStore::kHitList));
  if (!w.config.contact_events) return;
  auto& set = w.contacts;
  auto& sleeping = w.events.sleeping_touches;
  // The same pairs touching as last step (equal lists of as many pairs; no pairs now nor then, as
  // in a world asleep, counts too), and no touch remembered asleep or none that a wake or a
  // retired slot since the last check could end: nothing begins or ends. A settled pile's every
  // step, awake or asleep, without a serial pass over its pairs.
  const bool same_pairs = set.same_pairs || (set.pair_keys.empty() && set.old_pair_keys.empty());
  if (same_pairs && set.pair_touching == set.old_pair_touching &&
      (sleeping.empty() || w.events.touches_checked_at == w.events.wakes_and_retires))
    return;
  w.events.touches_checked_at = w.events.wakes_and_retires;
  auto& woke_touching = w.scratch.woke_touching;
  woke_touching.assign(sleeping.size(), 0);
  auto& still = w.scratch.old_still_touching;
  still.assign(set.old_pair_keys.size(), 0);
  for (std::size_t i = 0; i < set.pair_keys.size(); ++i) {
    const std::uint32_t old = set.pair_previous[i];
    const bool was = old != ~0u && set.old_pair_touching[old];
    if (set.pair_touching[i] && old != ~0u) still[old] = 1;
    if (!set.pair_touching[i] || was) continue;
    const auto it = std::lower_bound(sleeping.begin(), sleeping.end(), set.pair_keys[i], by_key);
    if (it != sleeping.end() && it->key == set.pair_keys[i] && same_bodies(w, *it)) {
      woke_touching[std::size_t(it - sleeping.begin())] = 1;  // touched all along
      continue;
    }
    begin_pair(w, i, w.timing.last_h);
  }
  // Remembered pairs: forgotten when they wake touching or a body dies; ended when both are
  // awake and apart.
  std::size_t kept = 0;
  for (std::size_t t = 0; t < sleeping.size(); ++t) {
    const SleepingTouch s = sleeping[t];
    if (woke_touching[t] || !same_bodies(w, s)) continue;
    const std::uint32_t a = std::uint32_t(s.key >> 32), b = std::uint32_t(s.key);
    if (!asleep(w, a) && !asleep(w, b)) {
      w.events.end.push_back(event_of(w, a, b));
      continue;
    }
    sleeping[kept++] = s;
  }
  sleeping.resize(kept);
  for (std::size_t j = 0; j < set.old_pair_keys.size(); ++j) {
    if (!set.old_pair_touching[j] || still[j]) continue;
    const std::uint64_t k = set.old_pair_keys[j];
    const std::uint32_t a = std::uint32_t(k >> 32), c = std::uint32_t(k);
    const auto& cs = w.colliders.slots;
    if (!cs[a].alive || !cs[c].alive) continue;
    if (asleep(w, a) || asleep(w, c)) {
      const auto it = std::lower_bound(sleeping.begin(), sleeping.end(), k, by_key);
      if (it == sleeping.end() || it->key != k)
        sleeping.insert(it, {k, cs[a].generation, cs[c].generation});
      continue;
    }
    w.events.end.push_back(event_of(w, a, c));
  }
}

}  // namespace strut
