// Fuzz target: the bytes are a program of World calls with arbitrary numbers (raw float bits,
// so NaN, infinities and extremes, or small readable values) and arbitrary ids, including
// destroyed ones and ids of the wrong kind. Every call either succeeds or throws strut::Error;
// after every step all body states are finite.
#include <cmath>
#include <cstdint>
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
  while (!in.empty() && steps < 40) {
    try {
      switch (in.u8() % 28) {
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
          world.destroy_body(body());
          break;
        case 4:
          world.set_linear_velocity(body(), in.vec2());
          break;
        case 5:
          world.set_angular_velocity(body(), in.number());
          break;
        case 6:
          world.set_transform(body(), in.vec2(), in.number());
          break;
        case 7:
          world.apply_force(body(), in.vec2());
          break;
        case 8:
          world.apply_force_at(body(), in.vec2(), in.vec2());
          break;
        case 9:
          world.apply_torque(body(), in.number());
          break;
        case 10:
          world.apply_impulse(body(), in.vec2(), in.vec2());
          break;
        case 11:
          world.set_gravity(in.vec2());
          break;
        case 12:
          world.set_substeps(int(in.u8()) - 8);
          break;
        case 13:
        case 14:
        case 15: {
          world.step(in.u8() & 1 ? 1.0f / 60 : in.number());
          ++steps;
          fuzz::require_finite_state(world);
          break;
        }
        case 16: {
          JointDef j;
          j.type = JointType(in.u8() % 3);
          j.a = body(), j.b = body();
          j.anchor_a = in.vec2(), j.anchor_b = in.vec2();
          if (in.u8() & 1) j.length = in.number();
          if (in.u8() & 1) j.min_length = in.number(), j.max_length = in.number();
          if (in.u8() & 1) j.compliance = in.number();
          joints.push_back(world.create_joint(j));
          break;
        }
        case 17:
          world.destroy_joint(joint());
          break;
        case 18:
          world.set_material(body(), material(in));
          break;
        case 19:
          world.set_filter(body(), in.u8(), in.u8());
          break;
        case 20:
          world.set_type(body(), BodyType(in.u8() % 3));
          break;
        case 21:
          world.put_to_sleep(body());
          break;
        case 22: {
          const BodyId id = body();
          world.set_sleep_enabled(id, in.u8() & 1);
          world.wake(id);
          break;
        }
        case 23:
          world.query_aabb(Aabb{in.vec2(), in.vec2()}, in.u8());
          break;
        case 24:
          world.query_point(in.vec2());
          world.ray_cast_all(in.vec2(), in.vec2());
          break;
        case 25:
          world.query_shape(shape(in), Transform{in.vec2(), in.number()});
          break;
        case 26:
          world.interpolated_transform(body(), in.number());
          world.definition(body());
          break;
        default:
          world.set_linear_drag(body(), in.number());
          world.set_gravity_scale(body(), in.number());
          break;
      }
    } catch (const Error&) {
      // Rejected with a message: the expected outcome for bad input.
    }
  }
  return 0;
}
