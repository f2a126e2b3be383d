// Small value types shared by the public API: vectors, transforms, boxes.
#pragma once

#include <cmath>

namespace strut {

struct Vec2 {
  float x = 0.0f;
  float y = 0.0f;
};

constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
constexpr Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
constexpr Vec2 operator*(float s, Vec2 a) { return {s * a.x, s * a.y}; }
constexpr Vec2 operator*(Vec2 a, float s) { return {s * a.x, s * a.y}; }
constexpr Vec2& operator+=(Vec2& a, Vec2 b) {
  a.x += b.x;
  a.y += b.y;
  return a;
}
constexpr Vec2& operator-=(Vec2& a, Vec2 b) {
  a.x -= b.x;
  a.y -= b.y;
  return a;
}
constexpr bool operator==(Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }
constexpr float dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
// z component of the 3D cross product.
constexpr float cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
// Counter-clockwise perpendicular.
constexpr Vec2 perp(Vec2 a) { return {-a.y, a.x}; }
inline float length(Vec2 a) { return std::sqrt(dot(a, a)); }
inline bool is_finite(Vec2 a) { return std::isfinite(a.x) && std::isfinite(a.y); }

// Rotation as a unit complex number (cos, sin).
struct Rot {
  float c = 1.0f;
  float s = 0.0f;
};
inline Rot make_rot(float angle) { return {std::cos(angle), std::sin(angle)}; }
constexpr Vec2 rotate(Rot q, Vec2 v) { return {q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y}; }
constexpr Vec2 inv_rotate(Rot q, Vec2 v) { return {q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y}; }
inline float angle_of(Rot q) { return std::atan2(q.s, q.c); }
// Rotation by a small angle (|a| well below 1) from its Taylor series to fifth order: no sin/cos
// in the per-substep integration, and the angle error (a^7/5040) stays far below float rounding
// for the turns a body makes in one substep.
constexpr Rot rot_of_small_angle(float a) {
  const float a2 = a * a;
  return {1.0f - a2 * (0.5f - a2 * (1.0f / 24.0f)),
          a * (1.0f - a2 * (1.0f / 6.0f - a2 * (1.0f / 120.0f)))};
}

// Pose of a body: centre of mass and rotation angle (radians, counter-clockwise).
struct Transform {
  Vec2 position;
  float angle = 0.0f;
};

struct Aabb {
  Vec2 lower;
  Vec2 upper;
};

}  // namespace strut
