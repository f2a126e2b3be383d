// Floor tiles in top-down worlds (no gravity): bodies move over them without colliding and are
// slowed by kinetic friction mu g (g = TileMapDef::floor_gravity), and stop dead instead of
// creeping.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "test_util.hpp"

namespace strut {
namespace {

using test::kDt;
constexpr float kSand = 0.5f, kIce = 0.05f;

TileMaterial floor_of(float friction) {
  TileMaterial m;
  m.material.friction = friction;
  m.floor = true;
  return m;
}

// One row of unit tiles from x = 0, y in [0, 1]: `tiles` entries of the materials
// {sand, ice}.
TileMapDef strip(std::vector<int> tiles) {
  TileMapDef def;
  def.origin = {0, 1};
  def.rows = 1;
  def.cols = int(tiles.size());
  def.tiles = std::move(tiles);
  def.materials = {floor_of(kSand), floor_of(kIce)};
  return def;
}

World top_down_world() { return World(WorldConfig{.gravity = {0, 0}}); }

BodyId puck(World& world, Vec2 at, Vec2 velocity, float radius = 0.25f) {
  BodyDef d;
  d.shapes = {ShapeDef{CircleShape{radius}}};
  d.center = at;
  d.velocity = velocity;
  return world.create_body(d);
}

}  // namespace

// Sand (2 tiles), ice (10), sand (8); a puck enters at 6 m/s. On each stretch every step takes
// mu g dt of its speed (within 0.1 %: float rounding of the substep integration), and it stops
// with velocity exactly 0 where v^2 = 2 mu g d says (within 0.15 m: the floor is looked up once
// per step, so a border is felt up to one step, about 0.1 m, late), then stays there.
TEST(FloorFriction, SandIceSandSlowsAtEachMaterialsRateAndStops) {
  World world = top_down_world();
  std::vector<int> tiles(20, 0);
  for (int c = 2; c < 12; ++c) tiles[std::size_t(c)] = 1;
  world.create_tile_map(strip(tiles));
  const BodyId id = puck(world, {0.5f, 0.5f}, {6, 0});
  int steps_on[3] = {};  // sand, ice, sand again
  int step = 0;
  for (; step < 600; ++step) {
    const float x = world.transform(id).position.x;
    const float v = world.linear_velocity(id).x;
    world.step(kDt);
    const float v_after = world.linear_velocity(id).x;
    EXPECT_EQ(world.linear_velocity(id).y, 0.0f);
    if (v_after == 0.0f) break;
    const int stretch = x < 2 ? 0 : x < 12 ? 1 : 2;
    const float mu = stretch == 1 ? kIce : kSand;
    EXPECT_NEAR((v - v_after) / kDt, mu * 10.0f, 1e-3f * mu * 10.0f) << "x " << x;
    ++steps_on[stretch];
  }
  EXPECT_GT(steps_on[0], 10);
  EXPECT_GT(steps_on[1], 100);
  EXPECT_GT(steps_on[2], 5);
  const float v_ice = std::sqrt(36.0f - 2 * kSand * 10 * 1.5f);           // entering the ice
  const float v_sand = std::sqrt(v_ice * v_ice - 2 * kIce * 10 * 10.0f);  // leaving it
  const float x_stop = 12.0f + v_sand * v_sand / (2 * kSand * 10);
  const Vec2 at = world.transform(id).position;
  EXPECT_NEAR(at.x, x_stop, 0.15f);
  for (int i = 0; i < 60; ++i) {
    world.step(kDt);
    EXPECT_EQ(world.linear_velocity(id).x, 0.0f);
    EXPECT_EQ(world.transform(id).position.x, at.x);
  }
}

// Once the friction would leave less than the stop speed, the body stops dead: it never moves
// slower than the stop speed, and stops within the time friction alone would take to bring it
// there.
TEST(FloorFriction, StopsDeadBelowTheStopSpeed) {
  World world = top_down_world();
  TileMapDef def = strip(std::vector<int>(10, 1));
  def.floor_stop_speed = 0.05f;
  world.create_tile_map(def);
  const BodyId id = puck(world, {1, 0.5f}, {0.2f, 0});
  int steps = 0;
  float slowest = 1e9f;
  while (world.linear_velocity(id).x != 0.0f && steps < 600) {
    slowest = std::min(slowest, world.linear_velocity(id).x);
    world.step(kDt);
    ++steps;
  }
  EXPECT_EQ(world.linear_velocity(id).x, 0.0f);
  EXPECT_GE(slowest, 0.05f);
  EXPECT_LE(float(steps) * kDt, (0.2f - 0.05f) / (kIce * 10) + kDt);
}

// Static friction: a push weaker than mu m g leaves a resting body exactly where it is; a
// stronger one accelerates it at (F - mu m g) / m (within 1 %).
TEST(FloorFriction, APushWeakerThanFrictionDoesNotCreep) {
  for (const float ratio : {0.8f, 1.2f}) {
    World world = top_down_world();
    world.create_tile_map(strip(std::vector<int>(10, 0)));
    const BodyId id = puck(world, {1, 0.5f}, {0, 0});
    const float weight = world.mass(id) * 10.0f;
    const Vec2 start = world.transform(id).position;
    for (int i = 0; i < 60; ++i) {
      world.apply_force(id, {ratio * kSand * weight, 0});
      world.step(kDt);
    }
    if (ratio < 1) {
      EXPECT_EQ(world.transform(id).position.x, start.x);
      EXPECT_EQ(world.linear_velocity(id).x, 0.0f);
    } else {
      EXPECT_NEAR(world.linear_velocity(id).x, (ratio - 1) * kSand * 10.0f, 0.01f);
    }
  }
}

// A disc spinning in place on sand slows at mu g / k, k = R / sqrt(2) its radius of gyration
// (within 0.1 % per step), and stops with angular velocity exactly 0.
TEST(FloorFriction, SpinSlowsAtMuGOverTheRadiusOfGyration) {
  World world = top_down_world();
  world.create_tile_map(strip(std::vector<int>(4, 0)));
  BodyDef d;
  d.shapes = {ShapeDef{CircleShape{0.5f}}};
  d.center = {2, 0.5f};
  d.angular_velocity = 10.0f;
  const BodyId id = world.create_body(d);
  const float expected = kSand * 10.0f / (0.5f / std::sqrt(2.0f));
  int steps = 0;
  for (; steps < 600; ++steps) {
    const float w = world.angular_velocity(id);
    world.step(kDt);
    if (world.angular_velocity(id) == 0.0f) break;
    EXPECT_NEAR((w - world.angular_velocity(id)) / kDt, expected, 1e-3f * expected);
  }
  EXPECT_EQ(world.angular_velocity(id), 0.0f);
  EXPECT_NEAR(float(steps) * kDt, 10.0f / expected, 2 * kDt);
  EXPECT_EQ(world.linear_velocity(id).x, 0.0f);
}

// Tiles that are neither floor nor solid (empty, -1) and floors of friction 0 leave a body
// alone; floors never collide.
TEST(FloorFriction, EmptyTilesAndFrictionlessFloorsDoNotSlow) {
  World world = top_down_world();
  TileMapDef def = strip({-1, -1, 2, 2, -1});
  def.materials.push_back(floor_of(0.0f));
  world.create_tile_map(def);
  const BodyId id = puck(world, {0.5f, 0.5f}, {2, 0});
  for (int i = 0; i < 60; ++i) world.step(kDt);
  EXPECT_NEAR(world.linear_velocity(id).x, 2.0f, 1e-5f);
  EXPECT_EQ(world.linear_velocity(id).y, 0.0f);
}

// Floors belong to the world, not to the map's body: destroying the body (its solid tiles)
// leaves them slowing bodies at the same rate.
TEST(FloorFriction, FloorsOutliveTheMapsBody) {
  World world = top_down_world();
  TileMapDef def = strip({-1, 0, 0, 0, 0, 0, 0, 0});
  def.materials.push_back({Material{}});  // a solid rock tile at the start
  def.tiles[0] = 2;
  const TileMap map = world.create_tile_map(def);
  world.destroy_body(map.body);
  const BodyId id = puck(world, {1.5f, 0.5f}, {2, 0});
  world.step(kDt);
  EXPECT_NEAR(world.linear_velocity(id).x, 2 - kSand * 10 * kDt, 1e-4f);
  EXPECT_EQ(world.body_count(), 1u);
}

namespace {
// A walled 40 m arena of sand and ice with 1500 crates flung about (more than one chunk of the
// stage's parallel loop): the state hash after 90 steps, and how many crates stand still.
std::pair<std::uint64_t, int> arena(int threads) {
  World world(WorldConfig{.gravity = {0, 0}, .threads = threads});
  TileMapDef def;
  def.origin = {-20, 20};
  def.rows = 40, def.cols = 40;
  def.materials = {floor_of(kSand), floor_of(kIce), {Material{.restitution = 0.5f}}};
  for (int r = 0; r < 40; ++r)
    for (int c = 0; c < 40; ++c)
      def.tiles.push_back(r == 0 || c == 0 || r == 39 || c == 39 ? 2 : (r / 4 + c / 4) % 2);
  world.create_tile_map(def);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> pos(-18.0f, 18.0f), vel(-6.0f, 6.0f);
  std::vector<BodyId> crates;
  for (int i = 0; i < 1500; ++i) {
    BodyDef d = test::box_def({pos(rng), pos(rng)}, {0.2f, 0.15f});
    d.velocity = {vel(rng), vel(rng)};
    d.angular_velocity = vel(rng);
    crates.push_back(world.create_body(d));
  }
  for (int i = 0; i < 90; ++i) world.step(kDt);
  int still = 0;
  for (const BodyId id : crates)
    still += world.linear_velocity(id) == Vec2{} && world.angular_velocity(id) == 0.0f;
  return {world.state_hash(), still};
}
}  // namespace

TEST(FloorFriction, SameBitsForAnyThreadCount) {
  const auto [hash, still] = arena(1);
  // The floors act (892 of 1500 still): sand stops a 6 m/s crate within 1.2 s.
  EXPECT_GT(still, 600);
  for (const int threads : {2, 3, 8}) EXPECT_EQ(arena(threads).first, hash) << threads;
}

}  // namespace strut
