#include "solver/shapes/shape_checks.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "strut/error.hpp"
#include "strut/limits.hpp"

namespace strut::shapes {

// %g's six significant digits when they give the number back as a float, more when it needs them:
// 4000 stays "4000" but 4000.0002 (the float just past a 4,000 m limit) is no longer "4000". A
// value computed in double gets the digits of the float nearest it (a speed of 12349.9998 that a
// float impulse gave reads 12350).
std::string number_text(double v) {
  char digits[64];
  const char* end =
      std::to_chars(digits, digits + sizeof digits, float(v), std::chars_format::scientific).ptr;
  int significant = 0;
  for (const char* c = digits; c != end && *c != 'e'; ++c) significant += *c >= '0' && *c <= '9';
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", std::max(significant, 6), v);
  return text;
}

void check_finite(float v, const std::string& field) {
  if (!std::isfinite(v)) throw Error(field + ": not a finite number");
}

void check_finite(Vec2 v, const std::string& field) {
  if (!is_finite(v)) throw Error(field + ": not a finite number");
}

void check_step_dt(float dt, const std::string& call) {
  if (dt >= limits::kMinDt && dt <= limits::kMaxDt) return;  // false for NaN too
  throw Error(call + ": dt must be in [" + number_text(limits::kMinDt) + ", " +
              number_text(limits::kMaxDt) + "] s (strut/limits.hpp), got " + number_text(dt));
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

// The component farther out, with its sign (-4001 is reported as -4001).
void check_coordinate(Vec2 v, const std::string& field) {
  check_finite(v, field);
  check_at_most(std::fabs(v.x) >= std::fabs(v.y) ? v.x : v.y, limits::kMaxCoordinate, field, "m");
}

}  // namespace strut::shapes
