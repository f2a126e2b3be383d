// The joint points' velocity passes in SIMD lanes (solver/joints/point_lanes.hpp) against their
// scalar twin: each kernel on random groups, and whole runs of joint_grid (coloured groups) and
// of a hub whose spokes overflow the colours.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "simd_level.hpp"
#include "solver/joints/point_lanes.hpp"
#include "solver/world_state.hpp"
#include "strut/scenes.hpp"
#include "test_util.hpp"
#include "tests/point_group_compare.hpp"

namespace strut {

namespace {

// Random bodies and groups of one colour: lane i joins bodies 2i and 2i + 1 of its group's
// range, some of them fixed (zero inverse mass and inertia), the last group partly padding.
struct Fixture {
  std::vector<float> px, py, qc, qs, dx, dy, da;
  std::vector<PointGroup> groups;
  std::vector<AngleGroup> angles;

  explicit Fixture(int group_count) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1, 1), mass(0.1f, 2.0f);
    const std::size_t bodies = std::size_t(group_count) * kWideLanes * 2;
    for (std::size_t k = 0; k < bodies; ++k) {
      px.push_back(5 * u(rng)), py.push_back(5 * u(rng));
      dx.push_back(0.01f * u(rng)), dy.push_back(0.01f * u(rng)), da.push_back(0.01f * u(rng));
      const float angle = 3.0f * u(rng);
      qc.push_back(std::cos(angle)), qs.push_back(std::sin(angle));
    }
    groups.resize(std::size_t(group_count));
    for (int k = 0; k < group_count; ++k) {
      PointGroup& g = groups[std::size_t(k)];
      for (int i = 0; i < kWideLanes; ++i) {
        const bool padding = k == group_count - 1 && i >= kWideLanes / 2 && i > 0;
        const std::uint32_t a = std::uint32_t((k * kWideLanes + i) * 2);
        const bool fixed_a = (i % 3) == 0;
        g.a[i] = padding ? g.a[0] : a, g.b[i] = padding ? g.b[0] : a + 1;
        g.ma[i] = padding || fixed_a ? 0.0f : mass(rng);
        g.ia[i] = padding || fixed_a ? 0.0f : mass(rng);
        g.mb[i] = padding ? 0.0f : mass(rng), g.ib[i] = padding ? 0.0f : mass(rng);
        g.lax[i] = u(rng), g.lay[i] = u(rng), g.lbx[i] = u(rng), g.lby[i] = u(rng);
        g.px[i] = padding ? 0.0f : 0.001f * u(rng), g.py[i] = padding ? 0.0f : 0.001f * u(rng);
        g.joint[i] = padding ? kPointPadding : std::uint32_t(k * kWideLanes + i);
      }
    }
    // Angle rows in every group but the second (a plain group): each lane some of a spring, a
    // motor and limits (lane i's bits pick them), limits near the angle so that both rows act.
    angles.resize(std::size_t(group_count));
    for (int k = 0; k < group_count; ++k) {
      if (k == 1) continue;
      for (int i = 0; i < kWideLanes; ++i) {
        if (groups[std::size_t(k)].joint[i] == kPointPadding) continue;
        AngleRows r;
        r.spring = i & 1, r.motor = i & 2, r.limit = i & 4;
        r.spring_per_mass = 0.5f + u(rng), r.spring_gamma = i & 8 ? 0.0f : 0.2f + 0.1f * u(rng);
        r.motor_shift = 0.01f * u(rng), r.motor_bound = 0.001f * (1.5f + u(rng));
        r.lower = 0.3f * u(rng) - 0.2f, r.upper = r.lower + 0.1f + 0.1f * u(rng);
        const float reference = u(rng);
        r.reference = {std::cos(reference), std::sin(reference)};
        fill_angle_lane(angles[std::size_t(k)], i, r);
      }
    }
  }
  PointSpans spans() {
    return {px.data(), py.data(), qc.data(), qs.data(), dx.data(), dy.data(), da.data()};
  }
};

