// The lane groups (one soft body per SIMD lane): the SIMD kernel against its scalar twin and
// against the creation-order loop, bit for bit; thread-count independence; how the bodies are
// sorted into groups and when that is redone; and that soft bodies still hold their shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "simd_level.hpp"
#include "solver/joints/joint_solver.hpp"
#include "solver/soft/strut_batching.hpp"
#include "solver/world_state.hpp"
#include "strut_error.hpp"
#include "test_util.hpp"

namespace strut {

namespace {

using test::bits;

BodyDef regular_polygon(Vec2 center, float radius, int n, float compliance) {
  BodyDef d;
  std::vector<Vec2> v;
  for (int k = 0; k < n; ++k) {
    const float a = 2.0f * float(M_PI) * float(k) / float(n);
    v.push_back({radius * std::cos(a), radius * std::sin(a)});
  }
  d.shapes = {ShapeDef{PolygonShape{v}}};
  d.center = center;
  d.soft = compliance;
  return d;
}

// The kernel test bed: 46 soft boxes (with AVX-512 a full group of 32 and a padded one of 14),
// 37 soft hexagons (32 + 5) and one soft octagon (a group of one), compliances mixed (0, 1e-7,
// 1e-5), squashed and jittered so the struts have work to do. Two particles are pinned (inverse
// mass 0): box 3's interior particle and hexagon 50's third vertex. The last box rests exactly at
// its rest shape with motions of -0: a strut at exactly its rest length gives a correction of -0
// in solve_struts, and the lanes must reproduce the sign of that zero (see wide::negate).
void make_squashed_bodies(World& world) {
  for (int i = 0; i < 83; ++i) {
    const Vec2 c{2.0f * float(i % 10), 2.0f * float(i / 10)};
    const float compliance = i % 3 == 0 ? 1e-7f : 1e-5f;
    if (i < 45) {
      BodyDef d = test::box_def(c, {0.4f + 0.01f * float(i % 7), 0.3f});
      d.soft = compliance;
      d.angle = 0.1f * float(i);
      world.create_body(d);
    } else if (i < 82) {
      world.create_body(regular_polygon(c, 0.5f + 0.01f * float(i % 5), 6, compliance));
    } else {
      world.create_body(regular_polygon(c, 0.6f, 8, compliance));
    }
  }
  BodyDef rest = test::box_def({-5, -5}, {0.5f, 0.25f});
  rest.soft = 1e-7f;
  world.create_body(rest);
  WorldState& w = state_of(world);
  auto& q = w.particles;
  auto& b = w.bodies;
  // Every fourth body gets rigid struts (the API makes a body of compliance 0 rigid).
  for (std::uint32_t k = 0; k < b.size(); k += 4)
    for (std::uint32_t i = 0; i < b.strut_count[k]; ++i)
      w.soft.struts[b.strut_begin[k] + i].compliance = 0.0f;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> jitter(-0.05f, 0.05f);
  for (std::uint32_t k = 0; k + 1 < b.size(); ++k)
    for (std::uint32_t i = b.particle_begin[k]; i < b.particle_begin[k] + b.particle_count[k];
         ++i) {
      q.x[i] += jitter(rng);
      q.y[i] = 0.8f * q.y[i] + jitter(rng);
      q.dx[i] = jitter(rng), q.dy[i] = jitter(rng);
    }
  q.w[b.particle_begin[3] + (b.particle_count[3] - 1)] = 0.0f;
  q.w[b.particle_begin[50] + 2] = 0.0f;
  const std::uint32_t last = std::uint32_t(b.size() - 1);
  for (std::uint32_t i = b.particle_begin[last]; i < b.particle_begin[last] + 5; ++i) {
    q.x[i] = q.lx[i], q.y[i] = q.ly[i];
    q.dx[i] = -0.0f, q.dy[i] = -0.0f;
  }
  w.soft.lanes.dirty = true;  // the compliances changed
  colour_struts(w);
}

enum class Path { kSimd, kTwin, kCreationOrder };

// 10 substeps of 2 iterations over the test bed, multipliers reset every substep: every group
// through the SIMD kernel (whatever its size), every group through the scalar twin, or
// solve_struts.
void project(WorldState& w, Path path) {
  const float h = 1.0f / 240.0f, inv_h2 = 1.0f / (h * h);
  StrutLanes& L = w.soft.lanes;
  auto& q = w.particles;
  const StrutSpans p{q.x.data(), q.y.data(), q.dx.data(), q.dy.data(), q.w.data()};
  for (int substep = 0; substep < 10; ++substep) {
    for (LaneStrut& r : L.rows) std::fill(std::begin(r.lambda), std::end(r.lambda), 0.0f);
    w.scratch.strut_lambda.assign(w.soft.struts.size(), 0.0f);
    for (int it = 0; it < 2; ++it) {
      if (path == Path::kCreationOrder) {
        solve_struts(w, h);
        continue;
      }
      for (const LaneGroup& g : L.groups) {
        const LaneTopology& t = L.topologies[g.topology];
        const LaneShape shape{t.slots, {L.ends.data() + t.end_begin, t.strut_count}};
        if (path == Path::kSimd)
          solve_lane_group_wide(p, shape, g, L.rows.data() + g.strut_row, inv_h2);
        else
          solve_lane_group_scalar(p, shape, g, L.rows.data() + g.strut_row, inv_h2);
      }
    }
  }
}

void expect_same_particle_bits(const WorldState& a, const WorldState& b) {
  const auto &p = a.particles, &q = b.particles;
  ASSERT_EQ(p.size(), q.size());
  int differ = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    differ += bits(p.x[i]) != bits(q.x[i]) || bits(p.y[i]) != bits(q.y[i]);
    differ += bits(p.dx[i]) != bits(q.dx[i]) || bits(p.dy[i]) != bits(q.dy[i]);
  }
  EXPECT_EQ(differ, 0) << "particles whose bits differ";
}

// The multiplier of lane l's strut k in the lane rows.
float lane_lambda(const WorldState& w, const LaneGroup& g, std::uint32_t k, std::uint32_t l) {
  return w.soft.lanes.rows[g.strut_row + k].lambda[l];
}

}  // namespace

