// The contact cache: pairs that barely moved relative to each other keep their features instead
// of running SAT and clipping again (step/collide_pair.cpp). It must be used where it can be, never
// where bodies move, and must not change what the physics does beyond float noise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "recolour.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/world_state.hpp"
#include "strut/scene.hpp"
#include "strut/scenes.hpp"
#include "strut/world.hpp"
#include "test_util.hpp"

namespace strut {

namespace {

using test::kDt;

std::vector<BodyId> pyramid(World& w, int rows) {
  w.create_body(test::ground_def(40));
  std::vector<BodyId> boxes;
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < rows - r; ++i)
      boxes.push_back(
          w.create_body(test::box_def({float(i) - 0.5f * float(rows - r - 1), 0.5f + float(r)})));
  return boxes;
}

WorldConfig config(bool cache) {
  return WorldConfig{.threads = 1, .enable_sleep = false, .contact_cache = cache};
}

TEST(ContactCache, SettledPyramidReusesNearlyEveryPair) {
  World w(config(true));
  pyramid(w, 20);
  for (int i = 0; i < 120; ++i) w.step(kDt);
  const auto& impl = state_of(w);
  const std::size_t pairs = impl.contacts.pair_keys.size();
  ASSERT_GT(pairs, 400u);
  // Measured: after 2 s every pair (590 of 590) reuses its features.
  EXPECT_GE(double(impl.pairs.cached), 0.9 * double(pairs));
}

TEST(ContactCache, OffMeansEveryPairCollidesAfresh) {
  World w(config(false));
  pyramid(w, 10);
  for (int i = 0; i < 60; ++i) w.step(kDt);
  EXPECT_EQ(state_of(w).pairs.cached, 0u);
}

TEST(ContactCache, SlidingBoxCollidesAfreshEveryStep) {
  World w(config(true));
  w.create_body(test::ground_def(200));
  BodyDef d = test::box_def({0, 0.5f});
  d.velocity = {6, 0};  // 10 cm a step: far more than the cache's slop
  d.shapes[0].material.friction = 0.0f;
  d.shapes[0].material.static_friction = 0.0f;
  w.create_body(d);
  for (int i = 0; i < 5; ++i) w.step(kDt);  // lands on its face
  for (int i = 0; i < 30; ++i) {
    w.step(kDt);
    ASSERT_EQ(state_of(w).contacts.pair_keys.size(), 1u);
    EXPECT_EQ(state_of(w).pairs.cached, 0u) << "step " << i;
  }
}

// Two boxes resting 1 cm apart (twice the slop): their speculative pair is reused from the
// cache, and must still count as not touching (reused points' separations are measured afresh
// for the pair's touching flag and depth; the points do not store them).
TEST(ContactCache, ReusedSpeculativePairIsNotTouching) {
  World w(config(true));
  w.create_body(test::ground_def(20));
  w.create_body(test::box_def({-0.505f, 0.5f}));
  w.create_body(test::box_def({0.505f, 0.5f}));
  for (int i = 0; i < 60; ++i) w.step(kDt);
  const auto& set = state_of(w).contacts;
  ASSERT_EQ(set.pair_keys.size(), 3u);  // each box on the ground, and the two boxes
  EXPECT_EQ(state_of(w).pairs.cached, 3u);
  int touching = 0;
  for (std::size_t p = 0; p < set.pair_keys.size(); ++p) {
    const ContactPoint& cp = set.points[set.pair_begin[p]];
    if (cp.body_v != 0 && cp.body_o != 0) {  // dense index 0 is the ground
      EXPECT_EQ(set.pair_touching[p], 0) << "the boxes are 1 cm apart";
      EXPECT_EQ(set.pair_deepest[p], 0.0f) << "no point overlaps";
      for (std::uint32_t k = set.pair_begin[p]; k < set.pair_begin[p + 1]; ++k)
        EXPECT_NEAR(evaluate_contact(state_of(w), set.points[k]).c, 0.01f, 1e-3f);
    } else {
      touching += set.pair_touching[p];
    }
  }
  EXPECT_EQ(touching, 2);  // both boxes rest on the ground
}

// A box tipping over a corner turns relative to the ground: its other corner must get its
// contact in time (not sink) although the first corner's features could have been reused.
TEST(ContactCache, TippingBoxLandsOnItsFaceWithoutSinking) {
  for (const bool cache : {false, true}) {
    World w(config(cache));
    w.create_body(test::ground_def(20));
    BodyDef d = test::box_def({0, 0.5f}, {0.5f, 0.5f});
    d.center = {0, std::sqrt(0.5f) + 0.001f};
    d.angle = 0.785f;  // on a corner, just short of balance: it rocks back onto a face
    const BodyId box = w.create_body(d);
    float deepest = 0;
    for (int i = 0; i < 180; ++i) {
      w.step(kDt);
      const Transform t = w.transform(box);
      for (const Vec2 corner :
           {Vec2{-0.5f, -0.5f}, Vec2{0.5f, -0.5f}, Vec2{0.5f, 0.5f}, Vec2{-0.5f, 0.5f}}) {
        const Vec2 p = t.position + rotate(make_rot(t.angle), corner);
        deepest = std::min(deepest, p.y);
      }
    }
    const Transform t = w.transform(box);
    // It ends flat on a face (angle a multiple of 90 degrees) at rest height.
    const float off = std::remainder(t.angle, 1.5707963f);
    EXPECT_LT(std::fabs(off), 0.01f) << "cache " << cache;
    EXPECT_NEAR(t.position.y, 0.5f, 0.01f) << "cache " << cache;
    // Corners never sink (measured 0.09 mm deepest, with the cache and without).
    EXPECT_GT(deepest, -0.002f) << "cache " << cache;
  }
}

// With and without the cache a pyramid settles to the same place (measured: 1.3 mm apart at
// most after 3 s, while both tops sink 3.0 cm as the pyramid settles).
TEST(ContactCache, PyramidEndsWhereFreshCollisionPutsIt) {
  World cached(config(true)), fresh(config(false));
  const auto a = pyramid(cached, 20);
  const auto b = pyramid(fresh, 20);
  for (int i = 0; i < 180; ++i) cached.step(kDt), fresh.step(kDt);
  float worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst =
        std::max(worst, length(cached.transform(a[i]).position - fresh.transform(b[i]).position));
  EXPECT_LT(worst, 3e-3f);
  // And it stands: the top box is within 5 cm of where it started.
  EXPECT_LT(length(cached.transform(a.back()).position - Vec2{0, 19.5f}), 0.05f);
}

// Segments and capsules keep their features too (a pyramid on a segment ground, as Box2D's
// many_pyramids builds its ground; capsules lying on it): once settled every pair is reused, and
// the pile ends where fresh collision puts it (measured: the same bits, as the features found
// afresh are the ones kept).
TEST(ContactCache, SegmentGroundAndCapsulesReuseTheirFeatures) {
  auto build = [](World& w) {
    BodyDef ground;
    ground.is_static = true;
    ground.shapes = {ShapeDef{SegmentShape{{-20, 0}, {20, 0}}}};
    w.create_body(ground);
    std::vector<BodyId> ids;
    for (int r = 0; r < 6; ++r)
      for (int i = 0; i < 6 - r; ++i)
        ids.push_back(
            w.create_body(test::box_def({float(i) - 0.5f * float(5 - r), 0.5f + float(r)})));
    for (int i = 0; i < 3; ++i) {
      BodyDef capsule;
      capsule.shapes = {ShapeDef{CapsuleShape{0.5f, 0.25f}}};
      capsule.center = {8.0f + 2.0f * float(i), 0.25f};
      ids.push_back(w.create_body(capsule));
    }
    return ids;
  };
  World cached(config(true)), fresh(config(false));
  const auto a = build(cached), b = build(fresh);
  for (int i = 0; i < 120; ++i) cached.step(kDt), fresh.step(kDt);
  const auto& impl = state_of(cached);
  ASSERT_GT(impl.contacts.pair_keys.size(), 40u);
  EXPECT_EQ(impl.pairs.cached, impl.contacts.pair_keys.size());
  float worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst =
        std::max(worst, length(cached.transform(a[i]).position - fresh.transform(b[i]).position));
  EXPECT_LT(worst, 3e-3f);
}

}  // namespace
// Kept contact structure (colour_contacts): a resting pyramid keeps last step's constraints,
// colours and lanes, and that gives the same bits as colouring afresh every step, also across a
// teleport (which changes the pairs) and at 2 threads.
TEST(ContactStructure, KeptStructureGivesTheSameBitsAsRecolouring) {
  std::uint64_t hashes[2];
  for (int keep = 0; keep < 2; ++keep) {
    WorldConfig config;
    config.enable_sleep = false;
    config.threads = 2;
    World w(config);
    const std::vector<BodyId> boxes = pyramid(w, 10);
    int kept = 0;
    for (int step = 0; step < 240; ++step) {
      if (step == 150) w.set_transform(boxes.back(), {15, 2}, 0.3f);
      if (keep == 0) test::recolour_next_step(w);
      w.step(kDt);
      kept += state_of(w).contacts.structure_kept;
    }
    if (keep == 1) {
      EXPECT_GT(kept, 100) << "a resting pyramid should keep its structure";
    }
    if (keep == 0) {
      EXPECT_EQ(kept, 0);
    }
    hashes[keep] = w.state_hash();
  }
  EXPECT_EQ(hashes[0], hashes[1]);
}

