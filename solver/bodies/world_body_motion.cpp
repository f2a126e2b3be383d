// World calls that drive a body's motion over the next step: angular drag and a target pose.
#include <cmath>
#include <string>

#include "solver/shapes/shape_checks.hpp"
#include "solver/step/visited_bodies.hpp"
#include "solver/world_state.hpp"
#include "strut/world.hpp"

namespace strut {

void World::set_angular_drag(BodyId id, float drag) {
  if (!std::isfinite(drag)) throw Error("set_angular_drag: drag is not a finite number");
  if (drag < 0) throw Error("set_angular_drag: drag must not be negative");
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "set_angular_drag");
  w.bodies.angular_drag[k] = drag;
  mark_body_edited(w, k);
}

void World::set_target_transform(BodyId id, Transform target, float dt) {
  if (!is_finite(target.position) || !std::isfinite(target.angle))
    throw Error("set_target_transform: target is not a finite transform");
  if (!std::isfinite(dt) || dt <= 0)
    throw Error("set_target_transform: dt must be a positive finite number, got " +
                shapes::number_text(dt));
  const Transform now = transform(id);  // checks the id
  float turn = target.angle - now.angle;
  turn = std::remainder(turn, 2.0f * float(M_PI));  // the short way round
  set_linear_velocity(id, (1.0f / dt) * (target.position - now.position));
  set_angular_velocity(id, turn / dt);
}

}  // namespace strut