// The test bed has what it claims: two topologies and the octagon's, padded groups, a group of
// one, and no strut left to the other paths.
TEST(StrutLanes, TestBedFillsFullPaddedAndSingleBodyGroups) {
  World world(WorldConfig{.gravity = {0, 0}, .threads = 1});
  make_squashed_bodies(world);
  const StrutLanes& L = state_of(world).soft.lanes;
  EXPECT_EQ(L.topologies.size(), 3u);
  EXPECT_EQ(L.other_count, 0u);
  // Boxes (46 with the resting one), hexagons (37), the octagon (1), each topology cut into
  // groups of kLaneBodies (32 at every SIMD level: 32 + 14, 32 + 5, 1).
  std::vector<std::uint32_t> lanes, expected;
  for (const LaneGroup& g : L.groups) lanes.push_back(g.lanes);
  for (std::uint32_t members : {46u, 37u, 1u})
    for (std::uint32_t done = 0; done < members; done += kLaneBodies)
      expected.push_back(std::min(members - done, std::uint32_t(kLaneBodies)));
  EXPECT_EQ(lanes, expected);
  const auto has = [&lanes](auto pred) { return std::any_of(lanes.begin(), lanes.end(), pred); };
  EXPECT_TRUE(has([](std::uint32_t n) { return n == std::uint32_t(kLaneBodies); })) << "full";
  EXPECT_TRUE(has([](std::uint32_t n) { return n > 1 && n < std::uint32_t(kLaneBodies); }))
      << "padded";
  EXPECT_TRUE(has([](std::uint32_t n) { return n == 1; })) << "single body";
}

