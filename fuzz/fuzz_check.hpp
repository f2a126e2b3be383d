// What the fuzz targets assert after a step: every body's state is finite, and every event is
// finite and names shapes of the bodies it names. A violation traps, which libFuzzer (and the
// replay test) reports as a crash with the input that caused it.
#pragma once

#include <cmath>
#include <optional>
#include <vector>

#include "strut/world.hpp"

namespace strut::fuzz {

inline void require_finite_state(const World& world) {
  for (const BodyId id : world.bodies()) {
    const Transform t = world.transform(id);
    const Vec2 v = world.linear_velocity(id);
    if (!is_finite(t.position) || !std::isfinite(t.angle) || !is_finite(v) ||
        !std::isfinite(world.angular_velocity(id)))
      __builtin_trap();
  }
}

// Events accumulate until read, so their bodies may have been destroyed since (then the ids are
// stale and nothing is checked); a live shape must belong to the body the event names with it.
inline void require_shape_of(const World& world, ShapeId shape, BodyId body) {
  if (world.is_valid(shape) && world.is_valid(body) && world.body_of(shape) != body)
    __builtin_trap();
}

// Reads (and so consumes) every event list.
inline void require_consistent_events(const World& world) {
  for (const ContactEvent& e : world.contact_begin_events()) {
    require_shape_of(world, e.shape_a, e.a);
    require_shape_of(world, e.shape_b, e.b);
    if (!is_finite(e.normal) || e.point_count < 0 || e.point_count > 2) __builtin_trap();
    for (int i = 0; i < e.point_count; ++i)
      if (!is_finite(e.points[i])) __builtin_trap();
  }
  for (const ContactEvent& e : world.contact_end_events()) {
    require_shape_of(world, e.shape_a, e.a);
    require_shape_of(world, e.shape_b, e.b);
  }
  for (const ContactHitEvent& e : world.contact_hit_events())
    if (!is_finite(e.point) || !is_finite(e.normal) || !std::isfinite(e.approach_speed))
      __builtin_trap();
  for (const auto events : {world.sensor_begin_events(), world.sensor_end_events()})
    for (const SensorEvent& e : events) {
      require_shape_of(world, e.sensor, e.sensor_body);
      require_shape_of(world, e.visitor, e.visitor_body);
    }
  for (const JointEvent& e : world.joint_events())
    if (!is_finite(e.force) || !std::isfinite(e.torque)) __builtin_trap();
}

// Contact data (World::body_contacts, shape_contacts) names live shapes of the live bodies it
// names, one to two finite points a pair, a unit normal and non-negative normal impulses.
inline void require_sane_contacts(const World& world, const std::vector<ContactData>& contacts) {
  for (const ContactData& c : contacts) {
    if (!world.is_valid(c.a) || !world.is_valid(c.b) || !world.is_valid(c.shape_a) ||
        !world.is_valid(c.shape_b))
      __builtin_trap();
    if (world.body_of(c.shape_a) != c.a || world.body_of(c.shape_b) != c.b) __builtin_trap();
    if (c.point_count < 1 || c.point_count > 2) __builtin_trap();
    if (!(std::fabs(length(c.normal) - 1) < 1e-3f)) __builtin_trap();
    for (int i = 0; i < c.point_count; ++i) {
      const ContactPointData& p = c.points[i];
      if (!is_finite(p.point) || !std::isfinite(p.separation) ||
          !std::isfinite(p.tangent_impulse) || !(p.normal_impulse >= 0))
        __builtin_trap();
    }
  }
}

// Runs a call whose bad input is expected: strut::Error is an answer, anything else propagates.
template <class Call>
void rejected_or(Call&& call) {
  try {
    call();
  } catch (const Error&) {
  }
}

// A query names live shapes only.
inline void require_live_shape(const World& world, ShapeId shape) {
  if (!world.is_valid(shape)) __builtin_trap();
}

// A ray or shape cast hit: a live shape of the body it names, a fraction of the path in [0, 1],
// a finite point and a unit normal.
inline void require_sane_hit(const World& world, const std::optional<RayHit>& hit) {
  if (!hit) return;
  require_live_shape(world, hit->shape);
  if (world.body_of(hit->shape) != hit->body) __builtin_trap();
  if (!(hit->fraction >= 0 && hit->fraction <= 1) || !is_finite(hit->point)) __builtin_trap();
  if (!(std::fabs(length(hit->normal) - 1) < 1e-3f)) __builtin_trap();
}

}  // namespace strut::fuzz
