// The character mover (World::move_character) against geometry: a capsule character walked
// frame by frame (60 Hz, the caller integrating gravity as a game would) over flat ground, up
// slopes, into walls and ledges, and thrown at a thin wall from a kilometre away. Heights and
// gaps are measured against the surfaces' equations.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "test_util.hpp"

// A namespace of its own: the suite is compiled in unity batches with other files.
namespace strut::character_mover_test {
namespace {

using test::kDt;
using test::kG;
using test::kPi;

constexpr float kRadius = 0.3f;  // the character: a capsule 1.6 m tall, 0.6 m wide
constexpr float kCore = 1.0f;    // from the bottom circle's centre to the top one's
constexpr float kSkin = 0.01f;   // MoverSettings' default

// A character whose feet (the capsule's lowest point) are at (x, foot).
Capsule standing_at(float x, float foot) {
  return {{x, foot + kRadius}, {x, foot + kRadius + kCore}, kRadius};
}

float foot_of(const Capsule& c) { return c.a.y - kRadius; }

void add_static(World& world, const Shape& shape, Vec2 center, float angle = 0.0f) {
  BodyDef def;
  def.shapes = {ShapeDef{shape}};
  def.center = center;
  def.angle = angle;
  def.is_static = true;
  world.create_body(def);
}

// Flat ground whose top is y = 0, from x = -100 to 100.
World flat_world() {
  World world;
  add_static(world, BoxShape{{100, 0.5f}}, {0, -0.5f});
  return world;
}

// Whether the capsule overlaps any shape (the engine's own overlap test; touching is not).
bool overlaps(const World& world, const Capsule& c) {
  const Vec2 mid = 0.5f * (c.a + c.b);
  return !world.overlap_shape(CapsuleShape{0.5f * length(c.b - c.a), c.radius}, {mid, kPi / 2})
              .empty();
}

// A game's character: it runs at a set speed, gravity pulls it, and landing stops its fall.
struct Walker {
  Capsule body;
  MoverSettings settings;
  Vec2 velocity;
  MoveResult last;
  bool ever_stepped = false;

