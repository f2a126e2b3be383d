#include "solver/shapes/shape_checks.hpp"

#include <cmath>
#include <cstdio>

#include "strut/error.hpp"
#include "strut/limits.hpp"

namespace strut::shapes {

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

void check_finite(float v, const std::string& field) {
  if (!std::isfinite(v)) throw Error(field + ": not a finite number");
}

void check_finite(Vec2 v, const std::string& field) {
  if (!is_finite(v)) throw Error(field + ": not a finite number");
}

void check_at_most(float v, float limit, const std::string& field, const char* unit) {
  if (std::fabs(v) > limit)
    throw Error(field + ": " + number_text(v) + " exceeds the limit of " + number_text(limit) +
                " " + unit + " (strut/limits.hpp)");
}

void check_size(float v, const std::string& field) {
  check_finite(v, field);
  if (!(v >= limits::kMinSize && v <= limits::kMaxSize))
    throw Error(field + ": " + number_text(v) + " m is outside [" + number_text(limits::kMinSize) +
                ", " + number_text(limits::kMaxSize) + "] m (strut/limits.hpp)");
}

void check_extent(Vec2 v, const std::string& field) {
  check_finite(v, field);
  check_at_most(std::fmax(std::fabs(v.x), std::fabs(v.y)), limits::kMaxSize, field, "m");
}

void check_coordinate(Vec2 v, const std::string& field) {
  check_finite(v, field);
  check_at_most(std::fmax(std::fabs(v.x), std::fabs(v.y)), limits::kMaxCoordinate, field, "m");
}

}  // namespace strut::shapes
