// How fuzz_api reads its bytes: numbers (raw float bits, so NaN, infinities and extremes, or
// small readable values), shapes of every kind, materials, filters and shape definitions. Every
// reader takes its bytes in statement order (never two reads in one call's arguments, whose
// evaluation order GCC and clang choose differently), so an input means the same calls in the
// replay build and the fuzzing build.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

#include "strut/body.hpp"
#include "strut/joint.hpp"
#include "strut/shape.hpp"

namespace strut::fuzz {

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool empty() const { return pos_ >= size_; }
  std::size_t position() const { return pos_; }
  std::uint8_t u8() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::uint32_t u32() {
    std::uint32_t bits = 0;
    for (int i = 0; i < 4; ++i) bits = (bits << 8) | u8();
    return bits;
  }
  // Half the time a raw float (any bit pattern), otherwise a small value k / 8 or a power of ten.
  float number() {
    const std::uint8_t kind = u8();
    if (kind < 96) {
      const std::uint32_t bits = u32();
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    if (kind < 224) return float(std::int8_t(u8())) / 8.0f;
    const int exponent = int(u8() % 80) - 40;
    return (kind & 1 ? -1.0f : 1.0f) * std::pow(10.0f, float(exponent));
  }
  Vec2 vec2() {
    const float x = number();
    const float y = number();
    return {x, y};
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_, pos_ = 0;
};

// A shape of any kind. A radius is given to boxes and polygons only when the kind byte asks,
// so most stay sharp (the common case) and rounded ones still come up.
inline Shape shape(Bytes& in) {
  const std::uint8_t kind = in.u8();
  switch (kind % 6) {
    case 0: {
      BoxShape box;
      box.half_extents = in.vec2();
      if (kind & 8) box.radius = in.number();
      return box;
    }
    case 1:
      return CircleShape{in.number()};
    case 2: {
      PolygonShape p;
      const int n = in.u8() % 18;
      for (int i = 0; i < n; ++i) p.vertices.push_back(in.vec2());
      if (kind & 8) p.radius = in.number();
      return p;
    }
    case 3: {
      CapsuleShape c;
      c.half_length = in.number();
      c.radius = in.number();
      return c;
    }
    case 4: {
      SegmentShape s;
      s.a = in.vec2();
      s.b = in.vec2();
      return s;
    }
    default: {
      ChainShape c;
      const int n = in.u8() % 20;
      for (int i = 0; i < n; ++i) c.points.push_back(in.vec2());
      c.loop = kind & 8;
      return c;
    }
  }
}

inline Material material(Bytes& in) {
  Material m;
  m.density = in.number();
  m.friction = in.number();
  m.restitution = in.number();
  if (in.u8() & 1) m.static_friction = in.number();
  return m;
}

// Mostly the default filter or a small group (so negative groups between shapes of one
// program come up), sometimes arbitrary bits.
inline ShapeFilter filter(Bytes& in) {
  const std::uint8_t kind = in.u8();
  ShapeFilter f;
  if (kind & 1) f.group = std::int8_t(in.u8()) % 4;
  if (kind & 2) {
    f.category = in.u32();
    f.mask = in.u32();
  }
  return f;
}

// A filter made from one byte already read (no bytes taken): categories, masks with and without
// bits in common, and groups from -4 to 3.
inline ShapeFilter filter_of(std::uint8_t byte) {
  ShapeFilter f;
  f.category = std::uint32_t(byte & 15) * 0x11111111u;
  f.mask = byte & 16 ? ~0u : std::uint32_t(byte) * 0x01010101u;
  f.group = std::int8_t(byte) >> 5;
  return f;
}

inline ShapeDef shape_def(Bytes& in) {
  ShapeDef d;
  d.shape = shape(in);
  const std::uint8_t flags = in.u8();
  if (flags & 1) d.offset = in.vec2();
  if (flags & 2) d.angle = in.number();
  if (flags & 4) d.material = material(in);
  if (flags & 8) d.filter = filter(in);
  d.sensor = flags & 16;
  d.user_data = flags;
  return d;
}

// A body of one shape or, when the flags ask, a compound of 1 to 4 shape definitions.
inline BodyDef body_def(Bytes& in) {
  BodyDef d;
  d.shapes = {ShapeDef{BoxShape{}}};
  const std::uint8_t flags = in.u8();
  if (flags & 1) {
    const int n = 1 + in.u8() % 4;
    for (int i = 0; i < n; ++i) d.shapes.push_back(shape_def(in));
  } else {
    d.shapes[0].shape = shape(in);
  }
  d.center = in.vec2();
  d.angle = in.number();
  if (flags & 2) d.velocity = in.vec2();
  if (flags & 4) d.angular_velocity = in.number();
  if (flags & 8) d.shapes[0].material = material(in);
  d.is_static = flags & 16;
  d.is_kinematic = flags & 32;
  const std::uint8_t more = in.u8();
  d.bullet = more & 1;
  d.fixed_rotation = more & 2;
  d.shapes[0].sensor = more & 4;
  d.enable_sleep = !(more & 8);
  if (more & 16) d.soft = in.number();
  if (more & 32) d.gravity_scale = in.number();
  if (more & 64) d.linear_drag = in.number();
  if (more & 128) d.shapes[0].filter.group = std::int8_t(in.u8()) % 4;
  return d;
}

inline JointLimit limit(Bytes& in) {
  JointLimit l;
  l.enabled = true;
  l.lower = in.number();
  l.upper = in.number();
  return l;
}
inline JointMotor motor(Bytes& in) {
  JointMotor m;
  m.enabled = true;
  m.speed = in.number();
  m.max_effort = in.number();
  return m;
}
inline JointSpring spring(Bytes& in) {
  JointSpring s;
  s.enabled = true;
  s.hertz = in.number();
  s.damping_ratio = in.number();
  return s;
}

// A joint of any of the seven types between a and b. The bytes are read in the same order
// whatever the type: two points, a number, then limit, motor and spring when the flags ask; each
// type takes the fields it has (a distance joint reads the limit as its length range).
inline JointDef joint_def(Bytes& in, BodyId a, BodyId b) {
  const std::uint8_t kind = in.u8();
  const Vec2 p = in.vec2();
  const Vec2 q = in.vec2();
  const float x = in.number();
  const std::uint8_t flags = in.u8();
  std::optional<JointLimit> lim;
  std::optional<JointMotor> mot;
  std::optional<JointSpring> spr;
  if (flags & 1) lim = limit(in);
  if (flags & 2) mot = motor(in);
  if (flags & 4) spr = spring(in);
  const bool collide = flags & 8;
  switch (kind % 7) {
    case 0: {
      DistanceJointDef d{.a = a, .b = b, .anchor_a = p, .anchor_b = q, .collide = collide};
      if (flags & 16) d.length = x;
      if (flags & 32) d.compliance = x;
      if (lim) d.min_length = lim->lower, d.max_length = lim->upper;
      if (spr) d.spring = *spr;
      return d;
    }
    case 1: {
      RevoluteJointDef r{.a = a, .b = b, .anchor = p, .collide = collide};
      if (flags & 16) r.reference_angle = x;
      if (lim) r.limit = *lim;
      if (mot) r.motor = *mot;
      if (spr) r.spring = *spr;
      return r;
    }
    case 2: {
      PrismaticJointDef s{.a = a, .b = b, .anchor = p, .axis = q, .collide = collide};
      if (lim) s.limit = *lim;
      if (mot) s.motor = *mot;
      if (spr) s.spring = *spr;
      return s;
    }
    case 3: {
      WheelJointDef w{.a = a, .b = b, .anchor = p, .axis = q, .collide = collide};
      if (lim) w.limit = *lim;
      if (mot) w.motor = *mot;
      if (spr) w.spring = *spr;
      return w;
    }
    case 4: {
      MouseJointDef m{.body = b, .target = q, .max_force = x};
      if (flags & 16) m.anchor = p;
      if (spr) m.hertz = spr->hertz, m.damping_ratio = spr->damping_ratio;
      return m;
    }
    case 5: {
      MotorJointDef m{
          .a = a, .b = b, .linear_offset = p, .angular_offset = q.x, .collide = collide};
      m.max_force = x;
      m.max_torque = q.y;
      return m;
    }
    default: {
      WeldJointDef w{.a = a, .b = b, .anchor = p, .collide = collide};
      if (flags & 16) w.reference_angle = x;
      if (spr)
        w.linear_hertz = spr->hertz, w.angular_hertz = q.x, w.damping_ratio = spr->damping_ratio;
      return w;
    }
  }
}

}  // namespace strut::fuzz
