// The character mover's plane solve: of the positions that keep clear of every surface met so
// far, the one nearest where the character wants to go.
#pragma once

#include <optional>
#include <span>

#include "strut/math.hpp"

namespace strut {

// The positions q with dot(normal, q) >= offset (normal of unit length).
struct HalfPlane {
  Vec2 normal;
  float offset = 0;
};

// The point of the intersection of `planes` nearest `goal`, or nothing when they leave no room
// (a capsule squeezed between surfaces closer than it is wide). Exact rather than iterated: in
// 2D the nearest point of a convex region is the goal itself, its projection onto one boundary
// line, or the corner of two, so every such candidate is tried (in double) and the nearest one
// inside every half-plane wins, ties going to the earlier. Planes are few (the surfaces of one
// move), so the cubic cost is a few thousand operations.
std::optional<Vec2> nearest_inside(Vec2 goal, std::span<const HalfPlane> planes);

}  // namespace strut
