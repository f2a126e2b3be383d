// The magnitude rule (strut/limits.hpp): every absurd size, mass, speed, acceleration, gravity
// and dt is rejected with a one-line strut::Error and the world left unchanged, and values at
// the edges of the accepted ranges keep every body state finite. Each case here was a silent
// trap or a NaN before the rule existed (issue 15).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>

#include "strut/limits.hpp"
#include "strut/scene.hpp"
#include "strut/world.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

using test::error_of;
using test::finite_state;

BodyDef circle_def(Vec2 center, float radius) {
  BodyDef d;
  d.shapes = {ShapeDef{CircleShape{radius}}};
  d.center = center;
  return d;
}

// Every rejected definition names the field and leaves the world as it was.
TEST(MagnitudeLimits, AbsurdSizesAndMassesAreRejected) {
  World world;
  const BodyId keep = world.create_body(test::box_def({0, 5}));
  const std::uint64_t hash = world.state_hash();
  struct Case {
    BodyDef def;
    std::string message;
  };
  std::vector<Case> cases;
  // Infinite mass (area overflows): another box used to fall straight through it.
  cases.push_back(
      {test::box_def({0, 0}, {1e30f, 1e30f}),
       "create_body: shapes[0].shape.half_extents.x: 1e+30 m is outside [0.001, 100000] m "
       "(strut/limits.hpp)"});
  // Zero area, documented as rejected, used to be accepted and never moved.
  cases.push_back(
      {test::box_def({0, 0}, {1e-30f, 1e-30f}),
       "create_body: shapes[0].shape.half_extents.x: 1e-30 m is outside [0.001, 100000] m "
       "(strut/limits.hpp)"});
  // Mass and inertia underflow: NaN after one step.
  cases.push_back({circle_def({0, 0}, 1e-10f),
                   "create_body: shapes[0].shape.radius: 1e-10 m is outside [0.001, 100000] m "
                   "(strut/limits.hpp)"});
  cases.push_back(
      {test::box_def({0, 0}, {1e-10f, 1e-10f}),
       "create_body: shapes[0].shape.half_extents.x: 1e-10 m is outside [0.001, 100000] m "
       "(strut/limits.hpp)"});
  // Mass overflow: the body silently never moved.
  cases.push_back({circle_def({0, 0}, 1e20f),
                   "create_body: shapes[0].shape.radius: 1e+20 m is outside [0.001, 100000] m "
                   "(strut/limits.hpp)"});
  {
    BodyDef d = test::box_def({0, 0});
    d.shapes[0].material.density = 1e-40f;  // a subnormal float: accepted by the material, mass ~0
    cases.push_back({d,
                     "create_body: shapes: mass 9.99995e-41 kg (the shapes' density x area, "
                     "summed) is outside [1e-09, 1e+15] kg (strut/limits.hpp)"});
  }
  {
    BodyDef d;
    d.shapes = {ShapeDef{PolygonShape{{{0, 0}, {1e-4f, 0}, {0, 1e-4f}}}}};
    cases.push_back({d,
                     "create_body: shapes[0].shape.vertices: polygon of area 4.9999995e-09 m^2 is "
                     "smaller than 0.001 m "
                     "square (strut/limits.hpp)"});
  }
  {
    BodyDef d = test::box_def({2e7f, 0});
    cases.push_back({d,
                     "create_body: center: 2e+07 exceeds the limit of 4000 m "
                     "(strut/limits.hpp)"});
  }
  {
    BodyDef d = test::box_def({0, 0});
    d.velocity = {0, -2e4f};
    cases.push_back({d,
                     "create_body: velocity: 20000 exceeds the limit of 10000 m/s "
                     "(strut/limits.hpp)"});
  }
  {
    BodyDef d = test::box_def({0, 0});
    d.angular_velocity = 5e6f;
    cases.push_back({d,
                     "create_body: angular_velocity: 5e+06 exceeds the limit of 10000 rad/s "
                     "(strut/limits.hpp)"});
  }
  for (const Case& c : cases) EXPECT_EQ(error_of([&] { world.create_body(c.def); }), c.message);
  EXPECT_EQ(world.body_count(), 1u);
  EXPECT_EQ(world.state_hash(), hash);
  EXPECT_TRUE(world.is_valid(keep));
}