// (a) The SIMD kernel and its scalar twin give the same bits: particles (pinned ones included)
// and multipliers; padding lanes keep a zero multiplier; pinned particles stay put.
TEST(StrutLanes, SimdGroupsMatchTheScalarTwinBitForBit) {
  World simd_world(WorldConfig{.gravity = {0, 0}, .threads = 1});
  World twin_world(WorldConfig{.gravity = {0, 0}, .threads = 1});
  make_squashed_bodies(simd_world);
  make_squashed_bodies(twin_world);
  WorldState& simd = state_of(simd_world);
  WorldState& twin = state_of(twin_world);
  const auto& b = simd.bodies;
  const std::uint32_t pinned = b.particle_begin[3] + (b.particle_count[3] - 1);
  const float pinned_x = simd.particles.x[pinned], pinned_y = simd.particles.y[pinned];
  const std::vector<float> start_y = simd.particles.y;
  project(simd, Path::kSimd);
  project(twin, Path::kTwin);
  expect_same_particle_bits(simd, twin);
  const StrutLanes& L = simd.soft.lanes;
  for (std::size_t r = 0; r < L.rows.size(); ++r)
    for (int l = 0; l < kLaneBodies; ++l)
      EXPECT_EQ(bits(L.rows[r].lambda[l]), bits(twin.soft.lanes.rows[r].lambda[l]))
          << "row " << r << " lane " << l;
  for (const LaneGroup& g : L.groups)
    for (std::uint32_t l = g.lanes; l < std::uint32_t(kLaneBodies); ++l)
      for (std::uint32_t k = 0; k < L.topologies[g.topology].strut_count; ++k)
        EXPECT_EQ(bits(lane_lambda(simd, g, k, l)), 0u) << "padding lane " << l;
  EXPECT_EQ(bits(simd.particles.x[pinned]), bits(pinned_x));
  EXPECT_EQ(bits(simd.particles.y[pinned]), bits(pinned_y));
  // The struts did work: the squashed bodies were stretched back up.
  int moved = 0;
  for (std::size_t i = 0; i < start_y.size(); ++i) moved += simd.particles.y[i] != start_y[i];
  EXPECT_GT(moved, int(start_y.size()) / 2);
}

// (b) The lanes are solve_struts' creation-order loop, bit for bit, multipliers included, on a
// world of batchable bodies only.
TEST(StrutLanes, LanesMatchTheCreationOrderLoopBitForBit) {
  World lanes_world(WorldConfig{.gravity = {0, 0}, .threads = 1});
  World loop_world(WorldConfig{.gravity = {0, 0}, .threads = 1});
  make_squashed_bodies(lanes_world);
  make_squashed_bodies(loop_world);
  WorldState& lanes = state_of(lanes_world);
  WorldState& loop = state_of(loop_world);
  project(lanes, Path::kSimd);
  project(loop, Path::kCreationOrder);
  expect_same_particle_bits(lanes, loop);
  const StrutLanes& L = lanes.soft.lanes;
  const auto& b = lanes.bodies;
  int differ = 0;
  for (const LaneGroup& g : L.groups)
    for (std::uint32_t l = 0; l < g.lanes; ++l)
      for (std::uint32_t k = 0; k < L.topologies[g.topology].strut_count; ++k)
        differ += bits(lane_lambda(lanes, g, k, l)) !=
                  bits(loop.scratch.strut_lambda[b.strut_begin[g.body[l]] + k]);
  EXPECT_EQ(differ, 0) << "multipliers whose bits differ";
}

namespace {

// Soft boxes, pentagons and hexagons dropped onto the ground and onto each other, each braced
// by hand-made struts outside any body (one across each body, a second across each box: 480 in
// all), which take the coloured path after the lanes and share the lane bodies' particles.
void soft_pile(World& world, int bodies) {
  world.create_body(test::ground_def(30));
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> x(-25, 25), size(0.25f, 0.45f), spin(-2, 2);
  for (int i = 0; i < bodies; ++i) {
    const Vec2 c{x(rng), 0.6f + 0.25f * float(i)};
    const float s = size(rng), compliance = i % 2 == 0 ? 1e-6f : 1e-4f;
    BodyDef d = i % 3 == 0 ? test::box_def(c, {s, 0.7f * s}) : regular_polygon(c, s, 4 + i % 3, 0);
    d.soft = compliance;
    d.angular_velocity = spin(rng);
    world.create_body(d);
  }
  WorldState& w = state_of(world);
  const auto& b = w.bodies;
  const auto& q = w.particles;
  auto brace = [&](std::uint32_t i, std::uint32_t j) {
    w.soft.struts.push_back({i, j, std::hypot(q.x[j] - q.x[i], q.y[j] - q.y[i]), 1e-6f});
  };
  for (std::uint32_t k = 1; k < b.size(); ++k) {
    const std::uint32_t p0 = b.particle_begin[k], n = b.particle_count[k] - 1;
    brace(p0, p0 + n / 2);
    if (n == 4) brace(p0 + 1, p0 + 3);
  }
  w.soft.lanes.dirty = true;
}

std::uint64_t pile_hash(int threads, int steps, bool scalar = false) {
  test::SimdLevelScope level(scalar ? SimdLevel::Scalar : simd_level());
  World world(WorldConfig{.threads = threads, .enable_sleep = false});
  soft_pile(world, 360);
  for (int i = 0; i < steps; ++i) world.step(1.0f / 60);
  return world.state_hash();
}

}  // namespace

