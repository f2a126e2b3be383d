// The coloured strut path: the SIMD strut kernel against its scalar twin, thread-count
// independence, and the colouring it relies on. The soft bodies' own struts go to the lane groups
// (strut_lanes_test.cpp), so the worlds here brace their bodies with struts made by hand, outside
// any body, which take the coloured path; and how well zero-compliance struts hold (on the lanes).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "simd_level.hpp"
#include "solver/joints/joint_solver.hpp"
#include "solver/world_state.hpp"
#include "strut_error.hpp"
#include "test_util.hpp"
#include "tests/diagonal_struts.hpp"

namespace strut {

namespace {

using test::bits;

// 80 soft bodies (boxes, hexagons and 16-gons) rained onto the ground and onto each other, each
// braced across by diagonals made by hand (343 struts, above the coloured threshold).
void soft_rain(World& world) {
  world.create_body(test::ground_def(20));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> x(-8, 8), size(0.3f, 0.6f), spin(-2, 2);
  for (int i = 0; i < 80; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{}}};
    d.center = {x(rng), 1.0f + 0.6f * float(i)};
    d.angular_velocity = spin(rng);
    const float s = size(rng);
    if (i % 3 == 0) {
      d.shapes[0].shape = BoxShape{{s, 0.7f * s}};
    } else {
      const int n = i % 3 == 1 ? 6 : 16;
      std::vector<Vec2> v;
      for (int k = 0; k < n; ++k) {
        const float a = 2.0f * float(M_PI) * float(k) / float(n);
        v.push_back({s * std::cos(a), s * std::sin(a)});
      }
      d.shapes[0].shape = PolygonShape{v};
    }
    d.soft = i % 2 == 0 ? 1e-6f : 1e-4f;
    world.create_body(d);
  }
  WorldState& w = state_of(world);
  test::add_diagonal_struts(w, [](std::uint32_t k) { return k % 2 ? 1e-6f : 1e-4f; });
}

std::uint64_t simulate_soft_rain(bool scalar, int threads, std::size_t* groups = nullptr) {
  test::SimdLevelScope level(scalar ? SimdLevel::Scalar : simd_level());
  World world(WorldConfig{.threads = threads, .enable_sleep = false});
  soft_rain(world);
  for (int i = 0; i < 150; ++i) world.step(1.0f / 60);
  if (groups) *groups = state_of(world).soft.groups.size();
  return world.state_hash();
}

}  // namespace

// The scene must take the coloured path, or the comparisons below prove nothing.
TEST(StrutKernel, SoftRainTakesTheColouredPath) {
  World world(WorldConfig{.threads = 1});
  soft_rain(world);
  world.step(1.0f / 60);
  const WorldState& w = state_of(world);
  EXPECT_GE(w.soft.lanes.other_count, 256u);
  EXPECT_GE(w.soft.groups.size(), w.soft.lanes.other_count / std::size_t(kWideLanes));
}

// (a) The SIMD kernel and its scalar twin (the scalar SIMD level) give the same bits over a whole
// simulation.
TEST(StrutKernel, SimdKernelMatchesItsScalarTwinOverAWholeSimulation) {
  std::size_t groups = 0;
  const std::uint64_t simd = simulate_soft_rain(false, 1, &groups);
  EXPECT_GT(groups, 0u);
  EXPECT_EQ(simulate_soft_rain(true, 1), simd);
}

// (b) Colours are solved in parallel chunks whose bounds depend on the thread count; the result
// must not. 8 threads oversubscribe this machine's cores, which shuffles the chunk timing.
TEST(StrutKernel, ColouredPathIsBitIdenticalForAnyThreadCount) {
  const std::uint64_t one = simulate_soft_rain(false, 1);
  EXPECT_EQ(simulate_soft_rain(false, 1), one) << "two runs on one thread differ";
  EXPECT_EQ(simulate_soft_rain(false, 2), one) << "2 threads";
  EXPECT_EQ(simulate_soft_rain(false, 8), one) << "8 threads";
  EXPECT_EQ(simulate_soft_rain(true, 8), one) << "scalar twin, 8 threads";
}

