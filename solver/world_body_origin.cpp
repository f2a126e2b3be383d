// A body's origin, apart from its centre of mass (World::origin_transform, local_center,
// set_origin_transform): the pose is stored at the centre of mass, and the origin is the centre
// less the centre's offset in the body's frame (BodyCold::com_offset, set when the shapes are).
#include "solver/world_impl.hpp"

namespace strut {

Vec2 World::local_center(BodyId id) const {
  const auto& w = *impl_;
  return w.cold[w.dense_of(id, "local_center")].com_offset;
}

Transform World::origin_transform(BodyId id) const {
  const auto& w = *impl_;
  const std::uint32_t k = w.dense_of(id, "origin_transform");
  const Rot r{w.bodies.qc[k], w.bodies.qs[k]};
  return {Vec2{w.bodies.px[k], w.bodies.py[k]} - rotate(r, w.cold[k].com_offset), angle_of(r)};
}

void World::set_origin_transform(BodyId id, Vec2 origin, float angle) {
  const auto& w = *impl_;
  const std::uint32_t k = w.dense_of(id, "set_origin_transform");
  if (!std::isfinite(angle) || !std::isfinite(origin.x) || !std::isfinite(origin.y))
    throw Error("set_origin_transform: origin and angle must be finite numbers");
  // set_transform checks the centre against the coordinate limit and does the rest.
  set_transform(id, origin + rotate(make_rot(angle), w.cold[k].com_offset), angle);
}

}  // namespace strut