// Refresh with warm start, three passes, two iterations of the position projection (with angle
// rows in most groups), a refresh without: all through one path.
Fixture run_kernels(bool wide) {
  Fixture f(5);
  const auto n = std::uint32_t(f.groups.size());
  if (wide) {
    refresh_point_groups_wide(f.spans(), f.groups.data(), 0, n, true);
    for (int pass = 0; pass < 3; ++pass) solve_point_groups_wide(f.spans(), f.groups.data(), 0, n);
    project_point_groups_wide(f.spans(), f.groups.data(), f.angles.data(), 0, n, true);
    project_point_groups_wide(f.spans(), f.groups.data(), f.angles.data(), 0, n, false);
    refresh_point_groups_wide(f.spans(), f.groups.data(), 0, n, false);
  } else {
    refresh_point_groups_scalar(f.spans(), f.groups.data(), 0, n, true);
    for (int pass = 0; pass < 3; ++pass)
      solve_point_groups_scalar(f.spans(), f.groups.data(), 0, n);
    project_point_groups_scalar(f.spans(), f.groups.data(), f.angles.data(), 0, n, true);
    project_point_groups_scalar(f.spans(), f.groups.data(), f.angles.data(), 0, n, false);
    refresh_point_groups_scalar(f.spans(), f.groups.data(), 0, n, false);
  }
  return f;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

std::uint64_t run_joint_grid(bool scalar, int threads) {
  test::SimdLevelScope level(scalar ? SimdLevel::Scalar : simd_level());
  SceneInstance inst = build_scene(builtin_scene("joint_grid", 0.2f), threads);
  for (int i = 0; i < 60; ++i) inst.step();
  return inst.world.state_hash();
}

// A dynamic hub, turning on a pin, carrying 600 spokes, each on a pin: more joints on one body than
// there are colours, so most rows go to the overflow colour, whose lanes share the hub. Solved as
// one SIMD group every lane would read the hub's old motion and the last lane's write would win, so
// the run would part from the scalar twin (lane after lane); it must not.
std::uint64_t run_hub(bool scalar) {
  test::SimdLevelScope level(scalar ? SimdLevel::Scalar : simd_level());
  World world(WorldConfig{.threads = 2, .enable_sleep = false});
  const BodyId ground = world.create_body(test::ground_def(5));
  BodyDef hub_def = test::box_def({0, 10}, {1.0f, 1.0f});
  hub_def.angular_velocity = 2.0f;
  const BodyId hub = world.create_body(hub_def);
  world.create_joint(RevoluteJointDef{.a = ground, .b = hub, .anchor = {0, 10}});
  for (int i = 0; i < 600; ++i) {
    const float angle = 2.0f * float(M_PI) * float(i) / 600.0f;
    const Vec2 at{5.0f * std::cos(angle), 10.0f + 5.0f * std::sin(angle)};
    BodyDef spoke = test::box_def(at, {0.05f, 0.05f});
    spoke.shapes[0].filter.category = 2, spoke.shapes[0].filter.mask = ~2u;
    const BodyId b = world.create_body(spoke);
    world.create_joint(
        RevoluteJointDef{.a = hub, .b = b, .anchor = 0.8f * at + 0.2f * Vec2{0, 10}});
  }
  for (int i = 0; i < 60; ++i) world.step(1.0f / 60);
  return world.state_hash();
}

// 64 hanging chains of 10 boxes on revolute joints (640 joints, so they are coloured), each joint
// with some of a limit, a friction motor and a spring (rain's ragdolls have all three), set
// swinging; scalar: at the scalar SIMD level (the lanes' scalar twin). Returns the state hash
// after 90 steps and every joint's reading.
struct ChainRun {
  std::uint64_t hash = 0;
  std::vector<JointReading> readings;
  bool angle_lanes = false;  // some group projected its angle rows in lanes
};
ChainRun run_chains(bool scalar, int threads) {
  test::SimdLevelScope level(scalar ? SimdLevel::Scalar : simd_level());
  World world(WorldConfig{.threads = threads, .enable_sleep = false});
  WorldState& w = state_of(world);
  const BodyId ground = world.create_body(test::ground_def(200));
  std::vector<JointId> joints;
  for (int c = 0; c < 64; ++c) {
    BodyId above = ground;
    const float x = -160.0f + 5.0f * float(c);
    for (int k = 0; k < 10; ++k) {
      BodyDef link = test::box_def({x + 0.4f * float(k), 30.0f}, {0.2f, 0.05f});
      link.angular_velocity = float((c + k) % 5) - 2.0f;
      link.shapes[0].filter.category = 2, link.shapes[0].filter.mask = ~2u;
      const BodyId b = world.create_body(link);
      RevoluteJointDef d{.a = above, .b = b, .anchor = {x + 0.4f * float(k) - 0.2f, 30.0f}};
      const int kind = (c + 3 * k) % 8;
      if (kind & 1) d.limit = {true, -0.4f, 0.3f};
      if (kind & 2) d.motor = {true, 0.0f, 0.05f};
      if (kind & 4) d.spring = {true, 5.0f, 0.5f};
      joints.push_back(world.create_joint(d));
      above = b;
    }
  }
  ChainRun run;
  for (int i = 0; i < 90; ++i) {
    world.step(1.0f / 60);
    for (const AngleGroup& g : w.joints.point_motion.angles)
      run.angle_lanes = run.angle_lanes || g.any;
  }
  run.hash = world.state_hash();
  for (const JointId j : joints) run.readings.push_back(world.joint_reading(j));
  return run;
}

bool same_readings(const std::vector<JointReading>& a, const std::vector<JointReading>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const float x[] = {a[i].angle,   a[i].speed,  a[i].force.x,
                       a[i].force.y, a[i].torque, a[i].motor_effort};
    const float y[] = {b[i].angle,   b[i].speed,  b[i].force.x,
                       b[i].force.y, b[i].torque, b[i].motor_effort};
    if (std::memcmp(x, y, sizeof x) != 0) return false;
  }
  return true;
}

}  // namespace

