// A body's origin, apart from its centre of mass (World::origin_transform, local_center,
// set_origin_transform): the pose is stored at the centre of mass, and the origin is the centre
// less the centre's offset in the body's frame (BodyCold::com_offset, set when the shapes are).
#include <cmath>

#include "solver/shapes/shape_checks.hpp"
#include "solver/world_state.hpp"
#include "strut/limits.hpp"

namespace strut {

Vec2 World::local_center(BodyId id) const {
  const auto& w = *state_;
  return w.bodies.cold[w.dense_of(id, "local_center")].com_offset;
}

Transform World::origin_transform(BodyId id) const {
  const auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "origin_transform");
  const Rot r{w.bodies.qc[k], w.bodies.qs[k]};
  return {Vec2{w.bodies.px[k], w.bodies.py[k]} - rotate(r, w.bodies.cold[k].com_offset),
          angle_of(r)};
}

void World::set_origin_transform(BodyId id, Vec2 origin, float angle) {
  const auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "set_origin_transform");
  if (!is_finite(origin)) throw Error("set_origin_transform: origin is not a finite number");
  if (!std::isfinite(angle)) throw Error("set_origin_transform: angle is not a finite number");
  // The centre is what set_transform places and checks against the coordinate limit; checked
  // here first so that the message names this call's field.
  const Vec2 centre = origin + rotate(make_rot(angle), w.bodies.cold[k].com_offset);
  if (std::fabs(centre.x) > limits::kMaxCoordinate || std::fabs(centre.y) > limits::kMaxCoordinate)
    throw Error("set_origin_transform: origin puts the centre of mass at (" +
                shapes::number_text(centre.x) + ", " + shapes::number_text(centre.y) +
                "), beyond the limit of " + shapes::number_text(limits::kMaxCoordinate) +
                " m (strut/limits.hpp)");
  set_transform(id, centre, angle);
}

}  // namespace strut
