// The contact prepare kernel (contact_prepare.hpp): its SIMD instantiation against its scalar
// twin on awkward inputs, and its output against the contact geometry the generic solver path
// evaluates from the same features.
#include "solver/contacts/contact_prepare.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "solver/contacts/contact_solver.hpp"
#include "solver/world_state.hpp"
#include "test_util.hpp"

namespace strut {

namespace {

// Random points of every kind: vertex-edge and vertex-vertex, circles on either side, edges of
// zero length and coincident vertices (the fallback normals), zero and infinite masses.
struct RandomPoints {
  FeatureRows f{};
  PrepareInput in{};
};
RandomPoints random_input(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(-3, 3), unit(-1, 1), mass(0, 2);
  RandomPoints r;
  FeatureRows& f = r.f;
  PrepareInput& in = r.in;
  for (int i = 0; i < kContactLanes; ++i) {
    const float av = unit(rng) * 3, ao = unit(rng) * 3;
    in.qvc[i] = std::cos(av), in.qvs[i] = std::sin(av), in.qoc[i] = std::cos(ao),
    in.qos[i] = std::sin(ao);
    in.pvx[i] = pos(rng), in.pvy[i] = pos(rng), in.pox[i] = pos(rng), in.poy[i] = pos(rng);
    f.vlx[i] = unit(rng), f.vly[i] = unit(rng);
    f.l1x[i] = unit(rng), f.l1y[i] = unit(rng), f.l2x[i] = unit(rng), f.l2y[i] = unit(rng);
    if (i % 5 == 1) f.l2x[i] = f.l1x[i], f.l2y[i] = f.l1y[i];  // degenerate edge
    if (i % 7 == 2) {  // coincident vertices: both bodies at one pose, the same local point
      in.pvx[i] = in.pox[i], in.pvy[i] = in.poy[i];
      in.qvc[i] = in.qoc[i], in.qvs[i] = in.qos[i];
      f.vlx[i] = f.l1x[i], f.vly[i] = f.l1y[i];
    }
    f.edge[i] = i % 3 == 0 ? 0.0f : 1.0f;
    f.rv[i] = i % 4 == 0 ? 0.3f : 0.0f, f.ro[i] = i % 6 == 0 ? 0.2f : 0.0f;
    f.fnx[i] = 0.6f, f.fny[i] = 0.8f;
    f.present[i] = 1.0f;
    in.mvx[i] = 0.01f * unit(rng), in.mvy[i] = 0.01f * unit(rng), in.mva[i] = 0.02f * unit(rng);
    in.mox[i] = 0.01f * unit(rng), in.moy[i] = 0.01f * unit(rng), in.moa[i] = 0.02f * unit(rng);
    in.imv[i] = mass(rng), in.iiv[i] = mass(rng);
    in.imo[i] = i % 2 ? 0.0f : mass(rng), in.iio[i] = i % 2 ? 0.0f : mass(rng);
  }
  return r;
}

TEST(ContactPrepare, SimdKernelGivesTheBitsOfItsScalarTwin) {
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    const RandomPoints r = random_input(seed);
    // The baseline build's batch (the dispatched levels are compared in simd_dispatch_test.cpp).
    PrepareOutput simd, scalar;
    using Batch = xsimd::batch<float>;
    for (int lane = 0; lane < kContactLanes; lane += wide::kLanesOf<Batch>)
      wide::prepare_points<Batch>(r.f, r.in, simd, lane);
    for (int lane = 0; lane < kContactLanes; ++lane)
      wide::prepare_points<float>(r.f, r.in, scalar, lane);
    ASSERT_EQ(std::memcmp(&simd, &scalar, sizeof simd), 0) << "seed " << seed;
    for (int lane = 0; lane < kContactLanes; ++lane) {
      ASSERT_TRUE(std::isfinite(simd.nx[lane]) && std::isfinite(simd.base[lane]) &&
                  std::isfinite(simd.normal_mass[lane]))
          << "seed " << seed << " lane " << lane;
      EXPECT_NEAR(std::hypot(simd.nx[lane], simd.ny[lane]), 1.0f, 1e-5f);
    }
  }
}

// Every rigid point of a busy scene (boxes, triangles and circles tumbling onto a pyramid):
// the prepared point against evaluate_contact, the generic path's geometry from the same features.
TEST(ContactPrepare, RowsAgreeWithTheGenericContactGeometry) {
  World world(WorldConfig{.threads = 1, .enable_sleep = false});
  world.create_body(test::ground_def(30));
  for (int r = 0; r < 8; ++r)
    for (int i = 0; i < 8 - r; ++i)
      world.create_body(test::box_def({float(i) - 0.5f * float(7 - r), 0.5f + float(r)}));
  for (int i = 0; i < 60; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{}}};
    d.center = {float(i % 12) - 6.0f, 10.0f + 0.6f * float(i)};
    d.angle = 0.3f * float(i);
    if (i % 3 == 0)
      d.shapes[0].shape = CircleShape{0.25f};
    else if (i % 3 == 1)
      d.shapes[0].shape = BoxShape{{0.3f, 0.2f}};
    else
      d.shapes[0].shape = PolygonShape{{{-0.3f, 0}, {0.3f, 0}, {0, 0.4f}}};
    world.create_body(d);
  }
  const WorldState& w = state_of(world);
  int checked = 0;
  for (int step = 0; step < 150; ++step) {
    world.step(1.0f / 60);
    if (step % 10 != 9) continue;
    for (const ContactPoint& cp : w.contacts.points) {
      const PreparedPoint row = prepare_point(w, cp);
      const ContactGeometry g = evaluate_contact(w, cp);
      ASSERT_NEAR(row.n.x, g.n.x, 1e-5f);
      ASSERT_NEAR(row.n.y, g.n.y, 1e-5f);
      // Anchors: the generic points' offsets from the bodies' centres of mass.
      const Vec2 ra = arm(w, g.o), rb = arm(w, g.v);
      ASSERT_NEAR(length(row.ra - ra), 0.0f, 1e-5f);
      ASSERT_NEAR(length(row.rb - rb), 0.0f, 1e-5f);
      ASSERT_NEAR(row.base_separation + dot(row.rb - row.ra, row.n), g.c, 1e-5f);
      const float wn = inv_mass_along(w, g.v, g.n) + inv_mass_along(w, g.o, g.n);
      if (wn > 0) {
        ASSERT_NEAR(row.normal_mass * wn, 1.0f, 1e-4f);
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

}  // namespace
}  // namespace strut