namespace {

using test::StrutError;

// A chain of `links` soft diamonds (boxes of half extent 0.2 turned 45 degrees) hanging from a
// static hook, each diamond's bottom vertex pinned to the next one's top vertex, with drag so
// the swing dies out and the static load is what is measured. The public API makes a body of
// compliance 0 rigid (no struts), so the test sets compliance 0 on the struts directly (and on
// the copies the lane groups keep of them).
StrutError hanging_chain(int links, int substeps, int steps) {
  World world(
      WorldConfig{.gravity = {0, -10}, .substeps = substeps, .threads = 2, .enable_sleep = false});
  const float half = 0.2f;
  const float diag = half * std::sqrt(2.0f);  // centre to vertex
  BodyDef hook;
  hook.shapes = {ShapeDef{.shape = CircleShape{0.05f}, .filter = {.mask = 0}}};
  hook.is_static = true;
  BodyId above = world.create_body(hook);
  Vec2 top{0, 0};
  for (int i = 0; i < links; ++i) {
    BodyDef d = test::box_def({0, top.y - diag}, {half, half});
    d.angle = 0.25f * float(M_PI);
    d.soft = 1e-6f;
    d.linear_drag = 2;
    d.shapes[0].filter.mask = 0;
    const BodyId link = world.create_body(d);
    RevoluteJointDef j;
    j.a = above, j.b = link, j.anchor = top;
    world.create_joint(j);
    above = link;
    top.y -= 2 * diag;
  }
  WorldState& w = state_of(world);
  for (Strut& s : w.soft.struts) s.compliance = 0;
  w.soft.lanes.dirty = true;
  for (int i = 0; i < steps; ++i) world.step(1.0f / 60);
  EXPECT_FALSE(w.soft.lanes.groups.empty()) << "the chain must take the lanes";
  return test::strut_error(w);
}

}  // namespace

// (c) Zero-compliance struts on the lanes hold their length under the load of a hanging chain of
// 40 links (320 struts; the top link carries the 39 below it). One iteration per substep leaves
// a Gauss-Seidel residual that grows with the load and shrinks with the substep count. Measured
// at 16 substeps after 5 s: worst 1.90% (the top link's spoke to its pinned vertex), mean 0.47%,
// as the coloured path and the creation-order loop measured on this chain before the lanes took
// its bodies. At 4 substeps the paths reached 30%, which is why the test uses
// 16. Tolerances 3% and 0.75%: about 1.5 times the measurement, room for solver changes that
// move the residual a little, while a broken projection (wrong sign, a lost correction, a
// multiplier that is not reset) stretches the chain far beyond.
TEST(StrutKernel, ZeroComplianceStrutsHoldTheirLengthInAHangingChain) {
  const StrutError e = hanging_chain(40, 16, 300);
  EXPECT_LT(e.worst, 0.03f);
  EXPECT_LT(e.mean, 0.0075f);
}

namespace {

// SoftBody.DeformsMoreWithLargerCompliance... (soft_body_test.cpp) on the lanes: 40 soft
// boxes of 10 kg (320 struts), each hung by its two top corners from static pins; the mean height
// they hang at.
float height_of_hanging_boxes(float compliance, int substeps, int iterations) {
  World world(WorldConfig{.gravity = {0, -10},
                          .substeps = substeps,
                          .iterations = iterations,
                          .threads = 2,
                          .enable_sleep = false});
  std::vector<BodyId> boxes;
  for (int k = 0; k < 40; ++k) {
    boxes.push_back(test::hang_soft_box(world, 2.0f * float(k), compliance));
  }
  for (int i = 0; i < 480; ++i) world.step(1.0f / 60);
  EXPECT_FALSE(state_of(world).soft.lanes.groups.empty()) << "not on the lanes";
  float sum = 0;
  for (BodyId box : boxes) {
    const BodyState s = world.state(box);
    sum += 0.5f * (s.shapes[0].vertices[2].y + s.shapes[0].vertices[3].y) -
           0.5f * (s.shapes[0].vertices[0].y + s.shapes[0].vertices[1].y);
  }
  return sum / float(boxes.size());
}

}  // namespace