// A static body given a velocity used to be accepted and the velocity ignored.
TEST(MagnitudeLimits, StaticBodiesCannotBeGivenMotion) {
  World world;
  BodyDef d = test::ground_def();
  d.velocity = {1, 0};
  EXPECT_EQ(error_of([&] { world.create_body(d); }),
            "create_body: velocity: a static body cannot move (make it kinematic)");
  d.velocity = {};
  d.angular_velocity = 1;
  EXPECT_EQ(error_of([&] { world.create_body(d); }),
            "create_body: angular_velocity: a static body cannot move (make it kinematic)");
  d.angular_velocity = 0;
  const BodyId ground = world.create_body(d);
  const std::string who =
      "body " + std::to_string(ground.index) + "/" + std::to_string(ground.generation);
  EXPECT_EQ(error_of([&] {
              world.set_linear_velocity(ground, {1, 0});
            }),
            "set_linear_velocity: " + who + " is static and cannot move (make it kinematic)");
  EXPECT_EQ(error_of([&] { world.set_angular_velocity(ground, 1); }),
            "set_angular_velocity: " + who + " is static and cannot move (make it kinematic)");
  EXPECT_EQ(error_of([&] {
              world.apply_force(ground, {1, 0});
            }),
            "apply_force: " + who +
                " is static and takes no forces or impulses (set its velocity "
                "instead)");
  EXPECT_EQ(error_of([&] { world.apply_torque(ground, 1); }),
            "apply_torque: " + who +
                " is static and takes no forces or impulses (set its velocity "
                "instead)");
  EXPECT_EQ(error_of([&] {
              world.apply_impulse(ground, {1, 0}, {0, 0});
            }),
            "apply_impulse: " + who +
                " is static and takes no forces or impulses (set its "
                "velocity instead)");
  // A kinematic body takes a velocity but no force: its mass is infinite.
  BodyDef k = test::box_def({0, 5});
  k.is_kinematic = true;
  const BodyId platform = world.create_body(k);
  world.set_linear_velocity(platform, {2, 0});
  EXPECT_NE(error_of([&] {
              world.apply_force(platform, {1, 0});
            }).find("is kinematic"),
            std::string::npos);
}

TEST(MagnitudeLimits, OutOfRangeArgumentsAreRejected) {
  World world;
  const BodyId box = world.create_body(test::box_def({0, 5}));
  world.step(1.0f / 60);
  const std::uint64_t hash = world.state_hash();
  EXPECT_EQ(error_of([&] { world.interpolated_transform(box, 5); }),
            "interpolated_transform: alpha must be in [0, 1], got 5");
  EXPECT_EQ(error_of([&] {
              world.query_aabb(Aabb{{1, 1}, {0, 0}});
            }),
            "query_aabb: box is inverted (lower is above or right of upper)");
  // dt of 700 s with a resting contact gave NaN, 1e-45 turned every velocity into NaN.
  EXPECT_EQ(error_of([&] { world.step(700); }),
            "step: dt must be in [1e-05, 0.1] s (strut/limits.hpp), got 700");
  EXPECT_EQ(error_of([&] { world.step(1.0f); }),
            "step: dt must be in [1e-05, 0.1] s (strut/limits.hpp), got 1");
  EXPECT_EQ(error_of([&] { world.step(1e-45f); }),
            "step: dt must be in [1e-05, 0.1] s (strut/limits.hpp), got 1.4013e-45");
  EXPECT_EQ(error_of([&] { world.set_substeps(1000000000); }),
            "set_substeps: substeps must be in [1, 1000], got 1000000000");
  EXPECT_EQ(error_of([&] {
              world.set_gravity({0, -1e5f});
            }),
            "set_gravity: gravity -100000 exceeds the limit of 10000 m/s^2 (strut/limits.hpp)");
  EXPECT_EQ(error_of([&] {
              world.set_linear_velocity(box, {3e4f, 0});
            }),
            "set_linear_velocity: velocity 30000 exceeds the limit of 10000 m/s "
            "(strut/limits.hpp)");
  EXPECT_EQ(error_of([&] { world.set_angular_velocity(box, -2e4f); }),
            "set_angular_velocity: angular_velocity -20000 exceeds the limit of 10000 rad/s "
            "(strut/limits.hpp)");
  EXPECT_EQ(error_of([&] {
              world.set_transform(box, {0, 1e8f}, 0);
            }),
            "set_transform: position 1e+08 exceeds the limit of 4000 m (strut/limits.hpp)");
  EXPECT_EQ(world.state_hash(), hash);
}