// The angle rows in lanes give the same bits of every body and every joint reading (torque, motor
// effort) through the SIMD kernels and their scalar twin, at 1 and 2 threads.
TEST(JointLanes, RevoluteAngleRowsInLanesGiveTheScalarTwinsBits) {
  const ChainRun twin = run_chains(true, 1);
  const ChainRun lanes = run_chains(false, 1);
  EXPECT_TRUE(lanes.angle_lanes);
  EXPECT_EQ(lanes.hash, twin.hash);
  EXPECT_TRUE(same_readings(lanes.readings, twin.readings));
  const ChainRun twin2 = run_chains(true, 2);
  EXPECT_EQ(twin2.hash, twin.hash);
  EXPECT_TRUE(same_readings(twin2.readings, twin.readings));
  EXPECT_EQ(run_chains(false, 2).hash, twin.hash);
  // The rows acted: motors and limits bore torque.
  int torques = 0, efforts = 0;
  for (const JointReading& r : lanes.readings)
    torques += r.torque != 0, efforts += r.motor_effort != 0;
  EXPECT_GT(torques, 300);
  EXPECT_GT(efforts, 100);
}

TEST(JointLanes, KernelsMatchTheirScalarTwinBitForBit) {
  const Fixture wide = run_kernels(true), scalar = run_kernels(false);
  EXPECT_TRUE(same_bits(wide.px, scalar.px));
  EXPECT_TRUE(same_bits(wide.py, scalar.py));
  EXPECT_TRUE(same_bits(wide.qc, scalar.qc));
  EXPECT_TRUE(same_bits(wide.qs, scalar.qs));
  EXPECT_TRUE(same_bits(wide.dx, scalar.dx));
  EXPECT_TRUE(same_bits(wide.dy, scalar.dy));
  EXPECT_TRUE(same_bits(wide.da, scalar.da));
  for (std::size_t k = 0; k < wide.groups.size(); ++k)
    EXPECT_TRUE(test::same_used_lanes(wide.groups[k], scalar.groups[k])) << "group " << k;
  for (std::size_t k = 0; k < wide.angles.size(); ++k)
    EXPECT_EQ(std::memcmp(&wide.angles[k], &scalar.angles[k], sizeof(AngleGroup)), 0)
        << "angle rows of group " << k;
}

// The kernels did something: the passes and the projection moved the bodies.
TEST(JointLanes, PassesMoveTheBodies) {
  const Fixture before(5), after = run_kernels(true);
  EXPECT_FALSE(same_bits(before.dx, after.dx));
  EXPECT_FALSE(same_bits(before.da, after.da));
  EXPECT_FALSE(same_bits(before.px, after.px));
  EXPECT_FALSE(same_bits(before.qc, after.qc));
}

