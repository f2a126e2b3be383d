// The dispatched SIMD kernels (solver/simd/simd_dispatch.hpp): every subsystem's table at every
// level this CPU runs gives the scalar kernels' bits, and a world stepped at each level ends with
// the same state hash.
#include "solver/simd/simd_dispatch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "broadphase/sweep_kernel_table.hpp"
#include "solver/contacts/body_lanes.hpp"
#include "solver/contacts/contact_kernel_table.hpp"
#include "solver/contacts/contact_prepare.hpp"
#include "solver/joints/point_kernel_table.hpp"
#include "solver/joints/point_lanes.hpp"
#include "solver/soft/strut_kernel.hpp"
#include "solver/soft/strut_kernel_table.hpp"
#include "solver/step/step_kernel_table.hpp"
#include "solver/world_state.hpp"
#include "strut/scenes.hpp"
#include "strut/world.hpp"
#include "test_util.hpp"
#include "tests/diagonal_struts.hpp"
#include "tests/point_group_compare.hpp"

namespace strut {

namespace {

// Restores the process's level after a test forces others.
struct LevelGuard {
  SimdLevel saved = simd_level();
  ~LevelGuard() { set_simd_level(saved); }
};

// Every subsystem's table of every level has the level's register width (each level's file was
// compiled for its level), and its accessor gives the level in use's table.
TEST(SimdDispatch, EachLevelHasItsWidthAndTheWidestRunnableIsChosen) {
  const std::vector<SimdLevel> levels = runnable_simd_levels();
  ASSERT_FALSE(levels.empty());
  if (std::getenv("STRUT_SIMD") == nullptr) {
    EXPECT_EQ(simd_level(), levels.back());
  }
  EXPECT_EQ(levels.front(), SimdLevel::Scalar) << "every CPU runs the scalar level";
  const std::pair<SimdLevel, int> widths[] = {
      {SimdLevel::Scalar, 1}, {SimdLevel::Sse42, 4}, {SimdLevel::Avx2, 8}, {SimdLevel::Avx512, 16}};
  for (const auto& [level, lanes] : widths) {
    EXPECT_EQ(kStepKernelTables[level].lanes, lanes) << simd_level_name(level);
    EXPECT_EQ(kContactKernelTables[level].lanes, lanes) << simd_level_name(level);
    EXPECT_EQ(kPointKernelTables[level].lanes, lanes) << simd_level_name(level);
    EXPECT_EQ(kStrutKernelTables[level].lanes, lanes) << simd_level_name(level);
    EXPECT_EQ(broadphase::kSweepKernelTables[level].lanes, lanes) << simd_level_name(level);
  }
  LevelGuard guard;
  for (const SimdLevel level : levels) {
    set_simd_level(level);
    EXPECT_EQ(&step_kernels(), &kStepKernelTables[level]) << simd_level_name(level);
    EXPECT_EQ(&contact_kernels(), &kContactKernelTables[level]) << simd_level_name(level);
    EXPECT_EQ(&point_kernels(), &kPointKernelTables[level]) << simd_level_name(level);
    EXPECT_EQ(&strut_kernels(), &kStrutKernelTables[level]) << simd_level_name(level);
    EXPECT_EQ(&broadphase::sweep_kernels(), &broadphase::kSweepKernelTables[level])
        << simd_level_name(level);
  }
  for (const SimdLevel level : levels) std::printf("this CPU runs %s\n", simd_level_name(level));
}

TEST(SimdDispatch, EveryRunnableLevelMatchesTheScalarKernels) {
  const int n = 1003;  // not a multiple of any width: each level's tail is exercised
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-10, 10);
  std::vector<float> start[12];
  for (auto& v : start) v.resize(n);
  for (int i = 0; i < n; ++i) {
    const float a = u(rng);
    start[0][i] = u(rng), start[1][i] = u(rng), start[2][i] = std::cos(a);
    start[3][i] = std::sin(a);
    // Motions up to 30 rad a substep, beyond the turn clamp of 20, so the clamp is exercised.
    start[4][i] = 0.01f * u(rng), start[5][i] = 0.01f * u(rng), start[6][i] = 3 * u(rng);
    start[7][i] = u(rng), start[8][i] = u(rng), start[9][i] = u(rng);
    start[10][i] = 0.99f, start[11][i] = 0.98f;
  }
  auto spans = [](std::vector<float>* v) {
    RigidSpans s{v[0].data(), v[1].data(), v[2].data(), v[3].data(), v[4].data(),  v[5].data(),
                 v[6].data(), v[7].data(), v[8].data(), v[9].data(), v[10].data(), v[11].data()};
    s.max_move = 5.0f, s.max_turn = 20.0f;
    return s;
  };
  std::vector<float> scalar[12];
  std::copy(std::begin(start), std::end(start), std::begin(scalar));
  for (int s = 0; s < 5; ++s) {
    integrate_rigid_velocity_scalar(spans(scalar), 0, n, 1.0f / 240);
    integrate_rigid_position_scalar(spans(scalar), 0, n);
  }
  std::vector<float> box_out[4], box_scalar[4];
  for (auto& v : box_scalar) v.resize(n);
  // Sweeps of either sign and zero (a body at rest: max(0, -0)), spreads >= 0.
  std::vector<float> sweep_x(start[2]), sweep_y(start[3]), spread(start[4]);
  for (int i = 0; i < n; i += 5) sweep_x[std::size_t(i)] = 0.0f, sweep_y[std::size_t(i)] = -0.0f;
  for (float& v : spread) v = std::fabs(v);
  const BoundsSpans box_in{start[0].data(), start[1].data(), start[7].data(), start[8].data(),
                           sweep_x.data(),  sweep_y.data(),  spread.data(),   nullptr,
                           nullptr,         nullptr,         nullptr};
  auto bounds = [&](std::vector<float>* out) {
    BoundsSpans s = box_in;
    s.out_lx = out[0].data(), s.out_ly = out[1].data();
    s.out_ux = out[2].data(), s.out_uy = out[3].data();
    return s;
  };
  fatten_bounds_scalar(bounds(box_scalar), 0, n, 0.0025f);
  for (const SimdLevel level : runnable_simd_levels()) {
    const StepKernels& k = kStepKernelTables[level];
    std::vector<float> wide[12];
    std::copy(std::begin(start), std::end(start), std::begin(wide));
    for (int s = 0; s < 5; ++s) {
      k.rigid_velocity(spans(wide), 0, n, 1.0f / 240);
      k.rigid_position(spans(wide), 0, n);
    }
    for (int a = 0; a < 7; ++a)
      for (int i = 0; i < n; ++i)
        ASSERT_EQ(test::bits(wide[a][i]), test::bits(scalar[a][i]))
            << simd_level_name(level) << " array " << a << " index " << i;
    for (auto& v : box_out) v.assign(n, 0.0f);
    k.fatten_bounds(bounds(box_out), 0, n, 0.0025f);
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < n; ++i)
        ASSERT_EQ(test::bits(box_out[a][i]), test::bits(box_scalar[a][i]))
            << simd_level_name(level) << " bounds " << a << " index " << i;
  }
}