// The issue's impulse: 123.5 N s on a 0.01 kg box (half-size 0.05 m) at its corner would have
// spun it at about 5e6 rad/s, where the old rotation series turned NaN.
TEST(MagnitudeLimits, ImpulsesAndForcesBeyondTheLimitsAreRejected) {
  World world({.gravity = {0, 0}});
  BodyDef d = test::box_def({0, 0}, {0.05f, 0.05f});
  d.shapes[0].material.density = 1;  // mass 0.01 kg
  const BodyId box = world.create_body(d);
  world.step(1.0f / 60);
  const std::uint64_t hash = world.state_hash();
  EXPECT_NE(error_of([&] {
              world.apply_impulse(box, {0, 123.5f}, {0.05f, 0.05f});
            }).find("apply_impulse: impulse would give body 1/1 a speed of 12349.999 m/s"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              world.apply_impulse(box, {0, 50}, {0.05f, 0.05f});
            }).find("an angular speed of"),
            std::string::npos);
  // Forces accumulate: the call that would push the sum over the limit is rejected and adds
  // nothing, the ones before it stay.
  const float max_force = limits::kMaxAcceleration * world.mass(box);
  world.apply_force(box, {0.6f * max_force, 0});
  EXPECT_NE(error_of([&] {
              world.apply_force(box, {0.6f * max_force, 0});
            }).find("would accelerate it at"),
            std::string::npos);
  EXPECT_NE(error_of([&] { world.apply_torque(box, 1e30f); }).find("rad/s^2, above the limit"),
            std::string::npos);
  EXPECT_EQ(world.state_hash(), hash);
  // The accepted 0.6 x max force acts for one step of 0.1 ms: v = a dt = 600 m/s (tolerance:
  // float rounding of the four per-substep increments, 1e-5 relative).
  world.step(1e-4f);
  const float expected = 0.6f * limits::kMaxAcceleration * 1e-4f;
  EXPECT_NEAR(world.linear_velocity(box).x, expected, 1e-5f * expected);
}

// Rotation is exact at every angular speed up to the limit: one step at 4 substeps turns a
// free body by omega dt. The series it replaced was off by 0.018 rad at 300 rad/s, 0.44 at 500,
// 2.2 at 1000 and NaN from about 5e6 rad/s.
TEST(MagnitudeLimits, RotationIsExactAtAnyAngularSpeed) {
  for (const float omega : {1.0f, 300.0f, 500.0f, 1000.0f, 5000.0f, -9999.0f}) {
    World world({.gravity = {0, 0}, .substeps = 4});
    BodyDef d = test::box_def({0, 0});
    d.angular_velocity = omega;
    const BodyId box = world.create_body(d);
    const float dt = 1.0f / 60;
    for (int step = 1; step <= 30; ++step) {
      world.step(dt);
      // The angle the body should show: omega t wrapped to (-pi, pi], in double.
      const double turned = double(omega) * double(dt) * step;
      const double expected = std::remainder(turned, 2 * M_PI);
      double error = std::remainder(double(world.transform(box).angle) - expected, 2 * M_PI);
      // Tolerance: the per-substep angle omega h is a float, rounded by up to 6e-8 of itself,
      // and that rounding accumulates over the 120 substeps: 120 x 6e-8 x omega h, plus 2e-6
      // rad of rotation rounding (measured about 1e-6 after 30 steps at 9999 rad/s).
      const double tolerance = 120 * 6e-8 * std::fabs(omega) * dt / 4 + 2e-5;
      EXPECT_LE(std::fabs(error), tolerance) << "omega " << omega << " step " << step;
    }
    // Angular velocity is read back unchanged (exact to float rounding of omega h / h).
    EXPECT_NEAR(world.angular_velocity(box), omega, 1e-6f * std::fabs(omega));
  }
}

