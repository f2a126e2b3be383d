// Validation of body definitions: everything is checked before anything is created, so a
// rejected call leaves the world exactly as it was.
#include <cmath>
#include <string>

#include "solver/polygon_geometry.hpp"
#include "strut/body.hpp"
#include "strut/error.hpp"

namespace strut {
namespace {

void check_finite(float v, const char* field) {
  if (!std::isfinite(v)) throw Error(std::string(field) + ": not a finite number");
}
void check_finite(Vec2 v, const char* field) {
  if (!is_finite(v)) throw Error(std::string(field) + ": not a finite number");
}
void check_positive(float v, const char* field) {
  check_finite(v, field);
  if (!(v > 0)) throw Error(std::string(field) + ": must be positive, got " + std::to_string(v));
}

}  // namespace

void validate_body_def(const BodyDef& def) {
  check_finite(def.center, "center");
  check_finite(def.angle, "angle");
  check_finite(def.velocity, "velocity");
  check_finite(def.angular_velocity, "angular_velocity");
  check_finite(def.gravity_scale, "gravity_scale");
  check_finite(def.linear_drag, "linear_drag");
  if (def.linear_drag < 0) throw Error("linear_drag: must not be negative");
  check_finite(def.angular_drag, "angular_drag");
  if (def.angular_drag < 0) throw Error("angular_drag: must not be negative");
  if (def.fixed_rotation && def.soft > 0)
    throw Error("fixed_rotation: a soft body has no rotation to fix");
  check_finite(def.soft, "soft");
  if (def.soft < 0) throw Error("soft: compliance must not be negative");
  if (def.is_static && def.is_kinematic)
    throw Error("is_kinematic: a body cannot be both static and kinematic");
  validate_material(def.material, "material");
  const bool dynamic = !def.is_static && !def.is_kinematic;
  if (dynamic && def.material.density <= 0)
    throw Error("material.density: must be positive on a dynamic body, got " +
                std::to_string(def.material.density));
  if (const auto* box = std::get_if<BoxShape>(&def.shape)) {
    check_positive(box->half_extents.x, "half_extents.x");
    check_positive(box->half_extents.y, "half_extents.y");
  } else if (const auto* circle = std::get_if<CircleShape>(&def.shape)) {
    check_positive(circle->radius, "radius");
    if (def.soft > 0) throw Error("soft: only polygons can be soft");
  } else {
    const auto& poly = std::get<PolygonShape>(def.shape);
    make_convex_ccw(poly.vertices, "vertices");
  }
}

}  // namespace strut