// Random wide constraints between random bodies as a colour has them: distinct movable bodies
// in the lanes of a constraint, some of infinite mass (shared, never written), padding lanes on
// the spare zero body, missing second points.
struct ContactBench {
  std::vector<SolverBody> bodies;
  std::vector<PrepareBody> prepare_bodies;
  std::vector<WideConstraint> cs;
  std::vector<std::uint8_t>
      rounded;  // every constraint's flags (ContactSet::wide_flags): radius rows read
  std::vector<WideFeatures> features;
  std::vector<LanePositions> positions;
  // With surface rows (`surfaces`): odd constraints have them (kSurfaceLanes), even ones not.
  std::vector<WideSurface> surface;
};

ContactBench random_contacts(std::uint32_t seed, int constraints, bool surfaces = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1, 1), mass(0.2f, 2);
  const int n = 4 * kContactLanes;
  ContactBench t;
  t.bodies.resize(n + 1), t.prepare_bodies.resize(n + 1);
  for (int i = 0; i < n; ++i) {
    const bool fixed = i % 9 == 0;
    const float a = 3 * u(rng);
    t.bodies[i] = {u(rng),
                   u(rng),
                   u(rng),
                   0,
                   0.01f * u(rng),
                   0.01f * u(rng),
                   std::cos(0.01f * a),
                   std::sin(0.01f * a)};
    // Every fourth body crowded: its pairs get a share of the push-out cap (push_out_scale).
    const float push_scale = i % 4 == 1 ? 0.05f + 0.45f * (u(rng) + 1) : 1.0f;
    t.prepare_bodies[i] = {std::cos(a),           std::sin(a),    0.01f * u(rng),
                           0.01f * u(rng),        0.02f * u(rng), fixed ? 0 : mass(rng),
                           fixed ? 0 : mass(rng), push_scale};
  }
  std::vector<std::uint32_t> order(n);
  for (int i = 0; i < n; ++i) order[i] = std::uint32_t(i);
  std::shuffle(order.begin(), order.end(), rng);
  t.cs.resize(std::size_t(constraints));
  t.rounded.assign(std::size_t(constraints), kRoundedLanes);
  if (surfaces) {
    t.surface.resize(std::size_t(constraints));
    for (int k = 0; k < constraints; ++k) {
      if (k % 2 == 0) continue;
      t.rounded[std::size_t(k)] |= kSurfaceLanes;
      WideSurface& s = t.surface[std::size_t(k)];
      for (int lane = 0; lane < kContactLanes; ++lane) {
        // Some lanes without a surface beside lanes with one, as in a world.
        const bool none = lane % 3 == 2;
        s.tangent[lane] = none ? 0 : 0.01f * u(rng);
        s.rolling[lane] = none ? 0 : 0.05f * (u(rng) + 1);
        s.rolling_mass[lane] = none ? 0 : 0.5f * (u(rng) + 1.5f);
        s.lambda_r[lane] = none ? 0 : 0.001f * u(rng);
      }
    }
  }
  t.features.resize(std::size_t(constraints));
  t.positions.resize(std::size_t(constraints));
  for (int k = 0; k < constraints; ++k) {
    WideConstraint& c = t.cs[k];
    LanePositions& at = t.positions[k];
    for (int lane = 0; lane < kContactLanes; ++lane) {
      // Bodies close together, so that most points overlap and push.
      at.ax[lane] = 0.2f * u(rng), at.ay[lane] = 0.2f * u(rng);
      at.bx[lane] = 0.2f * u(rng), at.by[lane] = 0.2f * u(rng);
      // Layers of one work item run between the same bodies (groups of fast pairs).
      const bool pad = lane % 7 == 6;
      c.a[lane] = pad ? std::uint32_t(n) : order[2 * lane];
      c.b[lane] = pad ? std::uint32_t(n) : order[2 * lane + 1];
      c.friction[lane] = 0.6f, c.static_friction[lane] = 0.8f;
      for (int p = 0; p < 2; ++p) {
        FeatureRows& f = t.features[k].p[p];
        f.vlx[lane] = 0.5f * u(rng), f.vly[lane] = 0.5f * u(rng);
        f.l1x[lane] = 0.5f * u(rng), f.l1y[lane] = 0.5f * u(rng);
        f.l2x[lane] = 0.5f * u(rng), f.l2y[lane] = 0.5f * u(rng);
        f.edge[lane] = lane % 3 ? 1.0f : 0.0f;
        f.rv[lane] = lane % 4 ? 0.0f : 0.2f, f.ro[lane] = 0;
        f.fnx[lane] = 0, f.fny[lane] = 1;
        const bool present = !pad && (p == 0 || lane % 5 != 0);
        f.present[lane] = present ? 1.0f : 0.0f;
        f.flip[lane] = present && (lane + p) % 2 ? 1.0f : 0.0f;
        WidePoint& w = c.p[p];
        w.lambda_n[lane] = present ? 0.5f * (u(rng) + 1) : 0;
        w.lambda_t[lane] = present ? 0.1f * u(rng) : 0;
        w.sliding[lane] = lane % 6 == 1 ? 1.0f : 0.0f;
        f.point[lane] = ~0u;
      }
    }
  }
  return t;
}

