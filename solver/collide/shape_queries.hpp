// Point containment and ray casts against a single shape, for the world's query API.
//
// Queries see the whole polygon: internal (tile seam) edges are ordinary edges here, because a
// ray or point reaching one from outside has already met the neighbouring tile.
#pragma once

#include <optional>

#include "solver/collide/manifold.hpp"
#include "strut/math.hpp"

namespace strut::collide {

struct RayResult {
  float fraction;  // in [0, 1]: the hit point is from + fraction * (to - from)
  Vec2 normal;     // unit outward normal of the surface at the hit point
};

// Points on the boundary count as inside.
bool polygon_contains(const PolygonView& polygon, Vec2 point);
bool circle_contains(const CircleView& circle, Vec2 point);

// First entry point along the segment from -> to. A ray that starts strictly inside the shape
// reports no hit (so a query from inside a shape sees out of it rather than being blocked at 0);
// one that starts on the boundary heading inwards reports fraction 0. A zero-length ray never hits.
std::optional<RayResult> ray_cast_polygon(const PolygonView& polygon, Vec2 from, Vec2 to);
std::optional<RayResult> ray_cast_circle(const CircleView& circle, Vec2 from, Vec2 to);

}  // namespace strut::collide
