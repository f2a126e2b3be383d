// Kernel and whole-step benchmarks of the engine core: integration and joint point passes scalar vs
// SIMD, a step of N free particles and N free boxes, and how rigid a box stays with braces vs a
// rigid pose.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "solver/collide/manifold.hpp"
#include "solver/collide/polygon_segment_lanes.hpp"
#include "solver/contacts/body_lanes.hpp"
#include "solver/contacts/contact_kernel_table.hpp"
#include "solver/contacts/contact_prepare.hpp"
#include "solver/joints/joint_solver.hpp"
#include "solver/joints/point_motion.hpp"
#include "solver/simd/simd_dispatch.hpp"
#include "solver/soft/strut_kernel.hpp"
#include "solver/soft/strut_lanes.hpp"
#include "solver/step/bounds_kernel.hpp"
#include "solver/step/integrate.hpp"
#include "solver/world_state.hpp"
#include "strut/scenes.hpp"
#include "strut/world.hpp"

namespace strut {}  // namespace strut

namespace {

using namespace strut;

struct RigidArrays {
  std::vector<float> a[11];
  explicit RigidArrays(int n) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> u(-1, 1);
    for (auto& v : a) v.resize(std::size_t(n));
    for (int i = 0; i < n; ++i) {
      const float t = u(rng);
      a[0][i] = 10 * u(rng), a[1][i] = 10 * u(rng), a[2][i] = std::cos(t), a[3][i] = std::sin(t);
      a[4][i] = 0.01f * u(rng), a[5][i] = 0.01f * u(rng), a[6][i] = 0.01f * u(rng);
      a[7][i] = 0, a[8][i] = -10, a[9][i] = 0, a[10][i] = 1;
    }
  }
  RigidSpans spans() {
    return {a[0].data(), a[1].data(), a[2].data(), a[3].data(), a[4].data(),  a[5].data(),
            a[6].data(), a[7].data(), a[8].data(), a[9].data(), a[10].data(), a[10].data()};
  }
};

// One substep's integration (velocity half + position half) of n rigid bodies. The scalar
// kernel's translation unit is built with -fno-tree-vectorize so it stays scalar.
template <bool kSimd>
void BM_IntegrateRigid(benchmark::State& state) {
  const int n = int(state.range(0));
  RigidArrays arrays(n);
  const RigidSpans s = arrays.spans();
  for (auto _ : state) {
    if (kSimd) {
      integrate_rigid_velocity_simd(s, 0, n, 1.0f / 240);
      integrate_rigid_position_simd(s, 0, n);
    } else {
      integrate_rigid_velocity_scalar(s, 0, n, 1.0f / 240);
      integrate_rigid_position_scalar(s, 0, n);
    }
    benchmark::DoNotOptimize(arrays.a[0].data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
  // 11 arrays of floats read, 7 written.
  state.SetBytesProcessed(state.iterations() * std::int64_t(n) * 18 * 4);
}
BENCHMARK(BM_IntegrateRigid<false>)
    ->Name("BM_IntegrateRigid_Scalar")
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000);
BENCHMARK(BM_IntegrateRigid<true>)
    ->Name("BM_IntegrateRigid_Simd")
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000);