// Prepares t's constraints through the scalar twin.
void prepare_scalar(ContactBench& t) {
  for (std::size_t k = 0; k < t.cs.size(); ++k)
    for (int lane = 0; lane < kContactLanes; ++lane)
      wide::prepare_lanes<float>(t.prepare_bodies.data(), t.positions[k], t.features[k], t.cs[k],
                                 lane);
}

// A substep's passes over t: warm start, a solve, a relax, through the kernels of k or (null)
// the scalar twin, all constraints as one work item (their layers share the lanes' bodies).
void solve(ContactBench& t, const ContactKernels* k) {
  WidePass pass{0.2f, 0.8f, 0.1f, 0.3f, 0.7f, 0.2f, 0.01f, 0.002f, true};
  WidePass relax = pass;
  relax.use_bias = false;
  const auto count = std::uint32_t(t.cs.size());
  WideSurface* surface = t.surface.empty() ? nullptr : t.surface.data();
  if (k) {
    k->warm_start(t.bodies.data(), t.cs.data(), count);
    if (surface)
      k->warm_start_rolling(t.bodies.data(), t.cs.data(), count, t.rounded.data(), surface);
    k->solve(t.bodies.data(), t.cs.data(), count, pass, t.rounded.data(), surface);
    k->solve(t.bodies.data(), t.cs.data(), count, relax, t.rounded.data(), surface);
    return;
  }
  // Warm start (round 0), its rolling impulses after it (round 1), then the pass (round 2).
  for (const WidePass& p : {pass, relax})
    for (int round = p.use_bias ? 0 : 2; round < 3; ++round)
      for (WideConstraint& c : t.cs)
        run_scalar(t.bodies.data(), c, [&](wide::Body<float>& A, wide::Body<float>& B, int lane) {
          const std::size_t at = std::size_t(&c - t.cs.data());
          WideSurface* s = (t.rounded[at] & kSurfaceLanes) ? surface + at : nullptr;
          if (round == 0)
            wide::warm_start_lanes(A, B, c, lane);
          else if (round == 1 && s)
            wide::warm_start_rolling(A, B, c, lane, *s);
          else if (round == 2)
            wide::solve_lanes(A, B, c, lane, p, true, s);
        });
}