// (c) Lane groups run in parallel chunks whose bounds depend on the thread count, before colour
// stages (the braces) that move the same particles; the result must not. 8 threads oversubscribe
// this machine, which shuffles the chunk timing.
TEST(StrutLanes, SoftPileIsBitIdenticalForAnyThreadCount) {
  {
    World world(WorldConfig{.threads = 8});
    soft_pile(world, 360);
    world.step(1.0f / 60);
    const WorldState& w = state_of(world);
    EXPECT_GE(w.soft.lanes.groups.size(), 8u) << "the lane stage should have several chunks";
    EXPECT_EQ(w.soft.lanes.other_count, 480u) << "the braces";
    EXPECT_FALSE(w.soft.groups.empty()) << "the braces should be coloured";
  }
  const std::uint64_t one = pile_hash(1, 100);
  EXPECT_EQ(pile_hash(2, 100), one) << "2 threads";
  EXPECT_EQ(pile_hash(3, 100), one) << "3 threads";
  EXPECT_EQ(pile_hash(8, 100), one) << "8 threads";
  EXPECT_EQ(pile_hash(2, 100, true), one) << "scalar twins, 2 threads";
}

namespace {

// The lane groups as the bodies now have them: every live soft body in exactly one lane, whose
// first particle, struts' ends, rest lengths and compliances are the body's own, and no strut
// left to the other paths. Returns how many lanes are wrong (0 when the layout is current).
int stale_lanes(const WorldState& w) {
  const StrutLanes& L = w.soft.lanes;
  const auto& b = w.bodies;
  std::vector<int> lanes_of(b.size(), 0);
  int wrong = 0;
  for (const LaneGroup& g : L.groups) {
    const LaneTopology& t = L.topologies[g.topology];
    const LaneStrut* rows = L.rows.data() + g.strut_row;
    for (std::uint32_t l = 0; l < g.lanes; ++l) {
      const std::uint32_t k = g.body[l];
      if (k >= b.size()) {
        ++wrong;
        continue;
      }
      ++lanes_of[k];
      bool same = g.first[l] == std::int32_t(b.particle_begin[k]) &&
                  t.slots == b.particle_count[k] && t.strut_count == b.strut_count[k];
      for (std::uint32_t i = 0; same && i < t.strut_count; ++i) {
        const Strut& s = w.soft.struts[b.strut_begin[k] + i];
        const LaneEnds e = L.ends[t.end_begin + i];
        same = s.a - b.particle_begin[k] == e.a && s.b - b.particle_begin[k] == e.b &&
               bits(rows[i].rest[l]) == bits(s.rest) &&
               bits(rows[i].compliance[l]) == bits(s.compliance);
      }
      wrong += !same;
    }
  }
  for (std::uint32_t k = 0; k < b.size(); ++k)
    if ((b.flags[k] & (kSoft | kDead)) == kSoft) wrong += lanes_of[k] != 1;
  return wrong + int(L.other_count);
}

}  // namespace

