// What the scene queries (queries.cpp) offer the engine's other World functions.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/collide/manifold.hpp"
#include "strut/ids.hpp"
#include "strut/math.hpp"
#include "strut/shape.hpp"
#include "strut/world.hpp"

namespace strut {

// Dense indices of the live colliders whose current tight box overlaps `box` and whose category
// meets `mask`, ascending (creation order); through the query index, built at most once a step.
std::vector<std::uint32_t> colliders_in_box(const WorldState& w, const Aabb& box,
                                            std::uint32_t mask);

// The box of a world-space collider view: its vertices' box grown by its radius plus `grow`.
Aabb view_box(const collide::ShapeView& v, float grow = 0.0f);
// The box a shape whose box is `box` sweeps when it moves by `translation`.
Aabb swept_box(const Aabb& box, Vec2 translation);

// A collider as a query shape meets it: its world-space view (valid until the world changes),
// its body and its shape.
struct SolidCollider {
  collide::ShapeView view;
  BodyId body;
  ShapeId shape;
};
// The live colliders whose current tight box overlaps `box` that a query shape with `filter`
// collides with (should_collide), sensors left out, in creation order: what shape casts and
// overlaps look through.
std::vector<SolidCollider> solid_colliders(const WorldState& w, const Aabb& box,
                                           const ShapeFilter& filter);

}  // namespace strut