TEST(JointLanes, JointGridIsTheSameWithTheScalarTwinAndAnyThreadCount) {
  const std::uint64_t wide = run_joint_grid(false, 1);
  EXPECT_EQ(run_joint_grid(true, 1), wide);
  EXPECT_EQ(run_joint_grid(false, 2), wide);
  EXPECT_EQ(run_joint_grid(true, 3), wide);
}

TEST(JointLanes, OverflowColourLanesSharingABodyAreSolvedOneAfterAnother) {
  EXPECT_EQ(run_hub(true), run_hub(false));
}

}  // namespace strut

namespace strut {
namespace {

// No two joints of one colour share a movable body (the colouring's one rule), checked on the
// colouring the step used.
bool colouring_is_proper(World& world) {
  WorldState& w = state_of(world);
  const Colouring& c = w.joints.colours;
  if (c.colour_of.size() != w.joints.dense.size()) return false;
  for (int colour = 0; colour < kColourCount; ++colour) {
    std::vector<std::uint8_t> seen(w.bodies.size(), 0);
    for (std::uint32_t i = c.begin[std::size_t(colour)]; i < c.begin[std::size_t(colour) + 1];
         ++i) {
      const Joint& j = w.joints.dense[c.order[i]];
      for (const std::uint32_t body :
           {w.bodies.slots[j.slot_a].dense, w.bodies.slots[j.slot_b].dense}) {
        if (!w.scratch.moving[body]) continue;
        if (seen[body]++) return false;
      }
    }
  }
  return true;
}

// The joints' colouring is kept between steps while their bodies and the movable flags stay;
// destroying bodies (which renumbers the others and removes their joints), new joints and a body
// turned static must each give a proper colouring again.
TEST(JointLanes, KeptJointColouringFollowsEveryChange) {
  World world(WorldConfig{.threads = 2});
  std::vector<BodyId> ids;
  for (int i = 0; i < 700; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{CircleShape{0.2f}}};
    d.center = {float(i % 35), -float(i / 35)};
    d.is_static = i < 35;
    ids.push_back(world.create_body(d));
  }
  std::vector<JointId> joints;
  for (int i = 35; i < 700; ++i) {  // each to the one above
    RevoluteJointDef j;
    j.a = ids[std::size_t(i - 35)];
    j.b = ids[std::size_t(i)];
    j.anchor = {float(i % 35), 0.5f - float(i / 35)};
    joints.push_back(world.create_joint(j));
  }
  for (int s = 0; s < 3; ++s) world.step(1.0f / 60);
  ASSERT_TRUE(colouring_is_proper(world));
  // As many joints as before, between other bodies: each of 40 vertical links replaced by a
  // sideways one between bodies that already have joints of their own.
  for (int k = 0; k < 40; ++k) {
    const int i = 200 + k;
    world.destroy_joint(joints[std::size_t(i - 35)]);
    RevoluteJointDef j;
    j.a = ids[std::size_t(i + 35)];
    j.b = ids[std::size_t(i + 36)];
    j.anchor = {float(i % 35) + 0.5f, -1.0f - float(i / 35)};
    world.create_joint(j);
  }
  world.step(1.0f / 60);
  EXPECT_TRUE(colouring_is_proper(world)) << "after joints replaced, as many as before";
  for (int k = 100; k < 120; ++k) world.destroy_body(ids[std::size_t(k)]);
  world.step(1.0f / 60);
  EXPECT_TRUE(colouring_is_proper(world)) << "after destroying bodies";
  for (int i = 400; i < 430; ++i) {  // sideways links: each body gets another joint
    RevoluteJointDef j;
    j.a = ids[std::size_t(i)];
    j.b = ids[std::size_t(i + 1)];
    j.anchor = {float(i % 35) + 0.5f, -float(i / 35)};
    world.create_joint(j);
  }
  world.step(1.0f / 60);
  EXPECT_TRUE(colouring_is_proper(world)) << "after new joints";
  world.set_type(ids[500], BodyType::Static);
  world.step(1.0f / 60);
  world.set_type(ids[500], BodyType::Dynamic);
  world.step(1.0f / 60);
  EXPECT_TRUE(colouring_is_proper(world)) << "after a type change";
}

}  // namespace
}  // namespace strut
