// Validation of body definitions: everything is checked before anything is created, so a
// rejected call leaves the world exactly as it was.
#include <cmath>
#include <cstdio>
#include <string>

#include "solver/polygon_geometry.hpp"
#include "strut/body.hpp"
#include "strut/error.hpp"
#include "strut/limits.hpp"

namespace strut {
namespace {

void check_finite(float v, const char* field) {
  if (!std::isfinite(v)) throw Error(std::string(field) + ": not a finite number");
}
void check_finite(Vec2 v, const char* field) {
  if (!is_finite(v)) throw Error(std::string(field) + ": not a finite number");
}
std::string number_text(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", double(v));
  return buf;
}
void check_at_most(float v, float limit, const char* field, const char* unit) {
  if (std::fabs(v) > limit)
    throw Error(std::string(field) + ": " + number_text(v) + " exceeds the limit of " +
                number_text(limit) + " " + unit + " (strut/limits.hpp)");
}
void check_size(float v, const char* field) {
  check_finite(v, field);
  if (!(v >= limits::kMinSize && v <= limits::kMaxSize))
    throw Error(std::string(field) + ": " + number_text(v) + " m is outside [" +
                number_text(limits::kMinSize) + ", " + number_text(limits::kMaxSize) +
                "] m (strut/limits.hpp)");
}
void check_coordinate(Vec2 v, const char* field) {
  check_finite(v, field);
  check_at_most(std::fmax(std::fabs(v.x), std::fabs(v.y)), limits::kMaxCoordinate, field, "m");
}

}  // namespace

void validate_body_def(const BodyDef& def) {
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
  check_finite(def.soft, "soft");
  if (def.soft < 0) throw Error("soft: compliance must not be negative");
  if (def.is_static && def.is_kinematic)
    throw Error("is_kinematic: a body cannot be both static and kinematic");
  validate_material(def.material, "material");
  const bool dynamic = !def.is_static && !def.is_kinematic;
  if (dynamic && def.material.density <= 0)
    throw Error("material.density: must be positive on a dynamic body, got " +
                std::to_string(def.material.density));
  if (std::holds_alternative<CapsuleShape>(def.shape) ||
      std::holds_alternative<SegmentShape>(def.shape) ||
      std::holds_alternative<ChainShape>(def.shape))
    throw Error("shape: capsules, segments and chains are not supported yet");
  if (!def.shapes.empty()) return;  // INTERIM: compound validation lands with the shape kinds
  if (const auto* box = std::get_if<BoxShape>(&def.shape); box && box->radius != 0)
    throw Error("shape.radius: rounded boxes are not supported yet");
  if (const auto* poly = std::get_if<PolygonShape>(&def.shape); poly && poly->radius != 0)
    throw Error("shape.radius: rounded polygons are not supported yet");
  float area = 0;
  const char* size_field = "";
  if (const auto* box = std::get_if<BoxShape>(&def.shape)) {
    check_size(box->half_extents.x, "half_extents.x");
    check_size(box->half_extents.y, "half_extents.y");
    area = 4.0f * box->half_extents.x * box->half_extents.y;
    size_field = "half_extents";
  } else if (const auto* circle = std::get_if<CircleShape>(&def.shape)) {
    check_size(circle->radius, "radius");
    if (def.soft > 0) throw Error("soft: only polygons can be soft");
    area = float(M_PI) * circle->radius * circle->radius;
    size_field = "radius";
  } else {
    const auto& poly = std::get<PolygonShape>(def.shape);
    for (const Vec2 v : poly.vertices)
      check_at_most(std::fmax(std::fabs(v.x), std::fabs(v.y)), limits::kMaxSize, "vertices", "m");
    area = polygon_mass(make_convex_ccw(poly.vertices, "vertices")).area;
    if (!(std::sqrt(area) >= limits::kMinSize))
      throw Error("vertices: polygon of area " + number_text(area) + " m^2 is smaller than " +
                  number_text(limits::kMinSize) + " m square (strut/limits.hpp)");
    size_field = "vertices";
  }
  if (dynamic) {
    // In double: a float product can underflow to 0 or overflow to infinity, which is exactly
    // what this check is for.
    const double mass = double(def.material.density) * double(area);
    if (!(mass >= limits::kMinMass && mass <= limits::kMaxMass))
      throw Error(std::string(size_field) + ": mass " + number_text(float(mass)) +
                  " kg (density x area) is outside [" + number_text(limits::kMinMass) + ", " +
                  number_text(limits::kMaxMass) + "] kg (strut/limits.hpp)");
  }
}

}  // namespace strut
