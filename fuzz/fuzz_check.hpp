// What every fuzz target asserts after each step: every body's state is finite. A violation
// traps, which libFuzzer (and the replay test) reports as a crash with the input that caused it.
#pragma once

#include <cmath>

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

}  // namespace strut::fuzz
