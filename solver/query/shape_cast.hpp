// Translational cast of one convex collider against another: the first fraction of a
// translation at which the moving collider touches the fixed one, without turning.
//
// Method: `moving` displaced by t d meets `target` exactly when t d lies in the Minkowski
// difference K = target - moving (the convex hull of every vertex difference, rounded by the sum
// of the radii). So the cast is a ray cast from the origin along d against one rounded convex
// polygon: exact, with no iteration, where conservative advancement converges slowly on grazing
// casts. Colliders have at most 16 vertices, so K comes from at most 256 points.
#pragma once

#include <optional>

#include "solver/collide/manifold.hpp"
#include "strut/math.hpp"
#include "strut/shape.hpp"

namespace strut {

struct CastResult {
  float fraction = 0;  // in [0, 1] of the translation; 0 when the two overlap at the start
  Vec2 point;          // on the target's surface, where the two touch
  Vec2 normal;         // the target's outward normal there (unit), towards the moving shape
};

// How far apart two convex colliders are: the distance between their surfaces (negative when
// they overlap: the depth to push `moving` out along `normal`), the target's outward normal
// towards the moving one (the way out of an overlap), and a point on the target's surface there.
struct ColliderGap {
  float distance = 0;
  Vec2 point;
  Vec2 normal;
};
ColliderGap collider_gap(const collide::ShapeView& moving, const collide::ShapeView& target);

// Overlap at the start (a negative gap) is a hit at fraction 0; shapes that only touch at the
// start hit at 0 when the translation moves them together. Chain segments are plain two-sided
// segments here (chains collide from both sides). A zero translation hits only on overlap.
std::optional<CastResult> cast_collider(const collide::ShapeView& moving, Vec2 translation,
                                        const collide::ShapeView& target);

}  // namespace strut