// Seeds 6 to 10 add surface rows (tangent speed, rolling resistance) to every odd constraint.
TEST(SimdDispatch, EveryLevelsContactKernelsGiveTheScalarTwinsBits) {
  for (std::uint32_t seed = 1; seed <= 10; ++seed) {
    const int layers = int(seed % 3) + 1;  // one wide constraint, or a group of layers
    const bool surfaces = seed > 5;
    ContactBench scalar = random_contacts(seed, layers, surfaces);
    prepare_scalar(scalar);
    const ContactBench prepared = scalar;
    solve(scalar, nullptr);
    for (const SimdLevel level : runnable_simd_levels()) {
      const ContactKernels& k = kContactKernelTables[level];
      ContactBench wide = random_contacts(seed, layers, surfaces);
      for (std::size_t c = 0; c < wide.cs.size(); ++c)
        k.prepare(wide.prepare_bodies.data(), wide.positions[c], wide.features[c], wide.cs[c]);
      for (std::size_t c = 0; c < wide.cs.size(); ++c)
        ASSERT_EQ(0, std::memcmp(&wide.cs[c], &prepared.cs[c], sizeof(WideConstraint)))
            << simd_level_name(level) << " prepare, seed " << seed << " constraint " << c;
      solve(wide, &k);
      for (std::size_t c = 0; c < wide.cs.size(); ++c)
        ASSERT_EQ(0, std::memcmp(&wide.cs[c], &scalar.cs[c], sizeof(WideConstraint)))
            << simd_level_name(level) << " solve, seed " << seed << " constraint " << c;
      for (std::size_t i = 0; i < wide.bodies.size(); ++i)
        ASSERT_EQ(0, std::memcmp(&wide.bodies[i], &scalar.bodies[i], sizeof(SolverBody)))
            << simd_level_name(level) << " seed " << seed << " body " << i;
      for (std::size_t c = 0; c < wide.surface.size(); ++c)
        ASSERT_EQ(0, std::memcmp(&wide.surface[c], &scalar.surface[c], sizeof(WideSurface)))
            << simd_level_name(level) << " surface rows, seed " << seed << " constraint " << c;
    }
  }
  // The kernels did something: the bodies moved.
  ContactBench t = random_contacts(1, 1);
  const std::vector<SolverBody> before = t.bodies;
  prepare_scalar(t);
  solve(t, nullptr);
  int moved = 0;
  for (std::size_t i = 0; i < t.bodies.size(); ++i) moved += t.bodies[i].dx != before[i].dx;
  EXPECT_GT(moved, kContactLanes);
}

