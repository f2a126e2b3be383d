// Contact callbacks: the embedding program's say over which shapes collide (a custom filter) and
// which contacts act this step (pre-solve), as one-way platforms and conditional collisions need.
// Only shapes that ask are shown to them (ShapeDef::custom_filter, ShapeDef::pre_solve), so a
// world without such shapes pays nothing. World::set_custom_filter and World::set_pre_solve
// install them.
//
// Both are called during World::step on the thread that steps the world (never on a worker
// thread), one call after another in the step's pair order, so that they see the same calls in
// the same order at any thread count. A callback must answer from its arguments and the
// program's own state alone: it may read the world's definitions (World::definition, user_data,
// body_of) but must not change the world. A callback that throws is treated as if it had
// returned true for that pair; the step finishes, and World::step then rethrows the first
// exception of the step (the world has advanced by that step).
#pragma once

#include <functional>

#include "strut/ids.hpp"
#include "strut/math.hpp"

namespace strut {

// Two shapes of different bodies whose boxes have come near each other: a is the shape of the
// lower internal slot, as in ContactEvent.
struct ShapePair {
  ShapeId shape_a;
  ShapeId shape_b;
  BodyId body_a;
  BodyId body_b;
};

// Asked when the broad phase first finds a pair that passes the category, mask, group and joint
// filters and whose shapes, one or both, set ShapeDef::custom_filter. false: the two never
// collide (no contact, no continuous collision) for as long as the pair stays a broad-phase pair,
// which it does until their boxes (grown by up to 10 cm of margin) part, a body falls asleep, or
// set_filter or set_custom_filter is called; then the next meeting asks again. Sensors' overlaps
// are not filtered by it.
using CustomFilter = std::function<bool(const ShapePair&)>;

// A pair of shapes with contact points this step, before the solver sees them: its shapes and
// bodies (a, b as in ShapePair), the normal from a to b and up to two points (world coordinates,
// on b's surface), each with its separation now (m; negative: overlap; above
// WorldConfig::contact_slop: speculative, not yet touching).
struct PreSolveContact {
  ShapeId shape_a;
  ShapeId shape_b;
  BodyId body_a;
  BodyId body_b;
  Vec2 normal;
  int point_count = 0;
  Vec2 points[2];
  float separations[2] = {0.0f, 0.0f};
};

// Called every step for every pair with contact points (speculative ones included: those stop a
// body before it touches) whose shapes, one or both, set ShapeDef::pre_solve. false: the pair
// has no contact this step (no impulse, no continuous collision, no touching and so no begin
// event; a pair that touched last step ends). A chain's segments are pairs of their own.
using PreSolve = std::function<bool(const PreSolveContact&)>;

}  // namespace strut