// The integrator clamps each velocity component to the speed limit, so forces applied for
// ever (each call within the acceleration limit) cannot run a body's state to infinity.
TEST(MagnitudeLimits, SpeedStaysWithinTheLimitUnderEndlessForce) {
  World world({.gravity = {0, 0}});
  const BodyId box = world.create_body(test::box_def({0, 0}));
  const float force = 0.9f * limits::kMaxAcceleration * world.mass(box);
  for (int i = 0; i < 100; ++i) {
    world.apply_force(box, {force, -force});
    world.apply_torque(box, 0.9f * limits::kMaxAngularAcceleration * world.inertia(box));
    world.step(1.0f / 60);
  }
  ASSERT_TRUE(finite_state(world));
  // At the clamp: |v| per component equals kMaxSpeed to float rounding of d / h.
  EXPECT_NEAR(world.linear_velocity(box).x, limits::kMaxSpeed, 1e-3f * limits::kMaxSpeed);
  EXPECT_NEAR(world.linear_velocity(box).y, -limits::kMaxSpeed, 1e-3f * limits::kMaxSpeed);
  EXPECT_NEAR(world.angular_velocity(box), limits::kMaxAngularSpeed,
              1e-3f * limits::kMaxAngularSpeed);
}

// The edges of the accepted ranges: the smallest and lightest bodies resting on the ground, and
// the longest and shortest steps, keep every state finite, and a resting body stays put.
TEST(MagnitudeLimits, BodiesAtTheLimitsStayFinite) {
  struct Case {
    float dt;
    int substeps;
  };
  for (const Case c : {Case{limits::kMaxDt, 1}, Case{limits::kMaxDt, 4}, Case{limits::kMinDt, 1},
                       Case{limits::kMinDt, limits::kMaxSubsteps}, Case{1.0f / 60, 4}}) {
    World world({.substeps = c.substeps});
    world.create_body(test::ground_def(5000));
    const BodyId tiny_box = world.create_body(
        test::box_def({0, limits::kMinSize}, {limits::kMinSize, limits::kMinSize}));
    BodyDef light = circle_def({1, limits::kMinSize}, limits::kMinSize);
    light.shapes[0].material.density = 1.01f * limits::kMinMass / (float(M_PI) * 1e-6f);
    const BodyId tiny_circle = world.create_body(light);
    const BodyId crate = world.create_body(test::box_def({-2, 0.5f}));
    // 6.4e14 kg (the densest material, 1e9 kg/m^2, over 800 m x 800 m).
    BodyDef heavy = test::box_def({1000, 400}, {400, 400});
    heavy.shapes[0].material.density = 1e9f;
    world.create_body(heavy);
    BodyDef spinner = circle_def({-6, 0.5f}, 0.5f);
    spinner.angular_velocity = limits::kMaxAngularSpeed;
    world.create_body(spinner);
    for (int i = 0; i < 20; ++i) world.step(c.dt);
    ASSERT_TRUE(finite_state(world)) << "dt " << c.dt << " substeps " << c.substeps;
    // Resting bodies stay where they started. Tolerance: the soft contact's sag, measured
    // 2.4 cm for the crate at the longest step (0.1 s, one substep: the ground's contact
    // stiffness is capped at a quarter of the substep rate, 2.5 Hz), and no more than a
    // centimetre of rise.
    for (const auto& [id, start] :
         {std::pair{tiny_box, limits::kMinSize}, {tiny_circle, limits::kMinSize}, {crate, 0.5f}}) {
      const float y = world.transform(id).position.y;
      EXPECT_GT(y, start - 0.03f) << "dt " << c.dt << " substeps " << c.substeps << " body "
                                  << id.index;
      EXPECT_LT(y, start + 0.01f) << "dt " << c.dt << " substeps " << c.substeps;
    }
  }
}