// A body that touches nothing, destroyed and replaced by another in the same step: the pairs,
// point counts and movable flags stay as they were, but every body after it in dense order moves
// down one index. The kept structure must notice (BodyStore::dense_moved) and refill its lanes'
// bodies, or it would solve the pyramid's contacts on the wrong bodies.
TEST(ContactStructure, CompactionBetweenKeptStepsGivesTheSameBitsAsRecolouring) {
  std::uint64_t hashes[2];
  for (int keep = 0; keep < 2; ++keep) {
    WorldConfig config;
    config.enable_sleep = false;
    World w(config);
    w.create_body(test::ground_def(40));
    const BodyId loner = w.create_body(test::box_def({300, 50}));  // before the pyramid's boxes
    constexpr int kRows = 8;
    for (int r = 0; r < kRows; ++r)
      for (int i = 0; i < kRows - r; ++i)
        w.create_body(test::box_def({float(i) - 0.5f * float(kRows - r - 1), 0.5f + float(r)}));
    int kept_after = 0;
    for (int step = 0; step < 200; ++step) {
      if (step == 150) {
        w.destroy_body(loner);
        w.create_body(test::box_def({-300, 50}));
      }
      if (keep == 0) test::recolour_next_step(w);
      w.step(kDt);
      if (step >= 150) kept_after += state_of(w).contacts.structure_kept;
    }
    if (keep == 1) {
      EXPECT_GT(kept_after, 20) << "the pyramid should keep its structure";
    }
    hashes[keep] = w.state_hash();
  }
  EXPECT_EQ(hashes[0], hashes[1]);
}

}  // namespace strut

