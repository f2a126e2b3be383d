// Fuzz target: the bytes are a program of World calls with arbitrary numbers (raw float bits,
// so NaN, infinities and extremes, or small readable values) and arbitrary ids, including
// destroyed ones and ids of the wrong kind. Every call either succeeds or throws strut::Error;
// after every step all body states are finite.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz/fuzz_check.hpp"
#include "strut/world.hpp"

namespace {

using namespace strut;

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool empty() const { return pos_ >= size_; }
  std::size_t position() const { return pos_; }
  std::uint8_t u8() { return pos_ < size_ ? data_[pos_++] : 0; }
  // Half the time a raw float (any bit pattern), otherwise a small value k / 8 or a power of ten.
  float number() {
    const std::uint8_t kind = u8();
    if (kind < 96) {
      std::uint32_t bits = 0;
      for (int i = 0; i < 4; ++i) bits = (bits << 8) | u8();
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    if (kind < 224) return float(std::int8_t(u8())) / 8.0f;
    const int exponent = int(u8() % 80) - 40;
    return (kind & 1 ? -1.0f : 1.0f) * std::pow(10.0f, float(exponent));
  }
  Vec2 vec2() { return {number(), number()}; }

 private:
  const std::uint8_t* data_;
  std::size_t size_, pos_ = 0;
};

Shape shape(Bytes& in) {
  switch (in.u8() % 3) {
    case 0:
      return BoxShape{in.vec2()};
    case 1:
      return CircleShape{in.number()};
    default: {
      PolygonShape p;
      const int n = in.u8() % 18;
      for (int i = 0; i < n; ++i) p.vertices.push_back(in.vec2());
      return p;
    }
  }
}

Material material(Bytes& in) {
  Material m{in.number(), in.number(), std::nullopt, in.number()};
  if (in.u8() & 1) m.static_friction = in.number();
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  WorldConfig config;
  config.threads = 1;
  config.substeps = 1 + in.u8() % 8;
  World world(config);
  std::vector<BodyId> bodies;  // every id ever made, destroyed ones included
  std::vector<JointId> joints;
  auto body = [&] { return bodies.empty() ? BodyId{} : bodies[in.u8() % bodies.size()]; };
  auto joint = [&] { return joints.empty() ? JointId{} : joints[in.u8() % joints.size()]; };
  int steps = 0;
  // STRUT_FUZZ_TRACE=1 prints each call's opcode and outcome (to read a crash input).
  static const bool trace = std::getenv("STRUT_FUZZ_TRACE") != nullptr;
  while (!in.empty() && steps < 40) {
    const int op = in.u8() % 28;
    // Operands read up front in a fixed order: a call's arguments are evaluated in an order the
    // compiler chooses (GCC and clang differ), which would make an input mean different calls.
    // The create and joint cases read their own fields, in statement order.
    const bool reads_operands = op >= 3 && op != 16 && op != 17;  // not create, joints
    BodyId id;
    Vec2 a, b;
    float x = 0;
    std::uint8_t byte = 0;
    if (reads_operands) {
      id = body();
      a = in.vec2();
      b = in.vec2();
      x = in.number();
      byte = in.u8();
    }
    try {
      switch (op) {
        case 0:
        case 1:
        case 2: {
          BodyDef d;
          d.shape = shape(in);
          d.center = in.vec2();
          d.angle = in.number();
          const std::uint8_t flags = in.u8();
          if (flags & 1) d.velocity = in.vec2();
          if (flags & 2) d.angular_velocity = in.number();
          if (flags & 4) d.material = material(in);
          d.is_static = flags & 8;
          d.is_kinematic = flags & 16;
          d.bullet = flags & 32;
          if (flags & 64) d.soft = in.number();
          if (flags & 128) d.gravity_scale = in.number(), d.linear_drag = in.number();
          bodies.push_back(world.create_body(d));
          break;
        }
        case 3:
          world.destroy_body(id);
          break;
        case 4:
          world.set_linear_velocity(id, a);
          break;
        case 5:
          world.set_angular_velocity(id, x);
          break;
        case 6:
          world.set_transform(id, a, x);
          break;
        case 7:
          world.apply_force(id, a);
          break;
        case 8:
          world.apply_force_at(id, a, b);
          break;
        case 9:
          world.apply_torque(id, x);
          break;
        case 10:
          world.apply_impulse(id, a, b);
          break;
        case 11:
          world.set_gravity(a);
          break;
        case 12:
          world.set_substeps(int(byte) - 8);
          break;
        case 13:
        case 14:
        case 15: {
          world.step(byte & 1 ? 1.0f / 60 : x);
          ++steps;
          fuzz::require_finite_state(world);
          break;
        }
        case 16: {
          // Distance, revolute or weld, from the same bytes in the same order whatever the type
          // (length, range and compliance feed a distance joint; a revolute joint takes the
          // range as angle limits, a weld ignores them).
          const int type = in.u8() % 3;
          const BodyId a = body(), b = body();
          const Vec2 anchor_a = in.vec2(), anchor_b = in.vec2();
          DistanceJointDef d;
          d.a = a, d.b = b, d.anchor_a = anchor_a, d.anchor_b = anchor_b;
          if (in.u8() & 1) d.length = in.number();
          if (in.u8() & 1) d.min_length = in.number(), d.max_length = in.number();
          if (in.u8() & 1) d.compliance = in.number();
          JointDef j = d;
          if (type == 1) {
            RevoluteJointDef r;
            r.a = a, r.b = b, r.anchor = anchor_a;
            if (d.min_length != -1.0f) r.limit = JointLimit{true, d.min_length, d.max_length};
            j = r;
          } else if (type == 2) {
            WeldJointDef weld;
            weld.a = a, weld.b = b, weld.anchor = anchor_a;
            j = weld;
          }
          if (trace)
            std::fprintf(stderr,
                         "  joint type %d a %u b %u anchors (%g, %g) (%g, %g) length %g [%g, %g] "
                         "c %g\n",
                         type, a.index, b.index, anchor_a.x, anchor_a.y, anchor_b.x, anchor_b.y,
                         d.length, d.min_length, d.max_length, d.compliance);
          joints.push_back(world.create_joint(j));
          break;
        }
        case 17:
          world.destroy_joint(joint());
          break;
        case 18: {
          const Material m = material(in);
          world.set_material(id, m);
          break;
        }
        case 19:
          world.set_filter(id, byte, std::uint32_t(byte) * 0x01010101u);
          break;
        case 20:
          world.set_type(id, BodyType(byte % 3));
          break;
        case 21:
          world.put_to_sleep(id);
          break;
        case 22:
          world.set_sleep_enabled(id, byte & 1);
          world.wake(id);
          break;
        case 23:
          world.query_aabb(Aabb{a, b}, byte);
          break;
        case 24:
          world.query_point(a);
          world.ray_cast_all(a, b);
          break;
        case 25: {
          const Shape s = shape(in);
          world.query_shape(s, Transform{a, x});
          break;
        }
        case 26:
          world.interpolated_transform(id, x);
          world.definition(id);
          break;
        default:
          world.set_linear_drag(id, x);
          world.set_gravity_scale(id, b.x);
          break;
      }
      if (trace) std::fprintf(stderr, "op %d: ok (byte %zu)\n", op, in.position());
    } catch (const Error& e) {
      // Rejected with a message: the expected outcome for bad input.
      if (trace) std::fprintf(stderr, "op %d: %s (byte %zu)\n", op, e.what(), in.position());
    }
    if (trace)
      for (const BodyId id : world.bodies()) {
        const Transform t = world.transform(id);
        const Vec2 v = world.linear_velocity(id);
        std::fprintf(stderr, "  body %u: p (%g, %g) a %g v (%g, %g) w %g m %g I %g%s\n", id.index,
                     t.position.x, t.position.y, t.angle, v.x, v.y, world.angular_velocity(id),
                     world.mass(id), world.inertia(id), world.is_sleeping(id) ? " asleep" : "");
        for (const Vec2 v : world.state(id).vertices)
          std::fprintf(stderr, "    (%.9g, %.9g)\n", v.x, v.y);
        const BodyDef d = world.definition(id);
        std::fprintf(stderr, "    static %d kinematic %d soft %g radius %g\n", d.is_static,
                     d.is_kinematic, d.soft, world.state(id).radius);
      }
  }
  return 0;
}
