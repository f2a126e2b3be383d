// The character mover (World::move_character): a capsule moved through the world by shape casts,
// sliding along what it meets, walking up slopes no steeper than a limit and stepping up low
// ledges. It is a query: it changes nothing in the world, and the character is not a body (a
// program that wants it drawn or recorded keeps a kinematic body of its own at the capsule).
#pragma once

#include <vector>

#include "strut/ids.hpp"
#include "strut/math.hpp"
#include "strut/shape.hpp"

namespace strut {

// A capsule in world coordinates: the segment from `a` to `b` thickened by `radius` (a == b
// makes a disc). A standing character has a below b.
struct Capsule {
  Vec2 a;
  Vec2 b{0.0f, 1.0f};
  float radius = 0.5f;
};

// How the character moves. Surfaces whose normal is within max_slope of `up` are ground it
// walks on and stands on; steeper ones are walls it cannot climb by walking into them (it
// slides down them when it falls).
struct MoverSettings {
  Vec2 up{0.0f, 1.0f};           // any non-zero length; the mover uses its direction
  float max_slope = 0.7853982f;  // rad, in [0, pi/2]: 45 degrees
  // m, >= 0: a character on the ground whose walk is stopped by a wall or a slope too steep
  // tries the walk again raised by this much and lands on what it finds: ledges at most this
  // high are stepped up. 0: no stepping.
  float step_height = 0.0f;
  // m, >= 0: a character on the ground that walks off it (not rising) is pulled down onto
  // ground found within this distance, so it follows slopes and steps down rather than
  // leaving them.
  float snap_distance = 0.0f;
  // m, in [1 mm, capsule radius]: the gap kept between the capsule and everything, so that
  // sliding along a surface never starts a cast touching it.
  float skin = 0.01f;
  int max_iterations = 8;  // casts of one slide, in [1, 100]
  ShapeFilter filter;      // what the capsule collides with (sensors never)
};

// A surface the move pressed against or slid along: its outward normal, the point of the shape
// it was met at, and that shape and its body.
struct MoverPlane {
  Vec2 normal;
  Vec2 point;
  BodyId body;
  ShapeId shape;
};

struct MoveResult {
  Vec2 translation;  // the motion made: the caller adds it to the character's position
  Capsule capsule;   // the capsule where the move ended
  // Ground within two skins of the capsule at the end, the most upward-facing one: its normal,
  // the point of it nearest the capsule, its shape and body (none when not on ground). A
  // program may press this body with the character's weight (apply_force_at).
  bool on_ground = false;
  Vec2 ground_normal;
  Vec2 ground_point;
  BodyId ground_body;
  ShapeId ground_shape;
  bool stepped = false;  // the move stepped up (MoverSettings::step_height)
  // Every surface met, in order: the ones within two skins at the start, then each cast's hit.
  std::vector<MoverPlane> planes;
};

}  // namespace strut
