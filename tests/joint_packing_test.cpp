// The joint rows' packing kept from step to step (prepare_point_motion, JointStore::version):
// after every kind of change it depends on, made between steps or by the step itself (sleep),
// a world that keeps its packing must step bit for bit as a copy that colours, finds its trees
// and packs its joints afresh before every step. Each change must also alter the motion, so that
// a packing left stale would show.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "solver/world_state.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

// What the test changes: a grid of circles hanging from static ones by pins (some motored and
// limited), a rope (a tree), rigid rows (weld, prismatic, wheel, distance spring), and a hinged
// pair resting on the ground that may sleep.
struct Rig {
  World world;
  std::vector<BodyId> grid;
  std::vector<JointId> pins;
  JointId motored, weld, spring;
  BodyId rope_end, resting;
  explicit Rig(const WorldConfig& c) : world(c) {}
};

constexpr std::uint32_t kGridCategory = 2;

// side x side circles: side 24 gives 1,100 pins, above kParallelJoints (coloured); side 6 gives
// 60, which are solved in creation order.
Rig build(int side, bool asleep_pair = false) {
  WorldConfig c;
  c.threads = 1;
  Rig r(c);
  World& w = r.world;
  BodyDef ground = test::ground_def();
  w.create_body(ground);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      BodyDef d;
      d.shapes = {ShapeDef{.shape = CircleShape{0.4f},
                           .filter = {.category = kGridCategory, .mask = ~kGridCategory}}};
      d.center = {float(x), 30.0f - float(y)};
      d.is_static = y == 0 && x % 5 == 2;
      r.grid.push_back(w.create_body(d));
    }
  auto at = [&](int x, int y) { return r.grid[std::size_t(y * side + x)]; };
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x)
      for (const auto [nx, ny] : {std::pair{x - 1, y}, {x, y - 1}}) {
        if (nx < 0 || ny < 0 || (y == 0 && x % 5 == 2 && ny == 0 && nx % 5 == 2)) continue;
        RevoluteJointDef j;
        j.a = at(nx, ny), j.b = at(x, y);
        j.anchor = {0.5f * float(x + nx), 30.0f - 0.5f * float(y + ny)};
        if ((x + 3 * y) % 7 == 0) j.limit = {true, -0.3f, 0.3f}, j.motor = {true, 0.5f, 20.0f};
        r.pins.push_back(w.create_joint(j));
        if (j.motor.enabled) r.motored = r.pins.back();
      }
  // A rope of 5 links from a static point: no motor or limit, so a tree.
  const BodyId top = test::fixed_point(w, {-10, 20});
  BodyId previous = top;
  for (int k = 0; k < 5; ++k) {
    BodyDef d = test::box_def({-10.0f + 0.5f + float(k), 20.0f}, {0.5f, 0.1f});
    const BodyId link = w.create_body(d);
    RevoluteJointDef j;
    j.a = previous, j.b = link, j.anchor = {-10.0f + float(k), 20.0f};
    w.create_joint(j);
    previous = link;
  }
  r.rope_end = previous;
  // Rigid rows: a welded box, a prismatic slider, a wheel and a distance spring.
  const BodyId anchor = test::fixed_point(w, {-20, 25});
  const BodyId welded = w.create_body(test::box_def({-19, 25}));
  WeldJointDef weld;
  weld.a = anchor, weld.b = welded, weld.anchor = {-20, 25};
  r.weld = w.create_joint(weld);
  const BodyId slider = w.create_body(test::box_def({-16, 25}));
  PrismaticJointDef prismatic;
  prismatic.a = welded, prismatic.b = slider, prismatic.anchor = {-16, 25};
  w.create_joint(prismatic);
  const BodyId wheel = w.create_body(test::box_def({-13, 25}));
  WheelJointDef wheel_joint;
  wheel_joint.a = slider, wheel_joint.b = wheel, wheel_joint.anchor = {-13, 25};
  w.create_joint(wheel_joint);
  const BodyId hanging = w.create_body(test::box_def({-13, 22}));
  DistanceJointDef distance;
  distance.a = wheel, distance.b = hanging;
  distance.anchor_a = {-13, 25}, distance.anchor_b = {-13, 22};
  distance.spring = {true, 3.0f, 0.2f};
  r.spring = w.create_joint(distance);
  // A hinged pair lying on the ground, still: it falls asleep after sleep_time.
  BodyDef left = test::box_def({20.5f, 0.5f}), right = test::box_def({21.5f, 0.5f});
  left.awake = right.awake = !asleep_pair;
  r.resting = w.create_body(left);
  const BodyId other = w.create_body(right);
  RevoluteJointDef hinge;
  hinge.a = r.resting, hinge.b = other, hinge.anchor = {21, 0.5f};
  w.create_joint(hinge);
  return r;
}

// The next step colours, finds trees and packs as if nothing had been kept.
void repack_next_step(World& world) {
  WorldState& w = state_of(world);
  w.joints.point_motion.packed_version = ~w.joints.version;
  w.scratch.joints_coloured_moving_version = ~w.scratch.moving_version;
  w.joints.point_motion.trees.moving_version = ~w.scratch.moving_version;
}