// A 15-row pyramid (120 boxes) hit by spinning circles, 90 steps at 2 threads: the same hash at
// every level this CPU runs.
std::uint64_t pyramid_hash() {
  World world({.substeps = 4, .threads = 2});
  world.create_body(test::ground_def());
  for (int row = 0; row < 15; ++row)
    for (int i = 0; i <= 14 - row; ++i)
      world.create_body(test::box_def({float(i) - 0.5f * float(14 - row), 0.5f + float(row)}));
  for (int i = 0; i < 5; ++i) {
    BodyDef ball;
    ball.shapes = {ShapeDef{CircleShape{0.3f}}};
    ball.center = {-12.0f - float(i), 2.0f + float(i)};
    ball.velocity = {20, 0}, ball.angular_velocity = 50;
    world.create_body(ball);
  }
  for (int i = 0; i < 90; ++i) world.step(1.0f / 60);
  return world.state_hash();
}

TEST(SimdDispatch, WorldsGiveTheScalarTwinsHashAtEveryLevel) {
  LevelGuard guard;
  set_simd_level(SimdLevel::Scalar);
  const std::uint64_t scalar = pyramid_hash();
  for (const SimdLevel level : runnable_simd_levels()) {
    set_simd_level(level);
    EXPECT_EQ(pyramid_hash(), scalar) << simd_level_name(level);
  }
  std::printf("hash %016llx at every level\n", (unsigned long long)scalar);
}

// 34 soft triangles (lane groups of 32 and 2) falling on a ground, 60 steps: the strut lanes at
// every level give the bits of the scalar level (the lanes' scalar twin; the twin against the
// creation-order loop: StrutLanes.* in strut_lanes_test.cpp).
std::uint64_t soft_hash(int* full_groups = nullptr) {
  World world({.substeps = 4, .threads = 2});
  world.create_body(test::ground_def(30));
  for (int i = 0; i < 34; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{PolygonShape{{{-0.3f, 0}, {0.3f, 0}, {0, 0.4f}}}}};
    d.soft = i % 3 == 0 ? 1e-6f : 1e-4f;
    d.center = {float(i % 10) - 5.0f, 1.0f + 0.8f * float(i / 10)};
    world.create_body(d);
  }
  for (int i = 0; i < 60; ++i) world.step(1.0f / 60);
  if (full_groups)
    for (const LaneGroup& g : state_of(world).soft.lanes.groups)
      *full_groups += g.lanes == std::uint32_t(kLaneBodies);
  return world.state_hash();
}

TEST(SimdDispatch, StrutLanesGiveTheScalarTwinsHashAtEveryLevel) {
  LevelGuard guard;
  set_simd_level(SimdLevel::Scalar);
  const std::uint64_t scalar = soft_hash();
  for (const SimdLevel level : runnable_simd_levels()) {
    set_simd_level(level);
    EXPECT_EQ(soft_hash(), scalar) << simd_level_name(level);
  }
  int full = 0;
  soft_hash(&full);
  EXPECT_GE(full, 1);  // a group of 32 bodies was solved in lanes
}

// Random joint-point groups of one colour, as point_motion packs them: lane i joins bodies 2i and
// 2i + 1 of its group, a third of the a bodies fixed, the last group half padding (lane 0's
// bodies, zero masses); every group but the first with angle rows (lane i's bits pick a spring,
// a motor, limits).
struct PointBench {
  std::vector<float> col[7];  // px, py, qc, qs, dx, dy, da
  std::vector<PointGroup> groups;
  std::vector<AngleGroup> angles;
  PointSpans spans() {
    return {col[0].data(), col[1].data(), col[2].data(), col[3].data(),
            col[4].data(), col[5].data(), col[6].data()};
  }
};

