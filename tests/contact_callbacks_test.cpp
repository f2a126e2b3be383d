// Contact callbacks (strut/contact_callbacks.hpp): a one-way platform made with the pre-solve
// callback, conditional collisions made with the custom filter, both bit-identical at 1 and 2
// threads; neither is asked about shapes without the flag; a callback that throws or is unset.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "strut/world.hpp"
#include "tests/test_util.hpp"

namespace strut {
namespace {

using test::kDt;
using test::kG;

// The one-way platform: a static 4 m x 0.2 m slab, top at y = 3, whose shape asks the pre-solve
// callback; the callback lets a contact act only when its normal, seen from the platform, points
// up (within 60 degrees), so bodies pass it going up and land on it coming down.
struct OneWayPlatform {
  World world;
  ShapeId platform;
  int calls = 0;
  std::vector<PreSolveContact> box_contacts;  // the resting box's, as the callback saw them
  ShapeId box_shape;
  static constexpr float kTop = 3.0f;

  explicit OneWayPlatform(int threads)
      : world(WorldConfig{.gravity = {0, -kG}, .threads = threads}) {
    BodyDef slab;
    slab.is_static = true;
    slab.center = {0, kTop - 0.1f};
    slab.shapes = {ShapeDef{.shape = BoxShape{{2.0f, 0.1f}}, .pre_solve = true}};
    const BodyId id = world.create_body(slab);
    platform = world.shapes(id)[0];
    world.set_pre_solve([this](const PreSolveContact& c) {
      ++calls;
      EXPECT_TRUE(c.shape_a == platform || c.shape_b == platform);
      const Vec2 up_from_platform = c.shape_a == platform ? c.normal : -c.normal;
      if (c.shape_a == box_shape || c.shape_b == box_shape) box_contacts.push_back(c);
      return up_from_platform.y > 0.5f;
    });
  }
};

// A ball (radius 0.25) launched upwards at 10 m/s from 2 m below the platform passes through it,
// peaks at 1 + 10^2 / (2 g) = 6 m as in free flight (within 1 mm of the integrator's free flight:
// the platform gave it no impulse), falls back onto the platform and rests on it at top + radius
// (within 1 cm: the contact slop is 5 mm). A box resting on the platform stays within 1 mm over the
// 4 s, and the callback sees its contact with the normal up and both points on the top face.
TEST(ContactCallbacks, AOneWayPlatformLetsABallUpAndCatchesItComingDown) {
  OneWayPlatform s(1);
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{0.25f}}};
  ball.center = {-1.0f, 1.0f};
  ball.velocity = {0, 10};
  const BodyId b = s.world.create_body(ball);
  BodyDef box;
  box.center = {1.2f, OneWayPlatform::kTop + 0.5f};
  box.shapes = {ShapeDef{.shape = BoxShape{{0.5f, 0.5f}}}};
  const BodyId crate = s.world.create_body(box);
  s.box_shape = s.world.shapes(crate)[0];
  float apex = 0;
  for (int i = 0; i < 240; ++i) {
    s.world.step(kDt);
    apex = std::max(apex, s.world.transform(b).position.y);
    if (i == 100) {  // the ball is falling back onto the platform
      EXPECT_LT(s.world.linear_velocity(b).y, 0.0f);
      EXPECT_GT(s.world.transform(b).position.y, OneWayPlatform::kTop + 0.25f);
    }
  }
  // Free flight's apex in the engine: v^2 / (2 g) less v h / 2 for symplectic Euler at substep h
  // = 1/240 s (5.979 m against the continuous 6 m).
  const float h = kDt / 4;
  EXPECT_NEAR(apex, 1.0f + 10.0f * 10.0f / (2 * kG) - 10.0f * h / 2, 1e-3f);
  EXPECT_NEAR(s.world.transform(b).position.y, OneWayPlatform::kTop + 0.25f, 0.01f);
  EXPECT_NEAR(s.world.linear_velocity(b).y, 0.0f, 1e-3f);
  EXPECT_NEAR(s.world.transform(crate).position.y, OneWayPlatform::kTop + 0.5f, 1e-3f);
  ASSERT_FALSE(s.box_contacts.empty());
  const PreSolveContact& c = s.box_contacts.back();
  const Vec2 up = c.shape_a == s.platform ? c.normal : -c.normal;
  EXPECT_NEAR(up.x, 0.0f, 1e-5f);
  EXPECT_NEAR(up.y, 1.0f, 1e-5f);
  ASSERT_EQ(c.point_count, 2);
  for (int k = 0; k < 2; ++k) {
    // On b's surface: the box's bottom or the platform's top, both at the top within the slop.
    EXPECT_NEAR(c.points[k].y, OneWayPlatform::kTop, 0.005f);
    EXPECT_LT(std::fabs(c.separations[k]), 0.005f);
  }
  EXPECT_GT(s.calls, 0);
}

