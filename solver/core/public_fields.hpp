// The members of the public definition structs that hold more than plain bytes, for
// solver/core/field_archive.hpp (the others, and JointDef's alternatives, are trivially copyable
// and stored as their bytes). Free functions: the public headers carry no internal members.
#pragma once

#include "solver/core/body_level_shape.hpp"
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
// for_each_field(BodyDef&) is in solver/core/body_level_shape.hpp, with the deprecated fields.

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