namespace strut {
namespace {

// A kept contact structure refills the lanes of the pairs the narrow phase collided afresh, and
// only those (prepare_contacts keeps the features, materials and impulses of the others). A box
// of a resting pyramid made frictionless keeps its pairs and point counts, so the structure
// stays; its pairs forget their features (set_material) and come back with the new friction,
// which its lanes must take as recolouring would.
TEST(ContactStructure, KeptLanesTakeWhatTheNarrowPhaseCollidedAfresh) {
  std::uint64_t hashes[2];
  for (int keep = 0; keep < 2; ++keep) {
    World w(WorldConfig{.threads = 1, .enable_sleep = false});
    const std::vector<BodyId> boxes = pyramid(w, 8);
    for (int step = 0; step < 240; ++step) {
      if (step == 200) w.set_material(boxes[3], Material{.friction = 0.0f});
      if (keep == 0) test::recolour_next_step(w);
      w.step(kDt);
      const ContactSet& set = state_of(w).contacts;
      if (keep == 1 && step == 200) {
        EXPECT_TRUE(set.structure_kept) << "the pairs and point counts did not change";
        const auto fresh = std::count(set.pair_reused.begin(), set.pair_reused.end(), 0);
        EXPECT_GE(fresh, 3) << "the box's pairs collide afresh";
        EXPECT_LT(fresh, 10) << "the other pairs keep their features";
      }
    }
    hashes[keep] = w.state_hash();
  }
  EXPECT_EQ(hashes[0], hashes[1]);
}

}  // namespace
}  // namespace strut