// A small ball at 25 m/s moves 0.42 m a step, eight times its radius: the continuous pass
// watches it, and would put it back below a platform its path crossed. The platform disabled
// that pair this step, so it passes: it reaches 1 + 25^2 / (2 g) = 32.25 m (less v h / 2 for the
// integrator, within 1 mm), as in free flight.
TEST(ContactCallbacks, AFastBallPassesUpThroughAOneWayPlatform) {
  OneWayPlatform s(1);
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{0.05f}}};
  ball.center = {0, 1.0f};
  ball.velocity = {0, 25};
  const BodyId b = s.world.create_body(ball);
  float apex = 0;
  for (int i = 0; i < 180; ++i) {
    s.world.step(kDt);
    apex = std::max(apex, s.world.transform(b).position.y);
  }
  const float h = kDt / 4;
  EXPECT_NEAR(apex, 1.0f + 25.0f * 25.0f / (2 * kG) - 25.0f * h / 2, 1e-3f);
}

// A trapdoor: a box rests on a flagged platform until the callback starts disabling their
// contact. The pair then ends (one end event, no begin event) and the box falls from where it
// rested as in free fall from rest: after 27 steps (108 substeps h = 1/240 s of symplectic Euler)
// g h^2 n (n + 1) / 2 = 1.022 m below (g t^2 / 2 = 1.013 m), within 1 mm.
TEST(ContactCallbacks, DisablingARestingContactEndsItAndTheBoxFalls) {
  World world(WorldConfig{.gravity = {0, -kG}, .enable_sleep = false});
  BodyDef slab;
  slab.is_static = true;
  slab.shapes = {ShapeDef{.shape = BoxShape{{2.0f, 0.1f}}, .pre_solve = true}};
  const BodyId door = world.create_body(slab);
  BodyDef box;
  box.shapes = {ShapeDef{BoxShape{}}};
  box.center = {0, 0.6f};
  const BodyId crate = world.create_body(box);
  bool open = false;
  world.set_pre_solve([&](const PreSolveContact&) { return !open; });
  for (int i = 0; i < 30; ++i) world.step(kDt);
  const float rest = world.transform(crate).position.y;
  EXPECT_NEAR(rest, 0.6f, 0.005f);
  ASSERT_EQ(world.contact_begin_events().size(), 1u);
  EXPECT_TRUE(world.contact_end_events().empty());
  open = true;
  world.step(kDt);
  ASSERT_EQ(world.contact_end_events().size(), 1u);
  const ContactEvent& end = world.contact_end_events()[0];
  EXPECT_TRUE((end.a == door && end.b == crate) || (end.a == crate && end.b == door));
  for (int i = 0; i < 26; ++i) world.step(kDt);
  EXPECT_TRUE(world.contact_begin_events().empty());
  const float h = kDt / 4, n = 108;
  EXPECT_NEAR(world.transform(crate).position.y, rest - kG * h * h * n * (n + 1) / 2, 1e-3f);
}

// The same run at 1 and 2 threads: the same calls in the same order, the same bits.
TEST(ContactCallbacks, AOneWayPlatformIsBitIdenticalAtOneAndTwoThreads) {
  std::uint64_t hashes[2];
  int calls[2];
  for (int t = 0; t < 2; ++t) {
    OneWayPlatform s(t + 1);
    for (int k = 0; k < 8; ++k) {
      BodyDef ball;
      ball.shapes = {ShapeDef{CircleShape{0.2f}}};
      ball.center = {-1.8f + 0.5f * float(k), 0.5f + 0.3f * float(k)};
      ball.velocity = {0, 9};
      s.world.create_body(ball);
    }
    for (int i = 0; i < 180; ++i) s.world.step(kDt);
    hashes[t] = s.world.state_hash();
    calls[t] = s.calls;
  }
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_EQ(calls[0], calls[1]);
}