PointBench random_points(int group_count) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1, 1), mass(0.1f, 2.0f);
  PointBench t;
  for (std::size_t k = 0; k < std::size_t(group_count) * kWideLanes * 2; ++k) {
    const float angle = 3 * u(rng);
    const float v[7] = {5 * u(rng),     5 * u(rng),     std::cos(angle), std::sin(angle),
                        0.01f * u(rng), 0.01f * u(rng), 0.01f * u(rng)};
    for (int c = 0; c < 7; ++c) t.col[c].push_back(v[c]);
  }
  t.groups.resize(std::size_t(group_count));
  for (int k = 0; k < group_count; ++k) {
    PointGroup& g = t.groups[std::size_t(k)];
    for (int i = 0; i < kWideLanes; ++i) {
      const bool pad = k == group_count - 1 && i >= kWideLanes / 2;
      const auto a = std::uint32_t((k * kWideLanes + i) * 2);
      const bool fixed = i % 3 == 0;
      g.a[i] = pad ? g.a[0] : a, g.b[i] = pad ? g.b[0] : a + 1;
      g.ma[i] = pad || fixed ? 0.0f : mass(rng), g.ia[i] = pad || fixed ? 0.0f : mass(rng);
      g.mb[i] = pad ? 0.0f : mass(rng), g.ib[i] = pad ? 0.0f : mass(rng);
      g.lax[i] = u(rng), g.lay[i] = u(rng), g.lbx[i] = u(rng), g.lby[i] = u(rng);
      g.px[i] = pad ? 0.0f : 0.001f * u(rng), g.py[i] = pad ? 0.0f : 0.001f * u(rng);
      g.joint[i] = pad ? kPointPadding : std::uint32_t(k * kWideLanes + i);
    }
  }
  t.angles.resize(std::size_t(group_count));
  for (int k = 1; k < group_count; ++k)
    for (int i = 0; i < kWideLanes; ++i) {
      if (t.groups[std::size_t(k)].joint[i] == kPointPadding) continue;
      AngleRows r;
      r.spring = i & 1, r.motor = i & 2, r.limit = i & 4;
      r.spring_per_mass = 0.5f + u(rng), r.spring_gamma = 0.2f + 0.1f * u(rng);
      r.motor_shift = 0.01f * u(rng), r.motor_bound = 0.001f * (1.5f + u(rng));
      r.lower = 0.3f * u(rng) - 0.2f, r.upper = r.lower + 0.1f + 0.1f * u(rng);
      const float reference = u(rng);
      r.reference = {std::cos(reference), std::sin(reference)};
      fill_angle_lane(t.angles[std::size_t(k)], i, r);
    }
  return t;
}

// A substep of the point kernels: refresh with warm start, three passes, two iterations of the
// projection, a refresh without; through the kernels of k, or (null) the scalar twins.
void run_points(PointBench& t, const PointKernels* k) {
  const auto n = std::uint32_t(t.groups.size());
  PointGroup* g = t.groups.data();
  AngleGroup* a = t.angles.data();
  if (k) {
    k->refresh(t.spans(), g, 0, n, true);
    for (int pass = 0; pass < 3; ++pass) k->solve(t.spans(), g, 0, n);
    for (int it = 0; it < 2; ++it) k->project(t.spans(), g, a, 0, n, it == 0);
    k->refresh(t.spans(), g, 0, n, false);
    return;
  }
  refresh_point_groups_scalar(t.spans(), g, 0, n, true);
  for (int pass = 0; pass < 3; ++pass) solve_point_groups_scalar(t.spans(), g, 0, n);
  for (int it = 0; it < 2; ++it) project_point_groups_scalar(t.spans(), g, a, 0, n, it == 0);
  refresh_point_groups_scalar(t.spans(), g, 0, n, false);
}

