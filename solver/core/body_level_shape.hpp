// The one place that reads BodyDef's deprecated body-level single shape (`shape`, `material`,
// `category`, `mask`, `group`, `sensor`; strut/body.hpp): a body given that way is checked with
// its old messages (body_validate.cpp reads it as body_level_shape) and then created as the
// one-item `shapes` it describes (with_shapes), so the rest of the engine sees `shapes` only.
// The snapshot keeps the fields' bytes (for_each_field) so its layout does not change. The
// pragmas silence the deprecation warnings here only, since these reads are the conversion.
// Removed with the fields in the next release.
#pragma once

#include <utility>

#include "strut/body.hpp"

namespace strut {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// The body-level single shape as a ShapeDef: ShapeDef{} when the body gives none.
inline ShapeDef body_level_shape(const BodyDef& def) {
  ShapeDef one;
  one.shape = def.shape;
  one.material = def.material;
  one.filter = ShapeFilter{def.category, def.mask, def.group};
  one.sensor = def.sensor;
  return one;
}

// `def` with its shapes in `shapes` only: a body-level single shape becomes shapes[0] and the
// body-level fields return to their defaults.
inline BodyDef with_shapes(BodyDef def) {
  if (!def.shapes.empty()) return def;
  def.shapes = {body_level_shape(def)};
  const BodyDef defaults;
  def.shape = defaults.shape, def.material = defaults.material;
  def.category = defaults.category, def.mask = defaults.mask, def.group = defaults.group;
  def.sensor = defaults.sensor;
  return def;
}

// For solver/core/field_archive.hpp (see solver/core/public_fields.hpp): the snapshot keeps the
// deprecated fields' place in its layout.
template <class F>
void for_each_field(BodyDef& d, F&& f) {
  f(d.shape), f(d.shapes), f(d.center), f(d.angle), f(d.velocity), f(d.angular_velocity);
  f(d.material), f(d.is_static), f(d.is_kinematic), f(d.gravity_scale), f(d.linear_drag);
  f(d.angular_drag), f(d.fixed_rotation), f(d.lock_x), f(d.lock_y), f(d.category), f(d.mask),
      f(d.group), f(d.sensor);
  f(d.bullet), f(d.soft), f(d.enable_sleep), f(d.awake), f(d.user_data);
}

#pragma GCC diagnostic pop

}  // namespace strut
