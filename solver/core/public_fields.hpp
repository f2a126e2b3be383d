// The members of the public definition structs that hold more than plain bytes, for
// solver/core/field_archive.hpp (the others, and JointDef's alternatives, are trivially copyable
// and stored as their bytes). Free functions: the public headers carry no internal members.
#pragma once

#include "strut/body.hpp"
#include "strut/shape.hpp"
#include "strut/tile_map.hpp"

namespace strut {

template <class F>
void for_each_field(PolygonShape& s, F&& f) {
  f(s.vertices), f(s.radius);
}
template <class F>
void for_each_field(ChainShape& s, F&& f) {
  f(s.points), f(s.loop);
}
template <class F>
void for_each_field(ShapeDef& d, F&& f) {
  f(d.shape), f(d.offset), f(d.angle), f(d.material), f(d.filter), f(d.sensor);
  f(d.tangent_speed), f(d.rolling_resistance), f(d.custom_filter), f(d.pre_solve);
  f(d.user_data);
}
template <class F>
void for_each_field(BodyDef& d, F&& f) {
  f(d.shape), f(d.shapes), f(d.center), f(d.angle), f(d.velocity), f(d.angular_velocity);
  f(d.material), f(d.is_static), f(d.is_kinematic), f(d.gravity_scale), f(d.linear_drag);
  f(d.angular_drag), f(d.fixed_rotation), f(d.lock_x), f(d.lock_y), f(d.category), f(d.mask),
      f(d.group), f(d.sensor);
  f(d.bullet), f(d.soft), f(d.enable_sleep), f(d.awake), f(d.user_data);
}

template <class F>
void for_each_field(TileMapDef& d, F&& f) {
  f(d.origin), f(d.tile_size), f(d.rows), f(d.cols), f(d.tiles), f(d.materials);
  f(d.floor_gravity), f(d.floor_stop_speed);
}
template <class F>
void for_each_field(TileMap& m, F&& f) {
  f(m.body), f(m.tile_shapes);
}

}  // namespace strut