// Found by fuzz_api: a pin joint anchored 9.5e21 m away was accepted and turned both bodies into
// NaN in one step. Joint anchors and lengths obey the coordinate limit.
TEST(MagnitudeLimits, JointAnchorsBeyondTheCoordinateLimitAreRejected) {
  World world;
  const BodyId a = world.create_body(test::box_def({0, 0}));
  const BodyId b = world.create_body(test::box_def({3, 0}));
  RevoluteJointDef pin;
  pin.a = b, pin.b = a, pin.anchor = {9.47358e21f, 0};
  EXPECT_EQ(error_of([&] { world.create_joint(pin); }),
            "create_joint: anchor 9.47358e+21 exceeds the limit of 4000 m (strut/limits.hpp)");
  DistanceJointDef rope;
  rope.a = a, rope.b = b, rope.anchor_b = {3, 0}, rope.max_length = 1e30f, rope.min_length = 0;
  EXPECT_NE(error_of([&] { world.create_joint(rope); }).find("max_length 1e+30 exceeds"),
            std::string::npos);
  EXPECT_EQ(world.joint_count(), 0u);
  pin.anchor = {1.5f, 0};  // a sane pin still works and stays finite
  world.create_joint(pin);
  for (int i = 0; i < 60; ++i) world.step(1.0f / 60);
  EXPECT_TRUE(finite_state(world));
}

// Found by fuzz_api: a circle whose centre sat 1.3e-40 m (a subnormal float) from a triangle's
// vertex made the vertex-region normal 0 / 0 and both bodies NaN in one step.
TEST(MagnitudeLimits, CircleCentredOnAPolygonVertexStaysFinite) {
  for (const float offset : {0.0f, 1.27714e-40f, 1e-30f}) {
    World world({.substeps = 1});
    BodyDef triangle;
    triangle.shapes = {ShapeDef{PolygonShape{{{12.5f, 12.5f}, {0, 0}, {-0.125f, -3.125f}}}}};
    world.create_body(triangle);
    BodyDef circle;
    circle.shapes = {ShapeDef{CircleShape{5}}};
    circle.center = {0, offset};
    circle.angle = 1;
    world.create_body(circle);
    for (int i = 0; i < 30; ++i) world.step(1.0f / 60);
    EXPECT_TRUE(finite_state(world)) << "offset " << offset;
  }
}

// Found by fuzz_scene: a 2 m x 2 mm plank spinning at 10,000 rad/s and moving at 10 km/s inside
// a circle of radius 100 km (3e9 kg), 0.1 s steps of one substep. Restitution after the last
// substep left the plank at 4e12 m/s and the next steps turned it into NaN; the speed limit now
// holds at the end of every step too.
TEST(MagnitudeLimits, FuzzedPlankInsideAGiantCircleStaysFinite) {
  SceneInstance scene = build_scene(parse_scene(R"({"world": {"dt": 0.1, "substeps": 1}, "bodies": [
        {"shape": "box", "center": [0, -1], "half_extents": [10, 1], "static": true},
        {"shape": "box", "center": [0, 1], "half_extents": [1.001, 0.001],
         "angular_velocity": 10000, "velocity": [10000, -10000]},
        {"shape": "circle", "center": [1, 2], "radius": 100000, "material": "pillow"}]})",
                                                "plank.json"),
                                    1);
  for (int i = 0; i < 30; ++i) {
    scene.step();
    ASSERT_TRUE(finite_state(scene.world)) << "step " << i;
    for (const BodyId id : scene.world.bodies()) {
      const Vec2 v = scene.world.linear_velocity(id);
      // Tolerance: float rounding of d / h (1e-6 relative).
      EXPECT_LE(std::fmax(std::fabs(v.x), std::fabs(v.y)), limits::kMaxSpeed * (1 + 1e-6f));
      EXPECT_LE(std::fabs(scene.world.angular_velocity(id)),
                limits::kMaxAngularSpeed * (1 + 1e-6f));
    }
  }
}