// Six balls (user data 0 to 5) dropped 1 m onto a floor that asks the custom filter: the filter
// lets the odd ones collide, so the even ones fall through as in free fall (within 1 mm of the
// integrator's free fall after 2 s: the floor never touched them) and the odd ones rest on the
// floor at their radius (within 1 cm: the slop). Each ball-floor pair is asked about once; the
// filter reads the balls' user data through the world. At 1 and 2 threads: the same calls and the
// same bits.
TEST(ContactCallbacks, ACustomFilterLetsEvenBallsThroughTheFloorAtAnyThreadCount) {
  std::uint64_t hashes[2];
  std::vector<std::uint64_t> asked[2];
  for (int t = 0; t < 2; ++t) {
    World world(WorldConfig{.gravity = {0, -kG}, .threads = t + 1});
    BodyDef floor = test::ground_def();
    floor.shapes = {ShapeDef{.shape = BoxShape{{50, 1}}, .custom_filter = true}};
    const BodyId floor_id = world.create_body(floor);
    const ShapeId floor_shape = world.shapes(floor_id)[0];
    std::vector<BodyId> balls;
    for (std::uint64_t k = 0; k < 6; ++k) {
      BodyDef ball;
      ball.shapes = {ShapeDef{CircleShape{0.2f}}};
      ball.center = {2.0f * float(k), 1.2f};
      ball.user_data = k;
      balls.push_back(world.create_body(ball));
    }
    world.set_custom_filter([&](const ShapePair& p) {
      const ShapeId other = p.shape_a == floor_shape ? p.shape_b : p.shape_a;
      EXPECT_TRUE(p.shape_a == floor_shape || p.shape_b == floor_shape);
      const std::uint64_t k = world.user_data(world.body_of(other));
      asked[t].push_back(k);
      return k % 2 == 1;
    });
    for (int i = 0; i < 120; ++i) world.step(kDt);
    // Free fall as the engine integrates it, 480 substeps h = 1/240 s of symplectic Euler from
    // rest: g h^2 n (n + 1) / 2 (20.04 m; g t^2 / 2 = 20 m).
    const float h = kDt / 4, n = 480;
    const float free_fall = 1.2f - kG * h * h * n * (n + 1) / 2;
    for (std::uint64_t k = 0; k < 6; ++k) {
      const float y = world.transform(balls[k]).position.y;
      if (k % 2 == 1)
        EXPECT_NEAR(y, 0.2f, 0.01f) << k;
      else
        EXPECT_NEAR(y, free_fall, 1e-3f) << k;
    }
    hashes[t] = world.state_hash();
  }
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_EQ(asked[0], asked[1]);
  std::vector<std::uint64_t> once = asked[0];
  std::sort(once.begin(), once.end());
  EXPECT_EQ(once, (std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5}));
}

// A ball resting on a filtered floor (sleep off, so the pair stays a broad-phase pair): the
// filter's answer holds until set_filter on the floor, which asks again; the new answer, false,
// drops the ball through. set_custom_filter asks again too.
TEST(ContactCallbacks, SetFilterAndANewCustomFilterAskAgain) {
  World world(WorldConfig{.gravity = {0, -kG}, .enable_sleep = false});
  BodyDef floor = test::ground_def();
  floor.shapes = {ShapeDef{.shape = BoxShape{{50, 1}}, .custom_filter = true}};
  const ShapeId floor_shape = world.shapes(world.create_body(floor))[0];
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{0.2f}}};
  ball.center = {0, 0.5f};
  const BodyId b = world.create_body(ball);
  int calls = 0;
  bool answer = true;
  world.set_custom_filter([&](const ShapePair&) { return ++calls, answer; });
  for (int i = 0; i < 60; ++i) world.step(kDt);
  EXPECT_EQ(calls, 1);
  EXPECT_NEAR(world.transform(b).position.y, 0.2f, 0.01f);
  answer = false;
  for (int i = 0; i < 30; ++i) world.step(kDt);
  EXPECT_EQ(calls, 1);  // the answer holds
  EXPECT_NEAR(world.transform(b).position.y, 0.2f, 0.01f);
  world.set_filter(floor_shape, world.definition(floor_shape).filter);
  world.step(kDt);
  EXPECT_EQ(calls, 2);
  for (int i = 0; i < 60; ++i) world.step(kDt);
  EXPECT_LT(world.transform(b).position.y, -3.0f);  // through the floor (2 m thick)
  world.set_custom_filter([&](const ShapePair&) { return ++calls, true; });
  world.step(kDt);
  EXPECT_EQ(calls, 2);  // the ball is far below: no pair to ask about
}

// A world with a box pile on a floor and a ball beside it, the flag on `flagged` (by body index)
// only, both callbacks installed, logging each call's shapes.
struct FlaggedPile {
  World world;
  std::vector<ShapeId> shapes;
  std::vector<ShapeId> seen;
  FlaggedPile(const std::vector<int>& flagged, bool install)
      : world(WorldConfig{.gravity = {0, -kG}}) {
    for (int k = 0; k < 6; ++k) {
      const bool flag = std::find(flagged.begin(), flagged.end(), k) != flagged.end();
      BodyDef d;
      ShapeDef s{.shape = BoxShape{{0.5f, 0.5f}}, .custom_filter = flag, .pre_solve = flag};
      if (k == 0) {
        d.is_static = true;
        s.shape = BoxShape{{20, 1}};
        d.center = {0, -1};
      } else if (k == 5) {
        s.shape = CircleShape{0.3f};
        d.center = {3, 2};
      } else {
        d.center = {0.1f * float(k), 1.05f * float(k) - 0.5f};
      }
      d.shapes = {s};
      shapes.push_back(world.shapes(world.create_body(d))[0]);
    }
    if (!install) return;
    world.set_custom_filter([this](const ShapePair& p) {
      seen.push_back(p.shape_a), seen.push_back(p.shape_b);
      return true;
    });
    world.set_pre_solve([this](const PreSolveContact& c) {
      seen.push_back(c.shape_a), seen.push_back(c.shape_b);
      return true;
    });
  }
  std::uint64_t run() {
    for (int i = 0; i < 120; ++i) world.step(kDt);
    return world.state_hash();
  }
};

