// The joints' velocity passes (joint_motion_passes, solver/joints/joint_solver.cpp). Revolute
// joints whose bodies form a tree are solved exactly (solver/joints/tree_motion.hpp), so their
// result does not depend on the pass count; the rest run Gauss-Seidel passes that stop once
// converged, so a pass count beyond convergence changes no bit either.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "solver/joints/point_motion.hpp"
#include "solver/world_state.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

struct Chain {
  std::vector<float> state;  // every link's x, y, angle after the run
  float widest_gap = 0;      // the largest anchor gap met (joint_length)
};

// A chain of `length` boxes on revolute joints, hung from a static body and released 0.6 rad off
// the vertical, stepped 240 steps (4 s) at 4 substeps. With `weld_last`, the last link is also
// welded to a small box hanging under it: the weld (no revolute joint) takes the chain's bodies
// out of the trees, so its revolute joints run the passes.
Chain swing_chain(int length, int joint_passes, bool weld_last = false) {
  WorldConfig config;
  config.threads = 1;
  config.joint_passes = joint_passes;
  World world(config);
  BodyDef ground;
  ground.is_static = true;
  ground.shapes = {ShapeDef{BoxShape{{0.2f, 0.2f}}}};
  BodyId previous = world.create_body(ground);
  std::vector<BodyId> links;
  std::vector<JointId> joints;
  const float c = std::cos(0.6f), s = std::sin(0.6f);
  for (int k = 0; k < length; ++k) {
    BodyDef link;
    link.shapes = {ShapeDef{BoxShape{{0.1f, 0.5f}}}};
    link.center = {s * (0.5f + float(k)), -c * (0.5f + float(k))};
    link.angle = 0.6f;
    const BodyId id = world.create_body(link);
    RevoluteJointDef joint;
    joint.a = previous, joint.b = id;
    joint.anchor = {s * float(k), -c * float(k)};
    joints.push_back(world.create_joint(joint));
    links.push_back(id);
    previous = id;
  }
  if (weld_last) {
    BodyDef tip;
    tip.shapes = {ShapeDef{BoxShape{{0.05f, 0.05f}}}};
    tip.center = {s * (float(length) + 0.05f), -c * (float(length) + 0.05f)};
    tip.angle = 0.6f;
    const BodyId id = world.create_body(tip);
    WeldJointDef weld;
    weld.a = previous, weld.b = id;
    weld.anchor = {s * float(length), -c * float(length)};
    world.create_joint(weld);
    links.push_back(id);
  }
  Chain out;
  for (int step = 0; step < 240; ++step) {
    world.step(1.0f / 60.0f);
    for (const JointId j : joints) out.widest_gap = std::max(out.widest_gap, world.joint_length(j));
  }
  for (const BodyId b : links) {
    const Transform t = world.transform(b);
    out.state.insert(out.state.end(), {t.position.x, t.position.y, t.angle});
  }
  return out;
}

}  // namespace

// A pendulum and a chain of four are trees: one exact solve a substep, whatever the passes.
TEST(JointPasses, TreesEndInTheSameBitsAtAnyPassCount) {
  for (const int length : {1, 4}) {
    const Chain one = swing_chain(length, 1), eight = swing_chain(length, 8);
    EXPECT_EQ(one.state, eight.state) << length;
    EXPECT_EQ(eight.state, swing_chain(length, 16).state) << length;
    EXPECT_LT(eight.widest_gap, 1e-3f) << length;
  }
}

// Outside the trees, a pendulum welded to a tip (two joints sharing a body) converges within 16
// passes (the next passes meet only round-off), so it ends in the same bits at 16, 32 and 64;
// at 1 pass it ends elsewhere, so the comparison can fail. The passes still hold the joints.
TEST(JointPasses, StopOnceConvergedSoMorePassesChangeNoBit) {
  const Chain sixteen = swing_chain(1, 16, true);
  EXPECT_EQ(sixteen.state, swing_chain(1, 32, true).state);
  EXPECT_EQ(sixteen.state, swing_chain(1, 64, true).state);
  EXPECT_NE(sixteen.state, swing_chain(1, 1, true).state);
  EXPECT_LT(sixteen.widest_gap, 1e-3f);
  EXPECT_LT(swing_chain(4, 8, true).widest_gap, 1e-3f);
}