// (d) Bodies destroyed and created mid-way renumber the particles and struts: the lane groups are
// rebuilt from the new numbers (every lane checked against its body after every step), and the
// whole simulation gives the bits of the lanes' scalar twin (the scalar SIMD level).
TEST(StrutLanes, WholeSimulationRebuildsItsLanesAsBodiesComeAndGo) {
  auto run = [](bool scalar) {
    test::SimdLevelScope level(scalar ? SimdLevel::Scalar : simd_level());
    World world(WorldConfig{.iterations = 2, .threads = 2, .enable_sleep = false});
    world.create_body(test::ground_def(10));
    std::vector<BodyId> ids;
    for (int i = 0; i < 24; ++i) {
      const Vec2 c{0.9f * float(i % 8) - 3, 0.5f + float(i / 8)};
      BodyDef d = i % 2 ? regular_polygon(c, 0.4f, 6, 0) : test::box_def(c, {0.4f, 0.3f});
      d.soft = i % 3 == 0 ? 1e-7f : i % 3 == 1 ? 1e-5f : 1e-4f;
      ids.push_back(world.create_body(d));
    }
    const WorldState& w = state_of(world);
    int stale = 0;
    const auto steps = [&](int n) {
      for (int i = 0; i < n; ++i) world.step(1.0f / 60), stale += stale_lanes(w);
    };
    steps(60);
    const std::uint64_t builds = w.soft.lanes.builds;
    world.destroy_body(ids[3]);
    world.destroy_body(ids[10]);
    steps(30);
    ids.push_back(world.create_body(regular_polygon({0, 6}, 0.5f, 6, 1e-6f)));
    steps(30);
    EXPECT_EQ(stale, 0) << "lanes that were not their body's";
    EXPECT_GE(w.soft.lanes.builds, builds + 2) << "a rebuild after the removals and the creation";
    EXPECT_EQ(w.soft.lanes.groups.size(), 2u) << "23 boxes and hexagons: two topologies";
    return world.state_hash();
  };
  EXPECT_EQ(run(false), run(true));
}

// (e) Soft bodies on the lanes still hold their shape: a row of 32 soft boxes and hexagons of
// 10 kg (compliances 1e-6 and 1e-5) dropped onto the ground and left for 3 s. Measured: worst
// strut 0.12% off its rest length, mean 0.04% (the coloured path: 0.11%, 0.04%); centres 1.6 cm
// below their resting height (contact softness). Tolerances 1%, 0.25% and 5 cm: a lost
// correction, a wrong sign or a lane that is never written lets the bodies sag or collapse far
// beyond them.
TEST(StrutLanes, SoftBodiesRestingOnTheGroundKeepTheirShape) {
  World world(WorldConfig{.threads = 2, .enable_sleep = false});
  world.create_body(test::ground_def(30));
  std::vector<BodyId> ids;
  for (int i = 0; i < 32; ++i) {
    const Vec2 c{1.5f * float(i) - 24, 0.6f};
    BodyDef d = i % 2 ? regular_polygon(c, 0.5f, 6, 0) : test::box_def(c, {0.5f, 0.5f});
    d.soft = i % 4 < 2 ? 1e-6f : 1e-5f;
    d.shapes[0].material.density = 10;
    ids.push_back(world.create_body(d));
  }
  for (int i = 0; i < 180; ++i) world.step(1.0f / 60);
  const WorldState& w = state_of(world);
  const test::StrutError e = test::strut_error(w);
  float sink = 0;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const float rest_height = k % 2 ? 0.5f * std::sqrt(3.0f) * 0.5f : 0.5f;
    sink = std::max(sink, std::fabs(world.transform(ids[k]).position.y - rest_height));
  }
  ASSERT_EQ(w.soft.lanes.other_count, 0u) << "every strut should be on the lanes";
  ASSERT_FALSE(w.soft.lanes.groups.empty());
  EXPECT_LT(e.worst, 0.01f);
  EXPECT_LT(e.mean, 0.0025f);
  EXPECT_LT(sink, 0.05f);
}