// XPBD on the lanes: the multipliers live in the lane rows, reset every substep, so the
// compliance, not the substep or iteration count, sets the stiffness (same bounds as the
// creation-order test in soft_body_test.cpp).
TEST(StrutKernel, LanesKeepXpbdStiffnessAcrossSubstepsAndIterations) {
  const float stiff = height_of_hanging_boxes(1e-7f, 4, 1);
  const float soft = height_of_hanging_boxes(1e-3f, 4, 1);
  const float soft8 = height_of_hanging_boxes(1e-3f, 8, 1);
  const float soft_it4 = height_of_hanging_boxes(1e-3f, 4, 4);
  EXPECT_NEAR(stiff, 1.0f, 0.002f);
  EXPECT_GT(soft, stiff + 0.01f);
  const float stretch = soft - 1.0f;
  EXPECT_NEAR(soft8 - 1.0f, stretch, 0.05f * stretch);
  EXPECT_NEAR(soft_it4 - 1.0f, stretch, 0.05f * stretch);
}

namespace {

// Checks what the kernel relies on: every strut outside the lane groups in exactly one lane,
// padding only at the end of a colour's last group, and no movable particle twice in one colour
// (overflow excepted).
void expect_valid_strut_colouring(const WorldState& w) {
  ASSERT_EQ(w.soft.group_begin.size(), std::size_t(kColourCount + 2));
  std::vector<int> seen(w.soft.struts.size(), 0), coloured(w.soft.struts.size(), 0);
  for (const StrutRun& r : w.soft.lanes.other)
    for (std::uint32_t k = r.begin; k < r.end; ++k) coloured[k] = 1;
  for (int colour = 0; colour <= kOverflowColour; ++colour) {
    std::set<std::int32_t> owned;
    const std::uint32_t b = w.soft.group_begin[colour], e = w.soft.group_begin[colour + 1];
    for (std::uint32_t gi = b; gi < e; ++gi) {
      const WideStrut& g = w.soft.groups[gi];
      for (int lane = 0; lane < kWideLanes; ++lane) {
        if (g.a[lane] == kStrutPadding) {
          EXPECT_EQ(gi, e - 1) << "padding before a colour's last group";
          EXPECT_TRUE(lane == kWideLanes - 1 || g.a[lane + 1] == kStrutPadding);
          continue;
        }
        const std::uint32_t k = g.strut[lane];
        ASSERT_LT(k, w.soft.struts.size());
        ++seen[k];
        EXPECT_EQ(g.a[lane], std::int32_t(w.soft.struts[k].a));
        EXPECT_EQ(g.b[lane], std::int32_t(w.soft.struts[k].b));
        if (colour == kOverflowColour) continue;
        for (const std::int32_t p : {g.a[lane], g.b[lane]}) {
          if (!(w.particles.w[std::size_t(p)] > 0)) continue;
          EXPECT_TRUE(owned.insert(p).second)
              << "particle " << p << " moved by two struts of colour " << colour;
        }
      }
    }
  }
  for (std::size_t k = 0; k < seen.size(); ++k) EXPECT_EQ(seen[k], coloured[k]) << "strut " << k;
}

// A fan: a pinned hub joined to `spokes` movable particles, a ring of struts through those
// particles, and apart from them one zero-length strut. The hub is shared by every spoke, each rim
// particle by two ring struts and a spoke.
void make_fan(WorldState& w, int spokes) {
  auto& q = w.particles;
  auto add = [&](float x, float y, float inv_mass) {
    q.x.push_back(x), q.y.push_back(y), q.dx.push_back(0), q.dy.push_back(0);
    q.w.push_back(inv_mass), q.lx.push_back(0), q.ly.push_back(0), q.body.push_back(0);
  };
  add(0, 0, 0);  // hub, pinned
  for (int i = 0; i < spokes; ++i) {
    const float a = 2.0f * float(M_PI) * float(i) / float(spokes);
    add(1.1f * std::cos(a), 0.9f * std::sin(a), 1.0f + 0.01f * float(i));
  }
  const float ring = 2.0f * std::sin(float(M_PI) / float(spokes));
  for (std::uint32_t i = 1; i <= std::uint32_t(spokes); ++i) {
    w.soft.struts.push_back({0, i, 1.0f, i % 2 == 0 ? 0.0f : 1e-6f});
    w.soft.struts.push_back({i, i % std::uint32_t(spokes) + 1, ring, 0.0f});
  }
  add(5, 5, 1), add(5, 5, 1);
  w.soft.struts.push_back({std::uint32_t(q.size() - 2), std::uint32_t(q.size() - 1), 0.0f, 0.0f});
}

}  // namespace