// Found by fuzz_api (fuzz/open/api/soft_polygon_nan_2.bin): a distance joint yanked two unit
// boxes 17 m in one substep, spinning one at hundreds of rad/s into two overlapping soft boxes;
// the soft contact rows read the rigid box's motion through a rotation series that grows as
// da^5, so each impulse asked for a larger one and every body was NaN within the first step.
TEST(MagnitudeLimits, BoxesYankedIntoSoftBoxesStayFinite) {
  World world({.substeps = 3, .threads = 1});
  const BodyId a = world.create_body(test::box_def({0, 0}));
  const BodyId b = world.create_body(test::box_def({3, 0}));
  DistanceJointDef rope;
  rope.a = a, rope.b = b, rope.anchor_b = {14.875f, 14.875f}, rope.length = 0.5f;
  world.create_joint(rope);
  // The fuzzer's first soft box had compliance 9.5e21 m/N, now beyond the compliance limit
  // (which stops its own overflow, tests/joint_magnitude_test.cpp): the softest accepted here.
  for (const auto& [half, spin, soft] :
       {std::tuple{Vec2{12.375f, 12.375f}, 12.5f, limits::kMaxCompliance},
        std::tuple{Vec2{1, 12.375f}, 12.375f, 12.375f}}) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{half}}};
    d.center = {12.375f, 12.375f}, d.angle = 12.375f, d.velocity = {12.375f, 12.375f};
    d.angular_velocity = spin, d.soft = soft, d.bullet = true;
    world.create_body(d);
  }
  for (int i = 0; i < 10; ++i) {
    world.step(1.0f / 60);
    ASSERT_TRUE(finite_state(world)) << "step " << i;
  }
}

// The same cause as physics: a rigid bar spinning at 5,000 rad/s (21 rad a substep) strikes a
// soft box with gravity off. Contacts only take energy away, so the total kinetic energy never
// rises above its start; before the soft rows used the motion to first order in the turn it
// rose 32-fold within one step (1.7 MJ to 54 MJ) and the bar hit the speed limit.
TEST(MagnitudeLimits, FastSpinningBarGivesASoftBoxNoEnergy) {
  World world({.gravity = {0, 0}, .threads = 1});
  BodyDef soft = test::box_def({0, 0}, {1, 1});
  soft.soft = 1e-3f;
  world.create_body(soft);
  BodyDef bar = test::box_def({1.95f, 0}, {1, 0.1f});
  bar.angular_velocity = 5000;
  world.create_body(bar);
  auto kinetic_energy = [&] {
    double e = 0;
    for (const BodyId id : world.bodies()) {
      const Vec2 v = world.linear_velocity(id);
      const double w = world.angular_velocity(id);
      e += 0.5 * world.mass(id) * dot(v, v) + 0.5 * world.inertia(id) * w * w;
    }
    return e;
  };
  const double start = kinetic_energy();  // 1.68 MJ, all in the bar's spin
  for (int i = 0; i < 30; ++i) {
    world.step(1.0f / 60);
    ASSERT_TRUE(finite_state(world)) << "step " << i;
    // Tolerance: none needed beyond float rounding; measured 0.25 x start after the first step.
    EXPECT_LE(kinetic_energy(), start) << "step " << i;
  }
}

// Found by fuzz_api (fuzz/corpus/api/found_distance_spring_spin.bin: seven joint types on five
// bodies, a distance spring anchored 10 m off a capsule): the spring's damping read the
// capsule's motion through the same rotation series as the soft contacts, so once the capsule
// spun at thousands of rad/s every damping pass spun it faster, to NaN. As physics: a capsule
// spinning at 3,000 rad/s on a damped spring, gravity off, the spring at rest length at the
// start, so its kinetic energy can only fall (before: 0.17 MJ to 32 MJ in one step).
TEST(MagnitudeLimits, FastSpinningCapsuleOnADampedSpringGainsNoEnergy) {
  World world({.gravity = {0, 0}, .threads = 1});
  BodyDef pin = test::box_def({0, 0}, {0.1f, 0.1f});
  pin.is_static = true;
  const BodyId fixed = world.create_body(pin);
  BodyDef capsule;
  capsule.shapes = {ShapeDef{CapsuleShape{.half_length = 0.5f, .radius = 0.125f}}};
  capsule.center = {0, -2};
  capsule.angular_velocity = 3000;
  const BodyId spinning = world.create_body(capsule);
  DistanceJointDef spring;
  spring.a = fixed, spring.b = spinning, spring.anchor_b = {0.5f, -2};
  spring.spring = {.enabled = true, .hertz = 2, .damping_ratio = 0.5f};
  world.create_joint(spring);
  auto kinetic_energy = [&] {
    const Vec2 v = world.linear_velocity(spinning);
    const double w = world.angular_velocity(spinning);
    return 0.5 * world.mass(spinning) * dot(v, v) + 0.5 * world.inertia(spinning) * w * w;
  };
  const double start = kinetic_energy();  // 168 kJ
  for (int i = 0; i < 30; ++i) {
    world.step(1.0f / 60);
    ASSERT_TRUE(finite_state(world)) << "step " << i;
    EXPECT_LE(kinetic_energy(), start) << "step " << i;  // measured 0.85 x start after one step
  }
}