// What goes to the lanes: each strut in exactly one lane or one other run, never both; bodies
// too big or with a strut outside their own particles stay on the other paths; groups keep
// creation order within a topology.
TEST(StrutLanes, EveryStrutIsSolvedOnceByOnePath) {
  World world(WorldConfig{.threads = 1});
  for (int i = 0; i < 40; ++i) {
    BodyDef d = test::box_def({2.0f * float(i), 0});
    d.soft = 1e-6f;
    world.create_body(d);
  }
  world.create_body(regular_polygon({0, 5}, 1, 16, 1e-6f));
  WorldState& w = state_of(world);
  auto& b = w.bodies;
  // The 16-gon (the last body, so its struts end the list) made too big for a lane by 16 more
  // struts across it: 48 in all.
  const std::uint32_t big = std::uint32_t(b.size() - 1), p0 = b.particle_begin[big];
  for (std::uint32_t i = 0; i < 16; ++i)
    w.soft.struts.push_back({p0 + i, p0 + (i + 5) % 16, 1.0f, 1e-6f});
  b.strut_count[big] += 16;
  // A hand-made strut joining body 5 to body 6 (outside any body), and body 7's first strut
  // re-aimed at body 8's particle: body 7 must leave the lanes, body 8 may stay.
  w.soft.struts.push_back({b.particle_begin[5], b.particle_begin[6], 2.0f, 0.0f});
  w.soft.struts[b.strut_begin[7]].b = b.particle_begin[8];
  w.soft.lanes.dirty = true;
  update_strut_lanes(w);
  const StrutLanes& L = w.soft.lanes;
  std::vector<int> seen(w.soft.struts.size(), 0);
  std::vector<std::uint32_t> lane_bodies;
  for (const LaneGroup& g : L.groups) {
    ASSERT_GT(g.lanes, 0u);
    for (std::uint32_t l = 0; l < std::uint32_t(kLaneBodies); ++l) {
      if (l >= g.lanes) {
        EXPECT_EQ(g.first[l], kLanePadding);
        continue;
      }
      const std::uint32_t k = g.body[l];
      lane_bodies.push_back(k);
      EXPECT_EQ(g.first[l], std::int32_t(b.particle_begin[k]));
      for (std::uint32_t i = 0; i < b.strut_count[k]; ++i) ++seen[b.strut_begin[k] + i];
    }
  }
  std::size_t others = 0;
  for (const StrutRun& r : L.other)
    for (std::uint32_t i = r.begin; i < r.end; ++i) ++seen[i], ++others;
  EXPECT_EQ(others, L.other_count);
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1) << "strut " << i;
  std::vector<std::uint32_t> expected;
  for (std::uint32_t k = 0; k < 40; ++k)
    if (k != 7) expected.push_back(k);
  EXPECT_EQ(lane_bodies, expected);
  EXPECT_EQ(L.other_count, 8u + 48u + 1u) << "body 7, the big body and the hand-made strut";
}

// The groups are rebuilt when bodies are created or destroyed, not every step.
TEST(StrutLanes, GroupsAreRebuiltOnlyWhenBodiesChange) {
  World world(WorldConfig{.threads = 1});
  world.create_body(test::ground_def(10));
  std::vector<BodyId> ids;
  for (int i = 0; i < 10; ++i) {
    BodyDef d = test::box_def({1.2f * float(i) - 6, 0.5f});
    d.soft = 1e-6f;
    ids.push_back(world.create_body(d));
  }
  const StrutLanes& L = state_of(world).soft.lanes;
  auto lane_bodies = [&L] {
    std::uint32_t n = 0;
    for (const LaneGroup& g : L.groups) n += g.lanes;
    return n;
  };
  for (int i = 0; i < 5; ++i) world.step(1.0f / 60);
  EXPECT_EQ(L.builds, 1u);
  world.create_body(test::box_def({0, 5}));  // rigid: no struts
  world.step(1.0f / 60);
  EXPECT_EQ(L.builds, 1u);
  BodyDef d = test::box_def({0, 8});
  d.soft = 1e-6f;
  world.create_body(d);
  world.step(1.0f / 60);
  EXPECT_EQ(L.builds, 2u);
  EXPECT_EQ(lane_bodies(), 11u);
  world.destroy_body(ids[2]);
  for (int i = 0; i < 3; ++i) world.step(1.0f / 60);
  EXPECT_EQ(L.builds, 3u);
  EXPECT_EQ(lane_bodies(), 10u);
}

}  // namespace strut