// (d) The colouring invariant on a real scene and on the fan (a pinned particle may be shared).
TEST(StrutKernel, NoTwoStrutsOfOneColourShareAMovableParticle) {
  World world(WorldConfig{.threads = 1});
  soft_rain(world);
  world.step(1.0f / 60);
  expect_valid_strut_colouring(state_of(world));
  WorldState fan(WorldConfig{.threads = 1});
  make_fan(fan, 150);
  colour_struts(fan);
  ASSERT_FALSE(fan.soft.groups.empty());
  expect_valid_strut_colouring(fan);
}

// The kernel alone on the fan: SIMD and scalar twin agree bit for bit on particles and
// multipliers, the pinned hub is never moved and the zero-length strut does nothing.
TEST(StrutKernel, SimdGroupsMatchTheTwinAndLeavePinnedAndDegenerateStrutsAlone) {
  WorldState simd(WorldConfig{.threads = 1}), scalar(WorldConfig{.threads = 1});
  make_fan(simd, 150);
  make_fan(scalar, 150);
  colour_struts(simd);
  colour_struts(scalar);
  ASSERT_GT(simd.soft.group_begin[1], 1u) << "the first colour should fill several groups";
  const float inv_h2 = 240.0f * 240.0f;
  for (int it = 0; it < 20; ++it) {
    for (WorldState* w : {&simd, &scalar}) {
      auto& q = w->particles;
      const StrutSpans p{q.x.data(), q.y.data(), q.dx.data(), q.dy.data(), q.w.data()};
      for (int colour = 0; colour <= kOverflowColour; ++colour)
        for (std::uint32_t g = w->soft.group_begin[colour]; g < w->soft.group_begin[colour + 1];
             ++g) {
          if (w == &simd && colour != kOverflowColour)
            solve_strut_group_wide(p, w->soft.groups[g], inv_h2);
          else
            solve_strut_group_scalar(p, w->soft.groups[g], inv_h2);
        }
    }
  }
  const auto& q = simd.particles;
  for (std::size_t i = 0; i < q.size(); ++i) {
    EXPECT_EQ(bits(q.x[i]), bits(scalar.particles.x[i])) << i;
    EXPECT_EQ(bits(q.y[i]), bits(scalar.particles.y[i])) << i;
    EXPECT_EQ(bits(q.dx[i]), bits(scalar.particles.dx[i])) << i;
    EXPECT_EQ(bits(q.dy[i]), bits(scalar.particles.dy[i])) << i;
  }
  for (std::size_t g = 0; g < simd.soft.groups.size(); ++g)
    for (int lane = 0; lane < kWideLanes; ++lane) {
      const float l = simd.soft.groups[g].lambda[lane];
      EXPECT_EQ(bits(l), bits(scalar.soft.groups[g].lambda[lane])) << g << " " << lane;
      if (simd.soft.groups[g].a[lane] == kStrutPadding) {
        EXPECT_EQ(bits(l), bits(0.0f));
      }
    }
  // The pinned hub and the zero-length strut's ends did not move.
  EXPECT_EQ(bits(q.x[0]), bits(0.0f));
  EXPECT_EQ(bits(q.y[0]), bits(0.0f));
  EXPECT_EQ(bits(q.dx[0]), bits(0.0f));
  const std::size_t n = q.size();
  EXPECT_EQ(q.x[n - 1], 5.0f);
  EXPECT_EQ(q.x[n - 2], 5.0f);
  EXPECT_EQ(bits(q.dx[n - 1]), bits(0.0f));
  // The struts did work: the rim, from an ellipse of radii 1.1 and 0.9, is pulled towards the
  // unit circle of the spokes' rest length.
  float worst = 0;
  for (std::size_t i = 1; i + 2 < n; ++i)
    worst = std::max(worst, std::fabs(std::hypot(q.x[i], q.y[i]) - 1.0f));
  EXPECT_LT(worst, 0.05f);
  EXPECT_NE(q.x[1], 1.1f);
}

}  // namespace strut