TEST(SimdDispatch, EveryLevelsJointPointKernelsGiveTheScalarTwinsBits) {
  const PointBench start = random_points(5);
  PointBench scalar = start;
  run_points(scalar, nullptr);
  for (const SimdLevel level : runnable_simd_levels()) {
    PointBench wide = start;
    run_points(wide, &kPointKernelTables[level]);
    for (int c = 0; c < 7; ++c)
      ASSERT_EQ(0, std::memcmp(wide.col[c].data(), scalar.col[c].data(),
                               scalar.col[c].size() * sizeof(float)))
          << simd_level_name(level) << " body column " << c;
    for (std::size_t k = 0; k < wide.groups.size(); ++k)
      ASSERT_TRUE(test::same_used_lanes(wide.groups[k], scalar.groups[k]))
          << simd_level_name(level) << " group " << k;
    for (std::size_t k = 0; k < wide.angles.size(); ++k)
      ASSERT_EQ(0, std::memcmp(&wide.angles[k], &scalar.angles[k], sizeof(AngleGroup)))
          << simd_level_name(level) << " angle rows of group " << k;
  }
  // The kernels did something: the bodies moved and turned.
  EXPECT_NE(0, std::memcmp(scalar.col[4].data(), start.col[4].data(), 4 * start.col[4].size()));
  EXPECT_NE(0, std::memcmp(scalar.col[2].data(), start.col[2].data(), 4 * start.col[2].size()));
}

// Random strut groups of one colour: strut k joins particles 2k and 2k + 1, one end in five
// pinned (w = 0), some at zero length (skipped), the last group ending in padding.
struct StrutBench {
  std::vector<float> x, y, dx, dy, w;
  std::vector<WideStrut> groups;
  StrutSpans spans() { return {x.data(), y.data(), dx.data(), dy.data(), w.data()}; }
};

StrutBench random_struts(int group_count) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-1, 1), mass(0.5f, 4.0f);
  StrutBench t;
  const std::size_t particles = std::size_t(group_count) * kWideLanes * 2;
  for (std::size_t i = 0; i < particles; ++i) {
    const bool same = i % 2 == 1 && i % 22 == 1;  // b on top of a: zero length
    t.x.push_back(same ? t.x.back() : u(rng)), t.y.push_back(same ? t.y.back() : u(rng));
    t.dx.push_back(0.01f * u(rng)), t.dy.push_back(0.01f * u(rng));
    t.w.push_back(i % 5 == 0 ? 0.0f : mass(rng));
  }
  t.groups.resize(std::size_t(group_count));
  for (int k = 0; k < group_count; ++k) {
    WideStrut& g = t.groups[std::size_t(k)];
    for (int i = 0; i < kWideLanes; ++i) {
      const bool pad = k == group_count - 1 && i >= kWideLanes - 5;
      const auto a = std::int32_t((k * kWideLanes + i) * 2);
      g.a[i] = pad ? kStrutPadding : a, g.b[i] = pad ? kStrutPadding : a + 1;
      g.rest[i] = 0.5f * (u(rng) + 1), g.compliance[i] = i % 4 == 0 ? 0.0f : 1e-6f;
      g.lambda[i] = 0.0f, g.strut[i] = std::uint32_t(k * kWideLanes + i);
    }
  }
  return t;
}

TEST(SimdDispatch, EveryLevelsStrutGroupKernelGivesTheScalarTwinsBits) {
  const float inv_h2 = 240.0f * 240.0f;
  const StrutBench start = random_struts(4);
  StrutBench scalar = start;
  for (int it = 0; it < 3; ++it)
    for (WideStrut& g : scalar.groups) solve_strut_group_scalar(scalar.spans(), g, inv_h2);
  for (const SimdLevel level : runnable_simd_levels()) {
    StrutBench wide = start;
    for (int it = 0; it < 3; ++it)
      for (WideStrut& g : wide.groups) kStrutKernelTables[level].group(wide.spans(), g, inv_h2);
    for (const auto column : {&StrutBench::x, &StrutBench::y, &StrutBench::dx, &StrutBench::dy})
      ASSERT_EQ(0, std::memcmp((wide.*column).data(), (scalar.*column).data(),
                               (scalar.*column).size() * sizeof(float)))
          << simd_level_name(level);
    for (std::size_t k = 0; k < wide.groups.size(); ++k)
      ASSERT_EQ(0, std::memcmp(&wide.groups[k], &scalar.groups[k], sizeof(WideStrut)))
          << simd_level_name(level) << " group " << k;
  }
  EXPECT_NE(0, std::memcmp(scalar.x.data(), start.x.data(), 4 * start.x.size()));
}