// Found by fuzz_api (fuzz/corpus/api/found_spring_hertz_underflow.bin, and seven more inputs of
// the same cause): a wheel joint's spring of 2.8e-29 Hz with a damping ratio of 3.7e22 was
// accepted; its soft row's 1 / (2 pi f h)^2 overflowed to infinity and the row gave inf / inf.
// Spring frequencies and damping ratios now obey the magnitude rule, for every joint with one.
TEST(MagnitudeLimits, SpringFrequenciesAndDampingOutsideTheLimitsAreRejected) {
  World world;
  const BodyId a = world.create_body(test::box_def({0, 2}));
  const BodyId b = world.create_body(test::box_def({-1, 1.5f}));
  WheelJointDef wheel{.a = a, .b = b, .anchor = {-1, 1.5f}};
  wheel.spring = {.enabled = true, .hertz = 2.84e-29f, .damping_ratio = 1};
  EXPECT_EQ(error_of([&] { world.create_joint(wheel); }),
            "create_joint: spring.hertz 2.84e-29 Hz is outside [0.001, 1e+06] Hz (0: no spring; "
            "strut/limits.hpp)");
  wheel.spring = {.enabled = true, .hertz = 4, .damping_ratio = 3.7e22f};
  EXPECT_EQ(error_of([&] { world.create_joint(wheel); }),
            "create_joint: spring.damping_ratio 3.7e+22 exceeds the limit of 1000 "
            "(strut/limits.hpp)");
  EXPECT_NE(error_of([&] {
              world.create_joint(MouseJointDef{.body = b, .max_force = 1, .hertz = 1e7f});
            }).find("hertz 1e+07 Hz is outside"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              world.create_joint(WeldJointDef{.a = a, .b = b, .angular_hertz = 1e-4f});
            }).find("angular_hertz 0.0001 Hz is outside"),
            std::string::npos);
  EXPECT_EQ(world.joint_count(), 0u);
  // At the edges of the ranges the spring is accepted and the bodies stay finite.
  wheel.spring = {
      .enabled = true, .hertz = limits::kMinHertz, .damping_ratio = limits::kMaxDampingRatio};
  const JointId j = world.create_joint(wheel);
  for (int i = 0; i < 60; ++i) world.step(1.0f / 60);
  world.set_joint_spring(j, {.enabled = true, .hertz = limits::kMaxHertz, .damping_ratio = 0});
  for (int i = 0; i < 60; ++i) world.step(1.0f / 60);
  EXPECT_TRUE(finite_state(world));
}

}  // namespace
}  // namespace strut

namespace strut {
namespace {

// A shape of negligible density may ride on heavier ones (the body's mass is within the rule),
// but removing the others would leave the body with a mass that underflows: fuzz_api found a
// capsule of 1.7e-41 kg left alone, and the body's state was NaN at the next step. The removal
// is rejected and the body keeps both shapes.
TEST(MagnitudeLimits, RemovingShapesCannotLeaveAnUnderflowingMass) {
  World world;
  const BodyId body = world.create_body(test::box_def({0, 5}));
  ShapeDef feather;
  feather.shape = CapsuleShape{0.2f, 0.1f};
  feather.material.density = 1e-40f;
  world.add_shape(body, feather);
  const std::vector<ShapeId> shapes = world.shapes(body);
  ASSERT_EQ(shapes.size(), 2u);
  const std::uint64_t hash = world.state_hash();
  EXPECT_EQ(error_of([&] { world.remove_shape(shapes[0]); }),
            "remove_shape: the body's other shapes have a mass of 1.11417e-41 kg, outside [1e-09, "
            "1e+15] kg (strut/limits.hpp; a dynamic body needs it)");
  EXPECT_EQ(world.shapes(body).size(), 2u);
  EXPECT_EQ(world.state_hash(), hash);
  for (int i = 0; i < 10; ++i) world.step(1.0f / 60);
  EXPECT_TRUE(finite_state(world));
}

}  // namespace
}  // namespace strut
