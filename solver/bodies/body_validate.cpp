// Validation of body definitions: everything is checked before anything is created, so a
// rejected call leaves the world exactly as it was. The shape kinds check their own fields
// through the shape table (solver/shapes/shape_table.cpp); this file adds what depends on the
// body: which kinds its type allows, the compound rules and the mass limits on all its shapes
// together.
#include "solver/bodies/body_validate.hpp"

#include <cmath>
#include <string>

#include "solver/core/body_level_shape.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "solver/shapes/shape_ops.hpp"
#include "strut/body.hpp"
#include "strut/error.hpp"
#include "strut/limits.hpp"

namespace strut {
namespace {

using shapes::area_of;
using shapes::check_at_most;
using shapes::check_coordinate;
using shapes::check_finite;
using shapes::is_rounded;
using shapes::number_text;
using shapes::size_field_of;

void check_kind_for_body(ShapeKind kind, bool dynamic, bool is_static, const std::string& field) {
  if (dynamic && kind == ShapeKind::Segment)
    throw Error(field + ": a segment has no area, so no mass: it needs a static or kinematic body");
  if (dynamic && kind == ShapeKind::Chain)
    throw Error(field + ": a chain has no area, so no mass: it needs a static body");
  if (!is_static && kind == ShapeKind::Chain) throw Error(field + ": a chain needs a static body");
}

void check_mass(double mass, const std::string& field, const char* what) {
  if (!(mass >= limits::kMinMass && mass <= limits::kMaxMass))
    throw Error(field + ": mass " + number_text(float(mass)) + " kg (" + what + ") is outside [" +
                number_text(limits::kMinMass) + ", " + number_text(limits::kMaxMass) +
                "] kg (strut/limits.hpp)");
}

// A body given by `shapes`: its own (deprecated) shape fields stay at their defaults, each shape
// is checked with its index, and the mass limits apply to the sum of the shapes' masses.
void validate_compound(const BodyDef& def, const ShapeDef& own, bool dynamic) {
  const BoxShape* own_box = std::get_if<BoxShape>(&own.shape);
  const BoxShape box_default;
  if (!own_box || !(own_box->half_extents == box_default.half_extents) || own_box->radius != 0.0f ||
      !(own.material == Material{}) || own.filter.category != 1u ||
      own.filter.mask != 0xFFFFFFFFu || own.filter.group != 0 || own.sensor)
    throw Error(
        "shapes: a body with `shapes` has its shape, material, category, mask, group "
        "and sensor per shape; leave the body's own at their defaults");
  if (def.soft > 0) {
    if (def.shapes.size() != 1 || kind_of(def.shapes[0].shape) != ShapeKind::Polygon)
      throw Error("soft: a soft body has exactly one polygon shape");
    if (is_rounded(def.shapes[0].shape)) throw Error("soft: a rounded polygon cannot be soft");
  }
  double mass = 0.0;
  for (std::size_t i = 0; i < def.shapes.size(); ++i) {
    const ShapeDef& s = def.shapes[i];
    const std::string field = "shapes[" + std::to_string(i) + "]";
    try {
      shapes::validate(s, dynamic, def.is_static);
    } catch (const Error& e) {
      throw Error(field + "." + e.what());
    }
    check_kind_for_body(kind_of(s.shape), dynamic, def.is_static, field + ".shape");
    mass += double(s.material.density) * area_of(s.shape);
  }
  if (dynamic) check_mass(mass, "shapes", "the shapes' density x area, summed");
}

}  // namespace

void validate_body_def(const BodyDef& def) { validate_body_def(def, body_level_shape(def)); }

void validate_body_def(const BodyDef& def, const ShapeDef& own) {
  check_coordinate(def.center, "center");
  check_finite(def.angle, "angle");
  check_finite(def.velocity, "velocity");
  check_at_most(std::fmax(std::fabs(def.velocity.x), std::fabs(def.velocity.y)), limits::kMaxSpeed,
                "velocity", "m/s");
  check_finite(def.angular_velocity, "angular_velocity");
  check_at_most(def.angular_velocity, limits::kMaxAngularSpeed, "angular_velocity", "rad/s");
  if (def.is_static && (def.velocity != Vec2{} || def.angular_velocity != 0))
    throw Error(def.velocity != Vec2{} ? "velocity: a static body cannot move (make it kinematic)"
                                       : "angular_velocity: a static body cannot move (make it "
                                         "kinematic)");
  check_finite(def.gravity_scale, "gravity_scale");
  check_at_most(def.gravity_scale, limits::kMaxGravityScale, "gravity_scale", "");
  check_finite(def.linear_drag, "linear_drag");
  if (def.linear_drag < 0) throw Error("linear_drag: must not be negative");
  check_finite(def.angular_drag, "angular_drag");
  if (def.angular_drag < 0) throw Error("angular_drag: must not be negative");
  if (def.fixed_rotation && def.soft > 0)
    throw Error("fixed_rotation: a soft body has no rotation to fix");
  if (def.lock_x && def.soft > 0) throw Error("lock_x: a soft body cannot be locked (rigid only)");
  if (def.lock_y && def.soft > 0) throw Error("lock_y: a soft body cannot be locked (rigid only)");
  check_finite(def.soft, "soft");
  if (def.soft < 0) throw Error("soft: compliance must not be negative");
  check_at_most(def.soft, limits::kMaxCompliance, "soft", "m/N");
  if (def.is_static && def.is_kinematic)
    throw Error("is_kinematic: a body cannot be both static and kinematic");
  validate_material(own.material, "material");
  const bool dynamic = !def.is_static && !def.is_kinematic;
  if (!def.awake) {
    if (!dynamic) throw Error("awake: only a dynamic body can be created asleep");
    if (!def.enable_sleep)
      throw Error("awake: false with enable_sleep false (it could never sleep)");
    if (def.velocity != Vec2{} || def.angular_velocity != 0)
      throw Error("awake: a body created asleep must be at rest (velocity and angular_velocity 0)");
  }
  if (dynamic && own.material.density <= 0)
    throw Error("material.density: must be positive on a dynamic body, got " +
                shapes::number_text(own.material.density));
  if (!def.shapes.empty()) {
    validate_compound(def, own, dynamic);
    return;
  }
  shapes::validate_fields(own.shape, "");
  const ShapeKind kind = kind_of(own.shape);
  check_kind_for_body(kind, dynamic, def.is_static, "shape");
  if (def.soft > 0 && kind != ShapeKind::Polygon) throw Error("soft: only polygons can be soft");
  if (def.soft > 0 && is_rounded(own.shape)) throw Error("soft: a rounded polygon cannot be soft");
  // In double: a float product can underflow to 0 or overflow to infinity, which is exactly
  // what this check is for.
  if (dynamic)
    check_mass(double(own.material.density) * area_of(own.shape), size_field_of(own.shape),
               "density x area");
}

}  // namespace strut