// Flags on the ball alone: the callbacks hear only of its pairs (it lands on the floor beside
// the pile), and answering true changes no bit. No flag anywhere: never called, the same bits as
// a world without callbacks; flags without callbacks: the same bits too.
TEST(ContactCallbacks, NeverCalledForShapesWithoutTheFlag) {
  FlaggedPile plain({}, false);
  const std::uint64_t expected = plain.run();
  FlaggedPile ball({5}, true);
  EXPECT_EQ(ball.run(), expected);
  ASSERT_FALSE(ball.seen.empty());
  for (std::size_t i = 0; i < ball.seen.size(); i += 2)
    EXPECT_TRUE(ball.seen[i] == ball.shapes[5] || ball.seen[i + 1] == ball.shapes[5]);
  FlaggedPile none({}, true);
  EXPECT_EQ(none.run(), expected);
  EXPECT_TRUE(none.seen.empty());
  FlaggedPile unset({0, 1, 2, 3, 4, 5}, false);
  EXPECT_EQ(unset.run(), expected);
}

// A callback that throws: World::step finishes the step as if it had returned true and then
// rethrows; a world whose callbacks throw at every call ends with the bits of one without
// callbacks. Clearing the callback (an empty function) stops the calls.
TEST(ContactCallbacks, ACallbackThatThrowsCollidesAndIsRethrownAfterTheStep) {
  FlaggedPile plain({}, false);
  const std::uint64_t expected = plain.run();
  for (const bool filter : {true, false}) {
    FlaggedPile s({0, 1, 2, 3, 4, 5}, false);
    int calls = 0, thrown = 0;
    if (filter)
      s.world.set_custom_filter([&](const ShapePair&) -> bool {
        ++calls;
        throw std::runtime_error("no answer");
      });
    else
      s.world.set_pre_solve([&](const PreSolveContact&) -> bool {
        ++calls;
        throw std::runtime_error("no answer");
      });
    for (int i = 0; i < 120; ++i) {
      try {
        s.world.step(kDt);
      } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "no answer");
        ++thrown;
      }
    }
    EXPECT_GT(thrown, 0);
    EXPECT_EQ(s.world.state_hash(), expected) << (filter ? "filter" : "pre-solve");
    if (filter)
      s.world.set_custom_filter({});
    else
      s.world.set_pre_solve({});
    const int before = calls;
    s.world.step(kDt);  // no throw
    EXPECT_EQ(calls, before);
  }
}

// The callbacks belong to the World object: a copy has them and continues bit-identically;
// restore keeps the world's own; a world from a snapshot has none.
TEST(ContactCallbacks, CopiesKeepTheCallbacksAndRestoreKeepsTheWorldsOwn) {
  OneWayPlatform s(1);
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{0.25f}}};
  ball.center = {0, 1.0f};
  ball.velocity = {0, 10};
  const BodyId b = s.world.create_body(ball);
  s.world.step(kDt);
  World copy = s.world.copy();
  for (int i = 0; i < 120; ++i) s.world.step(kDt), copy.step(kDt);
  EXPECT_EQ(copy.state_hash(), s.world.state_hash());
  EXPECT_GT(s.world.transform(b).position.y, OneWayPlatform::kTop);  // it went up through
  // The ball rests on the platform: every step asks about it. A world from a snapshot has no
  // callback; one restored from it (as a world or as bytes) keeps its own.
  World fresh = World::from_snapshot(s.world.snapshot(), 1);
  int before = s.calls;
  for (int i = 0; i < 10; ++i) fresh.step(kDt);
  EXPECT_EQ(s.calls, before);
  s.world.restore(fresh);
  s.world.step(kDt);
  EXPECT_GT(s.calls, before);
  before = s.calls;
  s.world.restore(fresh.snapshot());
  s.world.step(kDt);
  EXPECT_GT(s.calls, before);
  EXPECT_NEAR(s.world.transform(b).position.y, OneWayPlatform::kTop + 0.25f, 0.01f);
}

}  // namespace
}  // namespace strut