namespace {

// A lander (hull and two legs on motored, limited revolute joints) on a chain terrain, pushed up
// every other half second; with `rope`, a 3-link rope hangs far away from a static point. The
// rope's joints form a tree, so the lander's joints then run the passes of joint_motion_passes
// instead of run_serial_point_passes (serial_points_only). Returns every lander body's pose and
// motion bits after 120 steps.
std::vector<std::uint32_t> lander_bits(bool rope, bool& serial) {
  WorldConfig config;
  config.threads = 1;
  config.enable_sleep = false;
  World world(config);
  BodyDef ground;
  ground.is_static = true;
  ChainShape chain;
  for (int k = 0; k < 11; ++k)
    chain.points.push_back({-10.0f + 2.0f * float(k), 0.3f * float(k % 3)});
  ground.shapes = {ShapeDef{chain}};
  world.create_body(ground);
  BodyDef hull_def;
  hull_def.center = {0, 8};
  hull_def.shapes = {ShapeDef{
      .shape =
          PolygonShape{
              {{-0.9f, 0}, {-0.7f, -0.5f}, {0.7f, -0.5f}, {0.9f, 0}, {0.7f, 0.8f}, {-0.7f, 0.8f}}},
      .material = {.density = 5}}};
  const BodyId hull = world.create_body(hull_def);
  for (const float side : {-1.0f, 1.0f}) {
    BodyDef leg;
    leg.center = {0.9f * side, 7.3f}, leg.angle = 0.4f * side;
    leg.shapes = {ShapeDef{BoxShape{{0.1f, 0.4f}}}};
    RevoluteJointDef j;
    j.a = hull, j.b = world.create_body(leg), j.anchor = {0.7f * side, 7.7f};
    j.limit = {true, -0.4f, 0.4f}, j.motor = {true, 0.3f * side, 40.0f};
    world.create_joint(j);
  }
  if (rope) {
    BodyDef top;
    top.is_static = true, top.center = {100, 50}, top.shapes = {ShapeDef{BoxShape{{0.1f, 0.1f}}}};
    BodyId previous = world.create_body(top);
    for (int k = 0; k < 3; ++k) {
      BodyDef link;
      link.center = {100.5f + float(k), 50}, link.shapes = {ShapeDef{BoxShape{{0.5f, 0.1f}}}};
      RevoluteJointDef j;
      j.a = previous, j.b = world.create_body(link), j.anchor = {100.0f + float(k), 50};
      world.create_joint(j);
      previous = j.b;
    }
  }
  for (int s = 0; s < 120; ++s) {
    if ((s / 30) % 2 == 0) world.apply_force(hull, {0, 120});
    world.step(1.0f / 60);
  }
  serial = serial_points_only(state_of(world));
  const auto& b = state_of(world).bodies;
  std::vector<std::uint32_t> out;
  for (std::size_t k = 0; k < 4; ++k)  // the ground, the hull and the legs: created first
    for (const float v : {b.px[k], b.py[k], b.qc[k], b.qs[k], b.dx[k], b.dy[k], b.da[k]}) {
      std::uint32_t u;
      std::memcpy(&u, &v, sizeof u);
      out.push_back(u);
    }
  return out;
}

}  // namespace

// The serial passes of a small world give the bits of the general passes they stand for.
TEST(JointPasses, SerialPassesGiveTheGeneralPassesBits) {
  bool serial_alone = false, serial_with_rope = true;
  const std::vector<std::uint32_t> alone = lander_bits(false, serial_alone);
  const std::vector<std::uint32_t> with_rope = lander_bits(true, serial_with_rope);
  EXPECT_TRUE(serial_alone);
  EXPECT_FALSE(serial_with_rope);
  EXPECT_EQ(alone, with_rope);
}

}  // namespace strut