// Every body's pose and motion over the substep, bit for bit (the copy keeps the dense order).
std::vector<std::uint32_t> pose_bits(const World& world) {
  const auto& b = state_of(world).bodies;
  std::vector<std::uint32_t> out;
  for (const auto* column : {&b.px, &b.py, &b.qc, &b.qs, &b.dx, &b.dy, &b.da})
    for (const float v : *column) out.push_back(test::bits(v));
  return out;
}

struct Change {
  std::string name;
  std::function<void(Rig&)> apply;
};

std::vector<Change> changes() {
  return {
      {"motor speed", [](Rig& r) { r.world.set_joint_motor_speed(r.motored, -2.0f); }},
      {"limit",
       [](Rig& r) {
         r.world.set_joint_limit(r.motored, {true, 0.2f, 0.3f});
       }},
      {"spring",
       [](Rig& r) {
         r.world.set_joint_spring(r.spring, {true, 8.0f, 0.5f});
       }},
      {"disable", [](Rig& r) { r.world.set_joint_enabled(r.pins[5], false); }},
      {"destroy joint", [](Rig& r) { r.world.destroy_joint(r.pins[7]); }},
      {"destroy body", [](Rig& r) { r.world.destroy_body(r.grid[3]); }},
      {"mass",
       [](Rig& r) {
         Material m;
         m.density = 7.0f;
         r.world.set_material(r.grid[10], m);
         r.world.set_material(r.rope_end, m);
       }},
      {"type", [](Rig& r) { r.world.set_type(r.grid[r.grid.size() / 2 + 1], BodyType::Static); }},
      {"rotation lock", [](Rig& r) { r.world.set_motion_locks(r.grid[9], false, false, true); }},
      {"shape added",
       [](Rig& r) {
         ShapeDef s;
         s.shape = CircleShape{0.3f};
         s.offset = {0.3f, 0};
         s.filter.category = kGridCategory, s.filter.mask = ~kGridCategory;
         r.world.add_shape(r.grid[11], s);
       }},
      {"substep length", [](Rig& r) { r.world.set_substeps(6); }},
  };
}

// Steps the rig (which keeps its packing) and a copy repacked before every step alike.
void expect_same_as_repacked(Rig& r, int steps, const std::string& what) {
  World twin = r.world.copy();
  for (int s = 0; s < steps; ++s) {
    r.world.step(test::kDt);
    repack_next_step(twin);
    twin.step(test::kDt);
    ASSERT_EQ(pose_bits(r.world), pose_bits(twin)) << what << ", step " << s;
  }
}

void check_changes(int side) {
  for (const Change& change : changes()) {
    Rig r = build(side);
    for (int s = 0; s < 3; ++s) r.world.step(test::kDt);
    World unchanged = r.world.copy();
    change.apply(r);
    expect_same_as_repacked(r, 10, change.name);
    // The change matters: a packing left stale would have moved the bodies otherwise.
    for (int s = 0; s < 10; ++s) unchanged.step(test::kDt);
    EXPECT_NE(pose_bits(r.world), pose_bits(unchanged)) << change.name;
  }
}

TEST(JointPacking, KeptOnlyWhileNothingChanged) {
  Rig r = build(24);
  r.world.step(test::kDt);
  const PointMotion& m = state_of(r.world).joints.point_motion;
  const std::uint64_t packed = m.packed_version;
  for (int s = 0; s < 3; ++s) r.world.step(test::kDt);
  EXPECT_EQ(m.packed_version, packed);  // nothing changed: kept
  r.world.set_joint_motor_speed(r.motored, 1.0f);
  r.world.step(test::kDt);
  EXPECT_NE(m.packed_version, packed);  // packed afresh
}

TEST(JointPacking, ChangesBetweenStepsColoured) { check_changes(24); }

TEST(JointPacking, ChangesBetweenStepsInCreationOrder) { check_changes(6); }

// Sleep and wake, which the step itself and the wake of a touched island bring: the resting pair
// falls asleep within its sleep time, and one created asleep is woken.
TEST(JointPacking, SleepAndWake) {
  Rig r = build(24);
  EXPECT_FALSE(r.world.is_sleeping(r.resting));
  expect_same_as_repacked(r, 60, "falling asleep");
  EXPECT_TRUE(r.world.is_sleeping(r.resting));  // 1 s of rest > sleep_time 0.5 s
  Rig asleep = build(24, true);
  for (int s = 0; s < 3; ++s) asleep.world.step(test::kDt);
  EXPECT_TRUE(asleep.world.is_sleeping(asleep.resting));
  World still = asleep.world.copy();
  asleep.world.wake(asleep.resting);
  asleep.world.apply_impulse(asleep.resting, {0, 2}, {20.2f, 0.5f});
  expect_same_as_repacked(asleep, 10, "woken");
  for (int s = 0; s < 10; ++s) still.step(test::kDt);
  EXPECT_NE(pose_bits(asleep.world), pose_bits(still));
}

}  // namespace
}  // namespace strut