// joint_grid (pins solved in joint-point lanes), 60 steps at 2 threads: the scalar twins' hash at
// every level.
std::uint64_t joint_grid_hash() {
  SceneInstance inst = build_scene(builtin_scene("joint_grid", 0.2f), 2);
  for (int i = 0; i < 60; ++i) inst.step();
  EXPECT_FALSE(state_of(inst.world).joints.point_motion.groups.empty());
  return inst.world.state_hash();
}

TEST(SimdDispatch, JointGridGivesTheScalarTwinsHashAtEveryLevel) {
  LevelGuard guard;
  set_simd_level(SimdLevel::Scalar);
  const std::uint64_t scalar = joint_grid_hash();
  for (const SimdLevel level : runnable_simd_levels()) {
    set_simd_level(level);
    EXPECT_EQ(joint_grid_hash(), scalar) << simd_level_name(level);
  }
}

// 60 soft hexagons and 16-gons falling onto each other, each braced across by diagonals (struts
// made here, outside its own: 330 of them, so the coloured path takes them, beside the lanes),
// 90 steps at 2 threads: the scalar twin's hash at every level.
std::uint64_t coloured_soft_hash() {
  World world({.threads = 2, .enable_sleep = false});
  WorldState& w = state_of(world);
  world.create_body(test::ground_def(20));
  for (int i = 0; i < 60; ++i) {
    const int n = i % 2 ? 6 : 16;
    std::vector<Vec2> v;
    for (int k = 0; k < n; ++k) {
      const float a = 2.0f * float(M_PI) * float(k) / float(n);
      v.push_back({0.4f * std::cos(a), 0.4f * std::sin(a)});
    }
    BodyDef d;
    d.shapes = {ShapeDef{PolygonShape{v}}};
    d.center = {float(i % 12) - 6.0f, 1.0f + 0.9f * float(i / 12)};
    d.soft = i % 3 ? 1e-6f : 1e-4f;
    world.create_body(d);
  }
  test::add_diagonal_struts(w, [](std::uint32_t) { return 1e-6f; });
  for (int i = 0; i < 90; ++i) world.step(1.0f / 60);
  EXPECT_EQ(w.soft.lanes.other_count, 330u) << "the braces";
  EXPECT_GT(w.soft.group_begin[kOverflowColour], 1u) << "the braces must take the coloured path";
  return world.state_hash();
}

TEST(SimdDispatch, ColouredStrutsGiveTheScalarTwinsHashAtEveryLevel) {
  LevelGuard guard;
  set_simd_level(SimdLevel::Scalar);
  const std::uint64_t scalar = coloured_soft_hash();
  for (const SimdLevel level : runnable_simd_levels()) {
    set_simd_level(level);
    EXPECT_EQ(coloured_soft_hash(), scalar) << simd_level_name(level);
  }
}

// The program with its level forced by STRUT_SIMD (read once, at start-up, as a user would set
// it): large_pyramid's hash after 40 steps on one thread and on two is the same at every level.
std::string forced_run(const char* level, int threads) {
  const std::string command = std::string("STRUT_SIMD=") + level + " " STRUT_BINARY_DIR +
                              "/strut run large_pyramid --steps 40 --quiet --threads " +
                              std::to_string(threads) + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  EXPECT_EQ(pclose(pipe), 0) << out;
  const std::size_t at = out.find("hash: ");
  return at == std::string::npos ? out : out.substr(at + 6, 16);
}

TEST(SimdDispatch, ForcedLevelsGiveTheSameHashInTheProgram) {
  const std::vector<SimdLevel> levels = runnable_simd_levels();
  const std::string expected = forced_run(simd_level_name(levels.front()), 1);
  ASSERT_EQ(expected.size(), 16u) << expected;
  for (const SimdLevel level : levels)
    for (const int threads : {1, 2})
      EXPECT_EQ(forced_run(simd_level_name(level), threads), expected)
          << simd_level_name(level) << " at " << threads << " threads";
  std::printf("large_pyramid, 40 steps: hash %s at every level\n", expected.c_str());
}

}  // namespace
}  // namespace strut