// The collide phase's bounds pass: tight boxes swept and grown by motion and slop (SoA in and
// out).
template <bool kSimd>
void BM_FattenBounds(benchmark::State& state) {
  const int n = int(state.range(0));
  std::vector<float> a[11];
  for (auto& v : a) v.assign(std::size_t(n), 1.0f);
  const BoundsSpans s{a[0].data(), a[1].data(), a[2].data(), a[3].data(), a[4].data(), a[5].data(),
                      a[6].data(), a[7].data(), a[8].data(), a[9].data(), a[10].data()};
  for (auto _ : state) {
    if (kSimd)
      fatten_bounds_simd(s, 0, n, 0.0025f);
    else
      fatten_bounds_scalar(s, 0, n, 0.0025f);
    benchmark::DoNotOptimize(a[7].data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_FattenBounds<false>)->Name("BM_FattenBounds_Scalar")->Arg(10000)->Arg(100000);
BENCHMARK(BM_FattenBounds<true>)->Name("BM_FattenBounds_Simd")->Arg(10000)->Arg(100000);

namespace {

// range(0) / 8 soft boxes (8 struts each) of mixed compliance, squashed so the struts have work
// to do (the projection's cost does not depend on how far they still are from rest).
void make_squashed_boxes(World& world, int struts) {
  const int n = struts / 8;
  const int side = int(std::ceil(std::sqrt(double(n))));
  for (int i = 0; i < n; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{.shape = BoxShape{{0.3f, 0.2f}}, .filter = {.mask = 0}}};
    d.center = {float(i % side), float(i / side)};
    d.soft = (i % 2) ? 1e-5f : 1e-7f;
    world.create_body(d);
  }
  WorldState& w = state_of(world);
  for (std::size_t i = 0; i < w.particles.size(); ++i) w.particles.y[i] *= 0.9f;
}

}  // namespace

// One iteration of strut projection over the lane groups (one soft box per lane), SIMD kernel vs
// its scalar twin on the same groups, one thread.
template <bool kSimd>
void BM_StrutProjection(benchmark::State& state) {
  World world(WorldConfig{.gravity = {0, 0}, .threads = 1});
  make_squashed_boxes(world, int(state.range(0)));
  WorldState& w = state_of(world);
  colour_struts(w);
  const StrutLanes& L = w.soft.lanes;
  auto& q = w.particles;
  const StrutSpans p{q.x.data(), q.y.data(), q.dx.data(), q.dy.data(), q.w.data()};
  const float inv_h2 = 240.0f * 240.0f;
  std::vector<LaneStrut> rows = L.rows;
  for (auto _ : state) {
    for (const LaneGroup& g : L.groups) {
      const LaneTopology& t = L.topologies[g.topology];
      const LaneShape shape{t.slots, {L.ends.data() + t.end_begin, t.strut_count}};
      if (kSimd)
        solve_lane_group_wide(p, shape, g, rows.data() + g.strut_row, inv_h2);
      else
        solve_lane_group_scalar(p, shape, g, rows.data() + g.strut_row, inv_h2);
    }
    benchmark::DoNotOptimize(q.x.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(w.soft.struts.size()));
  state.counters["groups"] = double(L.groups.size());
  state.counters["struts"] = double(w.soft.struts.size() - L.other_count);
}
BENCHMARK(BM_StrutProjection<false>)->Name("BM_StrutProjection_Scalar")->Arg(10000)->Arg(100000);
BENCHMARK(BM_StrutProjection<true>)->Name("BM_StrutProjection_Simd")->Arg(10000)->Arg(100000);

// The same boxes' struts through the coloured path (the path of struts outside any body's lane):
// each made again by hand, outside the bodies, so the colouring takes the copies; one iteration
// over the coloured groups, SIMD kernel vs its scalar twin.
template <bool kSimd>
void BM_StrutProjectionColoured(benchmark::State& state) {
  World world(WorldConfig{.gravity = {0, 0}, .threads = 1});
  make_squashed_boxes(world, int(state.range(0)));
  WorldState& w = state_of(world);
  const std::size_t own = w.soft.struts.size();
  for (std::size_t k = 0; k < own; ++k) w.soft.struts.push_back(w.soft.struts[k]);
  w.soft.lanes.dirty = true;
  colour_struts(w);
  auto& q = w.particles;
  const StrutSpans p{q.x.data(), q.y.data(), q.dx.data(), q.dy.data(), q.w.data()};
  const float inv_h2 = 240.0f * 240.0f;
  const std::uint32_t overflow = w.soft.group_begin[kOverflowColour];
  for (auto _ : state) {
    for (std::uint32_t g = 0; g < w.soft.groups.size(); ++g) {
      if (kSimd && g < overflow)
        solve_strut_group_wide(p, w.soft.groups[g], inv_h2);
      else
        solve_strut_group_scalar(p, w.soft.groups[g], inv_h2);
    }
    benchmark::DoNotOptimize(q.x.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(w.soft.lanes.other_count));
  state.counters["groups"] = double(w.soft.groups.size());
  state.counters["struts"] = double(w.soft.lanes.other_count);
}
BENCHMARK(BM_StrutProjectionColoured<false>)
    ->Name("BM_StrutProjectionColoured_Scalar")
    ->Arg(10000)
    ->Arg(100000);
BENCHMARK(BM_StrutProjectionColoured<true>)
    ->Name("BM_StrutProjectionColoured_Simd")
    ->Arg(10000)
    ->Arg(100000);

// One velocity pass over joint_grid's revolute joint points (solver/joints/point_lanes.hpp),
// colour after colour as the solver runs them, the SIMD level in use vs the scalar level (the
// kernels' scalar twin), one thread. The scene is stepped first so that the groups hold last
// step's rows and carried impulses.
template <bool kSimd>
void BM_JointPointPass(benchmark::State& state) {
  SceneInstance inst = build_scene(builtin_scene("joint_grid"), 1);
  for (int i = 0; i < 10; ++i) inst.step();
  WorldState& w = state_of(inst.world);
  const SimdLevel level = simd_level();
  if (!kSimd) set_simd_level(SimdLevel::Scalar);
  const PointMotion& m = w.joints.point_motion;
  for (auto _ : state) {
    for (int colour = 0; colour <= kOverflowColour; ++colour)
      solve_point_motion(w, m.begin[std::size_t(colour)], m.begin[std::size_t(colour) + 1],
                         colour == kOverflowColour, false);
    benchmark::DoNotOptimize(w.bodies.dx.data());
    benchmark::ClobberMemory();
  }
  set_simd_level(level);
  state.SetItemsProcessed(state.iterations() * std::int64_t(inst.joints.size()));
  state.counters["groups"] = double(m.groups.size());
}
BENCHMARK(BM_JointPointPass<false>)->Name("BM_JointPointPass_Scalar");
BENCHMARK(BM_JointPointPass<true>)->Name("BM_JointPointPass_Simd");

// A whole step of n bodies that never touch (a layer mask keeps every pair out), 4 substeps:
// integration, bounds, broad phase, islands and the rest of the pipeline without contacts.
// No gravity: under it they would fall faster every iteration, and their speculative boxes
// (grown by the step's motion) would make the cost depend on how long the benchmark ran.
void free_bodies(benchmark::State& state, bool boxes) {
  const int n = int(state.range(0));
  const int threads = int(state.range(1));
  World world(WorldConfig{.gravity = {0, 0}, .threads = threads, .enable_sleep = false});
  const int side = int(std::ceil(std::sqrt(double(n))));
  for (int i = 0; i < n; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{}}};
    if (boxes)
      d.shapes[0].shape = BoxShape{{0.2f, 0.2f}};
    else
      d.shapes[0].shape = CircleShape{0.1f};
    d.center = {float(i % side), float(i / side)};
    d.velocity = {1, 2};
    d.angular_velocity = 1;
    d.shapes[0].filter.category = 1, d.shapes[0].filter.mask = 0;
    world.create_body(d);
  }
  world.step(1.0f / 60);
  for (auto _ : state) world.step(1.0f / 60);
  state.counters["bodies"] = n;
  state.counters["hash_lo"] = double(world.state_hash() & 0xFFFFFFFFu);
}
void BM_StepFreeParticles(benchmark::State& state) { free_bodies(state, false); }
void BM_StepFreeBoxes(benchmark::State& state) { free_bodies(state, true); }
BENCHMARK(BM_StepFreeParticles)
    ->ArgsProduct({{1000, 10000, 100000}, {1, 2}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StepFreeBoxes)
    ->ArgsProduct({{1000, 10000, 100000}, {1, 2}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// Wide constraints as a large pyramid has them: `count` constraints of kContactLanes lanes, each
// lane between two of 8192 bodies (distinct within a constraint, as in a colour), every lane
// with two vertex-edge points between rotated bodies, prepared through the scalar twin.
struct ContactLanes {
  std::vector<SolverBody> bodies;
  std::vector<PrepareBody> prepare_bodies;
  std::vector<WideConstraint> cs;
  std::vector<WideFeatures> features;
  std::vector<LanePositions> positions;

  explicit ContactLanes(int count)
      : cs(std::size_t(count)), features(std::size_t(count)), positions(std::size_t(count)) {
    const int n = 8192;
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-1, 1);
    bodies.resize(n + 1), prepare_bodies.resize(n + 1);
    for (int i = 0; i < n; ++i) {
      const float a = 3 * u(rng);
      bodies[std::size_t(i)] = {u(rng), u(rng), u(rng), 0, 0.01f * u(rng), 0.01f * u(rng), 1, 0};
      prepare_bodies[std::size_t(i)] = {
          std::cos(a), std::sin(a), 0.01f * u(rng), 0.01f * u(rng), 0.01f * u(rng), 1, 6, 1};
    }
    std::vector<std::uint32_t> order(n);
    for (int i = 0; i < n; ++i) order[std::size_t(i)] = std::uint32_t(i);
    for (int k = 0; k < count; ++k) {
      std::shuffle(order.begin(), order.end(), rng);
      WideConstraint& c = cs[std::size_t(k)];
      LanePositions& at = positions[std::size_t(k)];
      for (int lane = 0; lane < kContactLanes; ++lane) {
        c.a[lane] = order[std::size_t(2 * lane)], c.b[lane] = order[std::size_t(2 * lane + 1)];
        at.ax[lane] = 3 * u(rng), at.ay[lane] = 3 * u(rng);
        at.bx[lane] = 3 * u(rng), at.by[lane] = 3 * u(rng);
        c.friction[lane] = c.static_friction[lane] = 0.6f;
        for (int p = 0; p < 2; ++p) {
          FeatureRows& g = features[std::size_t(k)].p[p];
          g.vlx[lane] = u(rng), g.vly[lane] = u(rng);
          g.l1x[lane] = u(rng), g.l1y[lane] = u(rng), g.l2x[lane] = u(rng), g.l2y[lane] = u(rng);
          g.edge[lane] = 1, g.fnx[lane] = 0, g.fny[lane] = 1;
          g.rv[lane] = g.ro[lane] = 0;
          g.present[lane] = 1;
          g.flip[lane] = float(lane % 2);
          c.p[p].lambda_n[lane] = 0.1f, c.p[p].lambda_t[lane] = 0, c.p[p].sliding[lane] = 0;
        }
      }
      for (int lane = 0; lane < kContactLanes; ++lane)
        wide::prepare_lanes<float>(prepare_bodies.data(), at, features[std::size_t(k)], c, lane);
    }
  }
};

// The contact prepare over n lanes whose points are gathered: the bodies' rows, the points'
// geometry and masses, the lanes oriented. The scalar twin lane by lane vs the kernel of the
// SIMD level in use (STRUT_SIMD picks it).
template <bool kSimd>
void BM_ContactPrepare(benchmark::State& state) {
  ContactLanes t(int(state.range(0)) / kContactLanes);
  const ContactKernels& simd = contact_kernels();
  for (auto _ : state) {
    for (std::size_t k = 0; k < t.cs.size(); ++k) {
      if (kSimd) {
        simd.prepare(t.prepare_bodies.data(), t.positions[k], t.features[k], t.cs[k]);
      } else {
        for (int lane = 0; lane < kContactLanes; ++lane)
          wide::prepare_lanes<float>(t.prepare_bodies.data(), t.positions[k], t.features[k],
                                     t.cs[k], lane);
      }
    }
    benchmark::DoNotOptimize(t.cs.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(t.cs.size()) * kContactLanes);
  state.SetLabel(kSimd ? simd_level_name(simd_level()) : "scalar");
}
BENCHMARK(BM_ContactPrepare<false>)->Name("BM_ContactPrepare_Scalar")->Arg(16384);
BENCHMARK(BM_ContactPrepare<true>)->Name("BM_ContactPrepare_Simd")->Arg(16384);

// A substep's contact passes over n lanes (warm start, one solve, one relax), each wide
// constraint its own work item: the bodies gathered by register transposes, solved, scattered.
// The scalar twin lane by lane vs the kernel of the SIMD level in use (STRUT_SIMD picks it).
template <bool kSimd>
void BM_ContactSolve(benchmark::State& state) {
  ContactLanes t(int(state.range(0)) / kContactLanes);
  const ContactKernels& simd = contact_kernels();
  const std::uint8_t kRounded = 1;  // the radius rows read, as for circles
  WidePass pass{0.2f, 0.8f, 0.1f, 0.3f, 0.7f, 0.2f, 0.01f, 0.002f, true};
  WidePass relax = pass;
  relax.use_bias = false;
  for (auto _ : state) {
    for (WideConstraint& c : t.cs) {
      if (kSimd) {
        simd.warm_start(t.bodies.data(), &c, 1);
        simd.solve(t.bodies.data(), &c, 1, pass, &kRounded, nullptr);
        simd.solve(t.bodies.data(), &c, 1, relax, &kRounded, nullptr);
      } else {
        run_scalar(t.bodies.data(), c, [&](wide::Body<float>& A, wide::Body<float>& B, int lane) {
          wide::warm_start_lanes(A, B, c, lane);
        });
        for (const WidePass& p : {pass, relax})
          run_scalar(t.bodies.data(), c, [&](wide::Body<float>& A, wide::Body<float>& B, int lane) {
            wide::solve_lanes(A, B, c, lane, p);
          });
      }
    }
    benchmark::DoNotOptimize(t.bodies.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(t.cs.size()) * kContactLanes);
  state.SetLabel(kSimd ? simd_level_name(simd_level()) : "scalar");
}
BENCHMARK(BM_ContactSolve<false>)->Name("BM_ContactSolve_Scalar")->Arg(32768);
BENCHMARK(BM_ContactSolve<true>)->Name("BM_ContactSolve_Simd")->Arg(32768);

// Whole steps of a 40-row pyramid (820 boxes) on one thread at the SIMD level in use vs the
// scalar level (every kernel's scalar twin; the contact passes are most of the difference). A
// fixed step count, so both report the same state hash.
template <bool kScalar>
void BM_PyramidContacts(benchmark::State& state) {
  const SimdLevel level = simd_level();
  if (kScalar) set_simd_level(SimdLevel::Scalar);
  World world(WorldConfig{.threads = 1, .enable_sleep = false});
  BodyDef ground;
  ground.shapes = {ShapeDef{BoxShape{{50, 1}}}};
  ground.center = {0, -1};
  ground.is_static = true;
  world.create_body(ground);
  for (int r = 0; r < 40; ++r)
    for (int i = 0; i < 40 - r; ++i) {
      BodyDef d;
      d.shapes = {ShapeDef{BoxShape{{0.5f, 0.5f}}}};
      d.center = {float(i) - 0.5f * float(39 - r), 0.5f + float(r)};
      world.create_body(d);
    }
  for (int i = 0; i < 30; ++i) world.step(1.0f / 60);
  world.reset_profile();
  for (auto _ : state) world.step(1.0f / 60);
  const StepProfile& p = world.profile();
  state.counters["solve_ms"] = p.solve;
  state.counters["relax_ms"] = p.velocity;
  state.counters["hash_lo"] = double(world.state_hash() & 0xFFFFFFFFu);
  set_simd_level(level);
}
BENCHMARK(BM_PyramidContacts<true>)
    ->Name("BM_PyramidContacts_Scalar")
    ->Iterations(200)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PyramidContacts<false>)
    ->Name("BM_PyramidContacts_Simd")
    ->Iterations(200)
    ->Unit(benchmark::kMillisecond);

// Stacking quality, the figures of the contact issue: a stack of ten boxes (range 0 = 10) or a
// pyramid of 20 rows (range 0 = 20, 210 boxes) on the ground for 10 s at range 1 substeps, sleep
// off, one thread. Counters: largest distance any box moved from where it started
// (max_drift_m), largest movement between 1 s and 10 s (after_settling_m), largest tilt, and
// the mean step time.
void BM_Stacking(benchmark::State& state) {
  const int kind = int(state.range(0)), substeps = int(state.range(1));
  float drift = 0, settle = 0, tilt = 0;
  double ms = 0;
  for (auto _ : state) {
    World world(WorldConfig{.substeps = substeps, .threads = 1, .enable_sleep = false});
    BodyDef ground;
    ground.shapes = {ShapeDef{BoxShape{{50, 1}}}};
    ground.center = {0, -1};
    ground.is_static = true;
    world.create_body(ground);
    std::vector<BodyId> ids;
    std::vector<Vec2> start;
    const int rows = kind == 10 ? 10 : 20;
    for (int r = 0; r < rows; ++r)
      for (int i = 0; i < (kind == 10 ? 1 : rows - r); ++i) {
        BodyDef d;
        d.shapes = {ShapeDef{BoxShape{{0.5f, 0.5f}}}};
        d.center = kind == 10 ? Vec2{0, 0.5f + float(r)}
                              : Vec2{float(i) - 0.5f * float(rows - r - 1), 0.5f + float(r)};
        ids.push_back(world.create_body(d));
        start.push_back(d.center);
      }
    std::vector<Vec2> at_one_second;
    for (int s = 0; s < 600; ++s) {
      world.step(1.0f / 60);
      if (s == 59)
        for (BodyId id : ids) at_one_second.push_back(world.transform(id).position);
    }
    ms = world.profile().total;
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const Transform t = world.transform(ids[k]);
      drift = std::max(drift, length(t.position - start[k]));
      settle = std::max(settle, length(t.position - at_one_second[k]));
      tilt = std::max(tilt, std::fabs(t.angle));
    }
  }
  state.counters["max_drift_m"] = drift;
  state.counters["after_settling_m"] = settle;
  state.counters["max_tilt_rad"] = tilt;
  state.counters["ms_per_step"] = ms;
}
BENCHMARK(BM_Stacking)
    ->ArgsProduct({{10, 20}, {4, 8}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// How rigid a box stays: it is thrown spinning onto the ground and tumbles for 3 s. "Braces"
// is the particle body (hull edges + spokes to an interior particle, rigid XPBD struts);
// "pose" is the rigid body (vertices derived from one pose: shape matching taken to the limit).
// Counter max_strut_error: largest relative change of any edge or spoke length seen.
void rigidity(benchmark::State& state, bool braces) {
  const int substeps = int(state.range(0));
  float worst = 0;
  for (auto _ : state) {
    World world(WorldConfig{.substeps = substeps, .enable_sleep = false});
    BodyDef ground;
    ground.shapes = {ShapeDef{BoxShape{{20, 1}}}};
    ground.center = {0, -1};
    ground.is_static = true;
    world.create_body(ground);
    BodyDef box;
    box.shapes = {ShapeDef{BoxShape{{0.5f, 0.5f}}}};
    box.center = {0, 3};
    box.velocity = {3, -2};
    box.angular_velocity = 8;
    box.soft = braces ? 1e-9f : 0.0f;
    const BodyId id = world.create_body(box);
    const float rest[4] = {1, 1, 1, 1};
    for (int i = 0; i < 180; ++i) {
      world.step(1.0f / 60);
      const BodyState s = world.state(id);
      const Vec2 c = s.transform.position;
      for (int e = 0; e < 4; ++e) {
        worst = std::max(
            worst, std::fabs(length(s.shapes[0].vertices[(e + 1) % 4] - s.shapes[0].vertices[e]) -
                             rest[e]));
        // Half-diagonal (spoke to the centre of mass): rest sqrt(0.5).
        worst = std::max(worst, std::fabs(length(s.shapes[0].vertices[e] - c) - std::sqrt(0.5f)) /
                                    std::sqrt(0.5f));
      }
    }
  }
  state.counters["max_strut_error"] = worst;
}
void BM_RigidityBraces(benchmark::State& state) { rigidity(state, true); }
void BM_RigidityPose(benchmark::State& state) { rigidity(state, false); }
BENCHMARK(BM_RigidityBraces)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RigidityPose)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMillisecond);

// Capsule pairs of the spinner's sizes (half-length 0.25, radius 0.25) against each other and
// against a 0.35 box, placed at random within touching reach of each other (about half overlap):
// the dedicated routines (collide_capsules.cpp, collide_polygon_capsule.cpp, Arg 0) against the
// general rounded one they replace (collide_hulls, Arg 1).
struct CapsulePairs {
  static constexpr int kCount = 4096;
  std::vector<float> cx, cy, bx, by;  // each capsule's two vertices, then the boxes' four
  CapsulePairs() {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> angle(0.0f, 6.2831853f), offset(-1.0f, 1.0f);
    for (int i = 0; i < 2 * kCount; ++i) {
      const float a = angle(rng), cxi = 0.6f * offset(rng), cyi = 0.6f * offset(rng);
      cx.push_back(cxi - 0.25f * std::cos(a)), cy.push_back(cyi - 0.25f * std::sin(a));
      cx.push_back(cxi + 0.25f * std::cos(a)), cy.push_back(cyi + 0.25f * std::sin(a));
    }
    for (int i = 0; i < kCount; ++i) {
      const float a = angle(rng), c = std::cos(a), s = std::sin(a);
      const float ox = 0.6f * offset(rng), oy = 0.6f * offset(rng);
      for (const auto& [lx, ly] :
           {std::pair{-0.35f, -0.35f}, {0.35f, -0.35f}, {0.35f, 0.35f}, {-0.35f, 0.35f}}) {
        bx.push_back(ox + c * lx - s * ly), by.push_back(oy + s * lx + c * ly);
      }
    }
  }
  collide::PolygonView capsule(int i) const { return {cx.data() + 2 * i, cy.data() + 2 * i, 2}; }
  collide::PolygonView box(int i) const { return {bx.data() + 4 * i, by.data() + 4 * i, 4}; }
};

void BM_CollideCapsuleCapsule(benchmark::State& state) {
  const CapsulePairs p;
  const bool general = state.range(0) == 1;
  for (auto _ : state) {
    int points = 0;
    for (int i = 0; i < CapsulePairs::kCount; ++i) {
      const collide::PolygonView a = p.capsule(2 * i), b = p.capsule(2 * i + 1);
      points += general ? collide::collide_hulls(a, 0.25f, b, 0.25f, 0.1f).count
                        : collide::collide_capsules(a, 0.25f, b, 0.25f, 0.1f).count;
    }
    benchmark::DoNotOptimize(points);
  }
  state.SetItemsProcessed(state.iterations() * CapsulePairs::kCount);
}
BENCHMARK(BM_CollideCapsuleCapsule)->Arg(0)->Arg(1);

// Box against capsule: Arg 2 is the dedicated routine's scalar twin (its faces' pass one lane at
// a time, polygon_segment_lanes.hpp), against which Arg 0 measures the SIMD lanes.
void BM_CollideBoxCapsule(benchmark::State& state) {
  const CapsulePairs p;
  const int routine = int(state.range(0));
  for (auto _ : state) {
    int points = 0;
    for (int i = 0; i < CapsulePairs::kCount; ++i) {
      const collide::PolygonView a = p.box(i), b = p.capsule(i);
      points += routine == 0 ? collide::collide_polygon_capsule(a, 0.0f, b, 0.25f, 0.1f).count
                : routine == 1
                    ? collide::collide_hulls(a, 0.0f, b, 0.25f, 0.1f).count
                    : collide::collide_polygon_capsule_scalar(a, 0.0f, b, 0.25f, 0.1f).count;
    }
    benchmark::DoNotOptimize(points);
  }
  state.SetItemsProcessed(state.iterations() * CapsulePairs::kCount);
}
BENCHMARK(BM_CollideBoxCapsule)->Arg(0)->Arg(1)->Arg(2);

}  // namespace
