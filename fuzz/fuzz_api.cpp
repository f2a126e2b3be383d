// Fuzz target: the bytes are a program of World calls (decoded by fuzz/api_decoder.hpp) with
// arbitrary numbers and arbitrary ids, including destroyed ones: bodies of every shape kind and
// compounds, shapes added and removed, joints of every type, run-time changes, every query (box,
// point, rays, and shape overlaps and casts with arbitrary shapes, poses, translations and
// filters), event reads and contact data. Every call either succeeds or throws strut::Error;
// after every step all body states are finite and every event names shapes that belong to the
// bodies it names; every query hit names a live shape of its body, at a fraction in [0, 1] with a
// unit normal.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fuzz/api_decoder.hpp"
#include "fuzz/fuzz_check.hpp"
#include "strut/world.hpp"

namespace {

using namespace strut;
using fuzz::Bytes;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  WorldConfig config;
  config.threads = 1;
  config.substeps = 1 + in.u8() % 8;
  World world(config);
  // Every id ever made, destroyed ones included.
  std::vector<BodyId> bodies;
  std::vector<ShapeId> shapes;
  std::vector<JointId> joints;
  auto body = [&] { return bodies.empty() ? BodyId{} : bodies[in.u8() % bodies.size()]; };
  auto shape_id = [&] { return shapes.empty() ? ShapeId{} : shapes[in.u8() % shapes.size()]; };
  auto joint = [&] { return joints.empty() ? JointId{} : joints[in.u8() % joints.size()]; };
  auto remember_shapes = [&](BodyId id) {
    for (const ShapeId s : world.shapes(id)) shapes.push_back(s);
  };
  int steps = 0;
  // STRUT_FUZZ_TRACE=1 prints each call's opcode and outcome (to read a crash input).
  static const bool trace = std::getenv("STRUT_FUZZ_TRACE") != nullptr;
  while (!in.empty() && steps < 40) {
    const int op = in.u8() % 36;
    // Operands read up front in a fixed order: a call's arguments are evaluated in an order the
    // compiler chooses (GCC and clang differ), which would make an input mean different calls.
    // Operations that build a definition read it themselves, in statement order.
    const bool reads_operands = op >= 3 && op != 16 && op != 17 && op < 28;
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
          const BodyDef d = fuzz::body_def(in);
          const BodyId made = world.create_body(d);
          bodies.push_back(made);
          remember_shapes(made);
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
          if (byte & 2) fuzz::require_consistent_events(world);
          break;
        }
        case 16: {
          const BodyId ja = body();
          const BodyId jb = body();
          const JointDef j = fuzz::joint_def(in, ja, jb);
          if (trace) std::fprintf(stderr, "  joint type %d\n", int(j.index()));
          joints.push_back(world.create_joint(j));
          break;
        }
        case 17:
          world.destroy_joint(joint());
          break;
        case 18: {
          const Material m = fuzz::material(in);
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
          fuzz::require_sane_hit(world, world.ray_cast(b, a, byte));
          break;
        case 25: {
          // Every shape query with one shape and pose; b is the cast's translation. Each runs
          // alone, so a rejected one does not hide the others.
          const Shape s = fuzz::shape(in);
          const Transform pose{a, x};
          const ShapeFilter f = fuzz::filter_of(byte);
          fuzz::rejected_or([&] { world.query_shape(s, pose, f.mask); });
          fuzz::rejected_or([&] {
            for (const ShapeId found : world.overlap_shape(s, pose, f))
              fuzz::require_live_shape(world, found);
          });
          fuzz::rejected_or([&] {
            const auto hit = world.cast_shape(s, pose, b, f);
            if (trace && hit)
              std::fprintf(stderr,
                           "  cast of kind %d at (%.9g, %.9g) %.9g by (%.9g, %.9g): shape %u "
                           "fraction %.9g point (%.9g, %.9g) normal (%.9g, %.9g)\n",
                           int(s.index()), a.x, a.y, x, b.x, b.y, hit->shape.index, hit->fraction,
                           hit->point.x, hit->point.y, hit->normal.x, hit->normal.y);
            if (trace && hit && std::holds_alternative<CapsuleShape>(s))
              std::fprintf(stderr, "  capsule %.9g %.9g\n", std::get<CapsuleShape>(s).half_length,
                           std::get<CapsuleShape>(s).radius);
            fuzz::require_sane_hit(world, hit);
          });
          break;
        }
        case 26:
          world.interpolated_transform(id, x);
          world.definition(id);
          world.state(id);
          world.type(id);
          world.is_awake(id);
          world.sleep_enabled(id);
          world.user_data(id);
          fuzz::require_sane_contacts(world, world.body_contacts(id));
          break;
        case 27:
          world.set_linear_drag(id, x);
          world.set_gravity_scale(id, b.x);
          world.set_angular_drag(id, a.y);
          break;
        case 28: {
          const BodyId to = body();
          const ShapeDef d = fuzz::shape_def(in);
          shapes.push_back(world.add_shape(to, d));
          break;
        }
        case 29:
          world.remove_shape(shape_id());
          break;
        case 30: {
          const ShapeId s = shape_id();
          const ShapeFilter f = fuzz::filter(in);
          world.set_filter(s, f);
          break;
        }
        case 31: {
          const ShapeId s = shape_id();
          world.definition(s);
          world.shapes(world.body_of(s));
          fuzz::require_sane_contacts(world, world.shape_contacts(s));
          fuzz::rejected_or([&] {
            for (const ShapeId inside : world.sensor_overlaps(s))
              fuzz::require_live_shape(world, inside);
          });
          break;
        }
        case 32: {
          const JointId j = joint();
          const JointLimit l = fuzz::limit(in);
          world.set_joint_limit(j, l);
          break;
        }
        case 33: {
          const JointId j = joint();
          const JointMotor m = fuzz::motor(in);
          world.set_joint_motor(j, m);
          break;
        }
        case 34: {
          const JointId j = joint();
          const JointSpring s = fuzz::spring(in);
          world.set_joint_spring(j, s);
          break;
        }
        default: {
          const JointId j = joint();
          const std::uint8_t how = in.u8();
          if (how & 1) world.set_joint_enabled(j, how & 2);
          world.joint_reading(j);
          world.definition(j);
          world.joint_type(j);
          world.joint_length(j);
          // Thresholds from the same byte (no byte more, so older inputs decode as before).
          if (how & 4) world.set_joint_force_threshold(j, float(how >> 3));
          if (how & 8) world.set_joint_torque_threshold(j, float(how >> 4));
          break;
        }
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
        for (const ShapeState& s : world.state(id).shapes) {
          std::fprintf(stderr, "    shape %u kind %d radius %g:", s.id.index, int(s.kind),
                       s.radius);
          for (const Vec2 v : s.vertices) std::fprintf(stderr, " (%.9g, %.9g)", v.x, v.y);
          std::fprintf(stderr, "\n");
        }
        const BodyDef d = world.definition(id);
        std::fprintf(stderr, "    static %d kinematic %d soft %g\n", d.is_static, d.is_kinematic,
                     d.soft);
      }
  }
  return 0;
}