namespace strut {
namespace {

// The impulses of a kept structure stay in its lanes between steps (point_impulses.cpp). A
// change of the step length rescales the warm-start impulses (they are impulse x h): those in
// lanes too, which the points alone would miss, so a pyramid whose step changes keeps the bits
// of recolouring every step.
TEST(ContactStructure, ChangedStepRescalesTheImpulsesKeptInLanes) {
  int kept = 0;  // steps that kept the structure
  const auto final_hash = [&](bool keep) {
    World w(WorldConfig{.threads = 2, .enable_sleep = false});
    pyramid(w, 8);
    kept = 0;
    for (int step = 0; step < 240; ++step) {
      if (!keep) test::recolour_next_step(w);
      w.step(step < 200 ? kDt : 0.5f * kDt);
      kept += state_of(w).contacts.structure_kept;
    }
    return w.state_hash();
  };
  const std::uint64_t recoloured = final_hash(false);
  EXPECT_EQ(kept, 0);
  EXPECT_EQ(final_hash(true), recoloured);
  EXPECT_GT(kept, 150) << "a resting pyramid should keep its structure";
}

}  // namespace
}  // namespace strut

namespace strut {
namespace {

// While a pyramid settles its pairs stay, but some gain or lose a point, and a pair collided
// afresh may find its first point on the other body (ContactSet::points_relaid). The colours and
// lanes are kept then too; the lanes follow their points to their new places and the pairs
// collided afresh are filled as a rebuild would fill them, so the bits are those of recolouring
// every step, at 1 and 2 threads. The built-in large_pyramid re-lays its points in 77 of its
// first 160 steps; smaller pyramids hardly do, and then a lane left pointing at its old
// places went unnoticed.
TEST(ContactStructure, SettlingPileKeepsItsLanesWhenItsPointsMove) {
  for (const int threads : {1, 2}) {
    int relaid = 0;  // steps that kept the structure with re-laid points
    const auto final_hash = [&](bool keep) {
      SceneInstance scene = build_scene(builtin_scene("large_pyramid"), threads);
      relaid = 0;
      for (int step = 0; step < 150; ++step) {
        if (!keep) test::recolour_next_step(scene.world);
        scene.world.step(kDt);
        const ContactSet& set = state_of(scene.world).contacts;
        relaid += set.structure_kept && set.points_relaid;
      }
      return scene.world.state_hash();
    };
    const std::uint64_t recoloured = final_hash(false);
    EXPECT_EQ(relaid, 0);
    EXPECT_EQ(final_hash(true), recoloured) << threads << " threads";
    // 6 of 150 steps since pairs that touch keep their features while they move less than 10
    // slops (the recycling in narrow_phase.cpp; 10 or more before).
    EXPECT_GE(relaid, 3) << "a settling pyramid re-lays its points now and then";
  }
}

}  // namespace
}  // namespace strut
