// The two world queries the character mover (character_mover.cpp) is built on: a cast of its
// capsule, and the surfaces around it ("collide mover"). Both see the solid shapes a query
// shape with the mover's filter collides with, as cast_shape and overlap_shape do.
#pragma once

#include <optional>
#include <vector>

#include "solver/collide/manifold.hpp"
#include "strut/ids.hpp"
#include "strut/math.hpp"
#include "strut/shape.hpp"
#include "strut/world.hpp"

namespace strut {

// A shape the capsule met: how far it was apart (cast: the fraction of the translation travelled
// before touching; collide: the gap, negative inside), the shape's outward normal towards the
// capsule and the point of its surface there, and the shape and its body.
struct MoverContact {
  float fraction = 0;
  float gap = 0;  // a cast's hit at fraction 0: how deep the capsule starts inside (<= 0)
  Vec2 point;
  Vec2 normal;
  BodyId body;
  ShapeId shape;
};

// The first shape `capsule` touches when moved by `translation`, ties going to the shape
// created first. A shape the capsule starts inside stops it only when the translation goes
// deeper (against its way out), so a capsule pushed into something can always leave it.
std::optional<MoverContact> cast_mover(const WorldState& w, const collide::ShapeView& capsule,
                                       Vec2 translation, const ShapeFilter& filter);

// Every shape (a chain: each of its links) closer to `capsule` than `margin`, in creation order,
// with its gap (fraction 0).
std::vector<MoverContact> collide_mover(const WorldState& w, const collide::ShapeView& capsule,
                                        float margin, const ShapeFilter& filter);

// The outward normal of the first solid shape the segment from -> to crosses (sensors and
// shapes the filter leaves out are not seen), nothing if none: the mover's look at the surface
// beyond the edge it lands on after a step.
std::optional<Vec2> probe_surface(const WorldState& w, Vec2 from, Vec2 to,
                                  const ShapeFilter& filter);

}  // namespace strut