  void step(const World& world, float run_speed) {
    velocity.x = run_speed;
    velocity.y -= kG * kDt;
    last = world.move_character(body, kDt * velocity, settings);
    body = last.capsule;
    ever_stepped = ever_stepped || last.stepped;
    if (last.on_ground && velocity.y < 0) velocity.y = 0;
  }
};

TEST(CharacterMover, WalkingOnFlatGroundKeepsItsHeightWithinTheSkin) {
  World world = flat_world();
  Walker walker{standing_at(0, 0.5f * kSkin)};
  float lowest = 1e9f, highest = -1e9f;
  for (int frame = 0; frame < 120; ++frame) {  // 2 s at 5 m/s
    walker.step(world, 5.0f);
    ASSERT_TRUE(walker.last.on_ground) << "frame " << frame;
    // Up, to 1e-4: the gap's normal is the direction to the nearest point of a 200 m edge,
    // whose float rounding (1e-5 m) tilts it by 3e-5 at the 0.3 m the two are apart.
    EXPECT_NEAR(walker.last.ground_normal.x, 0.0f, 1e-4f);
    EXPECT_NEAR(walker.last.ground_normal.y, 1.0f, 1e-4f);
    lowest = std::min(lowest, foot_of(walker.body));
    highest = std::max(highest, foot_of(walker.body));
  }
  // The feet stay between the ground and one skin above it (1e-5 m: float rounding of the
  // gaps), and a walk on the flat goes the whole 10 m (1e-3 m: 120 float additions).
  EXPECT_GE(lowest, -1e-5f);
  EXPECT_LE(highest, kSkin + 1e-5f);
  EXPECT_NEAR(walker.body.a.x, 10.0f, 1e-3f);
}

// Flat ground to x = 0, then a slope of `degrees` rising to the right for 20 m, then flat.
World slope_world(float degrees) {
  World world;
  const float t = std::tan(degrees * kPi / 180);
  add_static(world, ChainShape{{{-20, 0}, {0, 0}, {20, 20 * t}, {40, 20 * t}}}, {});
  return world;
}

TEST(CharacterMover, ClimbsASlopeGentlerThanMaxSlope) {
  const float theta = 30 * kPi / 180;
  World world = slope_world(30);
  Walker walker{standing_at(-1, 0.5f * kSkin)};  // max_slope 45 degrees by default
  for (int frame = 0; frame < 180; ++frame) walker.step(world, 3.0f);  // 3 s at 3 m/s
  const Vec2 foot_centre = walker.body.a;
  // Well up the slope: 3 s of walking, at most 1 m of it on the flat, the rest at no less than
  // cos^2(30) = 0.75 of the speed (a walk into a slope keeps the part of it along the slope).
  EXPECT_GT(foot_centre.x, 0.75f * 3 * 2);
  // The bottom circle's gap to the slope (the line y = x tan 30): between 0 and a skin (1e-4 m:
  // rounding), i.e. the feet at the height the slope has there.
  const float gap = -foot_centre.x * std::sin(theta) + foot_centre.y * std::cos(theta) - kRadius;
  EXPECT_GE(gap, -1e-4f);
  EXPECT_LE(gap, kSkin + 1e-4f);
  ASSERT_TRUE(walker.last.on_ground);
  EXPECT_NEAR(walker.last.ground_normal.x, -std::sin(theta), 1e-4f);
  EXPECT_NEAR(walker.last.ground_normal.y, std::cos(theta), 1e-4f);
}

TEST(CharacterMover, DoesNotClimbASlopeSteeperThanMaxSlope) {
  const float theta = 60 * kPi / 180;
  World world = slope_world(60);
  for (const float step_height : {0.0f, 0.25f}) {
    Walker walker{standing_at(-1, 0.5f * kSkin)};
    walker.settings.step_height = step_height;
    for (int frame = 0; frame < 180; ++frame) walker.step(world, 3.0f);
    // At the foot: the bottom circle one skin from both the ground and the slope, so its centre
    // is at x = -(r + skin) tan 30 deg, y = r + skin (5e-4 m: the gaps' rounding, a skin's
    // fraction).
    const float foot_x = -(kRadius + kSkin) * std::tan(kPi / 2 - theta);
    EXPECT_NEAR(walker.body.a.x, foot_x, 5e-4f) << "step_height " << step_height;
    EXPECT_NEAR(walker.body.a.y, kRadius + kSkin, 5e-4f) << "step_height " << step_height;
    EXPECT_TRUE(walker.last.on_ground);
    EXPECT_FALSE(walker.ever_stepped);
  }
}

TEST(CharacterMover, StopsOneSkinShortOfAWall) {
  World world = flat_world();
  add_static(world, BoxShape{{0.05f, 2}}, {5.05f, 2});  // a wall whose face is at x = 5
  Walker walker{standing_at(0, 0.5f * kSkin)};
  for (int frame = 0; frame < 120; ++frame) {  // 2 s at 4 m/s: pressing on it for the second
    walker.step(world, 4.0f);
    ASSERT_FALSE(overlaps(world, walker.body)) << "frame " << frame;
  }
  // The capsule's side one skin from the face (1e-5 m: rounding at x = 5).
  EXPECT_NEAR(5.0f - (walker.body.a.x + kRadius), kSkin, 1e-5f);
  ASSERT_FALSE(walker.last.planes.empty());
  bool met_wall = false;
  for (const MoverPlane& p : walker.last.planes) met_wall = met_wall || p.normal == Vec2{-1, 0};
  EXPECT_TRUE(met_wall);
}

TEST(CharacterMover, StepsUpALedgeLowerThanStepHeightAndNotAHigherOne) {
  for (const float ledge : {0.2f, 0.3f}) {
    World world = flat_world();
    add_static(world, BoxShape{{5, 0.5f * ledge}}, {8, 0.5f * ledge});  // from x = 3 to 13
    Walker walker{standing_at(0, 0.5f * kSkin)};
    walker.settings.step_height = 0.25f;
    for (int frame = 0; frame < 120; ++frame) {
      walker.step(world, 3.0f);
      ASSERT_FALSE(overlaps(world, walker.body)) << "ledge " << ledge << ", frame " << frame;
    }
    const std::string label = "ledge " + std::to_string(ledge) + " m";
    if (ledge < walker.settings.step_height) {
      // On top, feet within a skin of it (1e-4 m: rounding), after 6 m of walking.
      EXPECT_TRUE(walker.ever_stepped) << label;
      EXPECT_GT(walker.body.a.x, 5.0f) << label;
      EXPECT_GE(foot_of(walker.body), ledge - 1e-4f) << label;
      EXPECT_LE(foot_of(walker.body), ledge + kSkin + 1e-4f) << label;
      EXPECT_TRUE(walker.last.on_ground) << label;
    } else {
      // At its foot, on the ground, the bottom circle one skin from the ledge's top corner
      // (1e-4 m: rounding).
      EXPECT_FALSE(walker.ever_stepped) << label;
      EXPECT_NEAR(length(walker.body.a - Vec2{3, ledge}) - kRadius, kSkin, 1e-4f) << label;
      EXPECT_LE(foot_of(walker.body), kSkin + 1e-4f) << label;
    }
  }
}

TEST(CharacterMover, AKilometreInOneCallStopsAtAThinWall) {
  World world;
  add_static(world, BoxShape{{0.005f, 1}}, {10, 0});  // 1 cm thick, its face at x = 9.995
  const Capsule start = standing_at(0, -0.8f);        // floating: nothing below it
  const MoveResult r = world.move_character(start, {1000, 0});
  EXPECT_NEAR(r.capsule.a.x + kRadius, 9.995f - kSkin, 1e-5f);  // one skin short of the face
  EXPECT_EQ(r.capsule.a.y, start.a.y);                          // nothing turned it
  EXPECT_FALSE(overlaps(world, r.capsule));
  // Also through a long diagonal and with the wall as a segment (no thickness at all).
  World thin;
  add_static(thin, SegmentShape{{0, -5}, {0, 5}}, {10, 0});
  const MoveResult d = thin.move_character(start, {1000, 40});
  EXPECT_LT(d.capsule.a.x + kRadius, 10.0f);
  EXPECT_FALSE(overlaps(thin, d.capsule));
}

TEST(CharacterMover, MovingDiagonallyIntoAWallSlidesAlongIt) {
  World world;
  add_static(world, BoxShape{{0.5f, 50}}, {3.5f, 0});  // face at x = 3
  const Capsule start = standing_at(0, 0);             // floating, no gravity in this move
  const MoveResult r = world.move_character(start, {4, 2});
  // Against the face (a skin off, 1e-5 m) with all 2 m of the motion along it (1e-5 m: the
  // plane solve is exact, only rounding remains).
  EXPECT_NEAR(r.capsule.a.x + kRadius, 3.0f - kSkin, 1e-5f);
  EXPECT_NEAR(r.capsule.a.y - start.a.y, 2.0f, 1e-5f);
  EXPECT_FALSE(r.on_ground);
}

TEST(CharacterMover, FallsUnderGravityAndLandsOnTheGround) {
  World world = flat_world();
  Walker walker{standing_at(0, 3)};
  int landed_at = -1;
  for (int frame = 0; frame < 120 && landed_at < 0; ++frame) {
    walker.step(world, 0);
    if (walker.last.on_ground) landed_at = frame;
  }
  // A fall of 3 m takes sqrt(2 h / g) = 0.775 s, 46.5 frames of 60 Hz; frame k ends at
  // (k + 1) dt, and the caller's integration (velocity first, then position) lands it within a
  // frame of the exact time.
  const float expected = std::sqrt(2 * 3 / kG) / kDt;
  EXPECT_NEAR(float(landed_at + 1), expected, 1.0f);
  EXPECT_GE(foot_of(walker.body), -1e-5f);
  EXPECT_LE(foot_of(walker.body), kSkin + 1e-5f);
  EXPECT_EQ(walker.velocity.y, 0.0f);
  for (int frame = 0; frame < 60; ++frame) walker.step(world, 0);  // stays put, standing
  EXPECT_GE(foot_of(walker.body), -1e-5f);
  EXPECT_LE(foot_of(walker.body), kSkin + 1e-5f);
}

TEST(CharacterMover, ACapsuleStartingInsideAShapeIsPushedOutOfIt) {
  // A crate moved into the character (here: built there), 5 cm deep into its side, on the
  // ground it stands on.
  World world = flat_world();
  add_static(world, BoxShape{{0.5f, 0.5f}}, {0.75f, 0.5f});  // its face at x = 0.25
  const Capsule start = standing_at(0, 0.5f * kSkin);
  ASSERT_TRUE(overlaps(world, start));
  for (const Vec2 translation : {Vec2{0, 0}, Vec2{0.5f, 0}, Vec2{-0.5f, 0}}) {
    const MoveResult r = world.move_character(start, translation);
    EXPECT_FALSE(overlaps(world, r.capsule)) << translation.x;
    // Pushed (or walked) out: its side at least one skin from the face (1e-5 m: rounding), and
    // walking into the crate takes it no further than that.
    EXPECT_LE(r.capsule.a.x + kRadius, 0.25f - kSkin + 1e-5f) << translation.x;
    if (translation.x >= 0)
      EXPECT_NEAR(r.capsule.a.x + kRadius, 0.25f - kSkin, 1e-5f) << translation.x;
    else
      EXPECT_NEAR(r.capsule.a.x, -0.5f, 1e-5f);  // walking away from it goes the whole way
    EXPECT_TRUE(r.on_ground);
  }
}

TEST(CharacterMover, BadInputIsRefusedNamingTheField) {
  const World world = flat_world();
  auto refused = [&](Capsule c, Vec2 t, MoverSettings s, const std::string& field) {
    try {
      world.move_character(c, t, s);
      ADD_FAILURE() << field << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("move_character: " + field + ":", 0), 0u) << e.what();
    }
  };
  const Capsule c = standing_at(0, 0.005f);
  const float nan = std::nanf("");
  refused({{nan, 0}, c.b, 0.3f}, {}, {}, "capsule.a");
  refused({c.a, {1e5f, 0}, 0.3f}, {}, {}, "capsule.b");
  refused({c.a, c.b, -1}, {}, {}, "capsule.radius");
  refused({c.a, c.b, 1e6f}, {}, {}, "capsule.radius");
  refused(c, {nan, 0}, {}, "translation");
  refused(c, {5000, 0}, {}, "translation");
  MoverSettings s;
  s.up = {0, 0};
  refused(c, {}, s, "up");
  s = {}, s.max_slope = 2;
  refused(c, {}, s, "max_slope");
  s = {}, s.step_height = -0.1f;
  refused(c, {}, s, "step_height");
  s = {}, s.snap_distance = INFINITY;
  refused(c, {}, s, "snap_distance");
  s = {}, s.skin = 0;
  refused(c, {}, s, "skin");
  s = {}, s.skin = 0.5f;  // wider than the capsule's radius
  refused(c, {}, s, "skin");
  s = {}, s.max_iterations = 0;
  refused(c, {}, s, "max_iterations");
}

TEST(CharacterMover, ResultsAreBitIdenticalWhenRepeated) {
  World world = slope_world(30);
  add_static(world, BoxShape{{0.1f, 0.1f}}, {-3, 0.1f});  // a step on the way
  auto run = [&] {
    Walker walker{standing_at(-6, 0.5f * kSkin)};
    walker.settings.step_height = 0.25f;
    std::vector<float> trace;
    for (int frame = 0; frame < 200; ++frame) {
      walker.step(world, frame < 150 ? 3.0f : -2.0f);
      trace.push_back(walker.body.a.x), trace.push_back(walker.body.a.y);
      trace.push_back(walker.last.ground_normal.x);
    }
    return trace;
  };
  const std::vector<float> first = run(), second = run();
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i)
    ASSERT_EQ(test::bits(first[i]), test::bits(second[i])) << "value " << i;
}

}  // namespace
}  // namespace strut::character_mover_test
