// Tile maps: one call builds one static body with a box per solid tile, each with its material;
// seams never snag; raised tiles bounce by their material. (Floors: floor_friction_test.cpp.)
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace strut {
namespace {

Material frictionless() {
  Material m;
  m.friction = 0.0f;
  m.static_friction = 0.0f;
  return m;
}

}  // namespace

TEST(TileMap, OneStaticBodyWithABoxPerSolidTileAndItsMaterial) {
  World world;
  TileMapDef def;
  def.origin = {0, 2};
  def.rows = 2, def.cols = 3;
  def.tiles = {-1, 0, -1, 1, 1, 0};
  def.materials = {{Material{}}, {frictionless()}};
  const TileMap map = world.create_tile_map(def);
  EXPECT_EQ(world.body_count(), 1u);
  EXPECT_TRUE(world.state(map.body).is_static);
  ASSERT_EQ(map.tile_shapes.size(), 6u);
  EXPECT_EQ(world.shapes(map.body).size(), 4u);
  EXPECT_FALSE(world.is_valid(map.tile_shapes[0]));  // empty tiles have no shape
  // Tile (row 0, col 1): the box [1, 2] x [1, 2] of the default material.
  const ShapeDef top = world.definition(map.tile_shapes[1]);
  EXPECT_EQ(top.material.friction, Material{}.friction);
  for (const ShapeState& s : world.state(map.body).shapes) {
    if (!(s.id == map.tile_shapes[1])) continue;
    for (const Vec2 v : s.vertices) {
      EXPECT_TRUE(v.x == 1.0f || v.x == 2.0f) << v.x;
      EXPECT_TRUE(v.y == 1.0f || v.y == 2.0f) << v.y;
    }
  }
  EXPECT_EQ(world.definition(map.tile_shapes[3]).material.friction, 0.0f);
  EXPECT_EQ(world.body_of(map.tile_shapes[5]), map.body);
}

TEST(TileMap, BadDefinitionsAreRejectedWithTheField) {
  World world;
  TileMapDef def;
  def.rows = 2, def.cols = 3;
  def.tiles = {-1, 0, -1, 1, 1};
  def.materials = {{Material{}}, {frictionless()}};
  EXPECT_EQ(test::error_of([&] { world.create_tile_map(def); }),
            "create_tile_map: tiles has 5 entries, expected rows x cols = 6");
  def.rows = 1, def.cols = 2, def.tiles = {0, 2};
  EXPECT_EQ(test::error_of([&] { world.create_tile_map(def); }),
            "create_tile_map: tiles[1] = 2 names no material (2 given)");
  def.tiles = {0, -3};
  EXPECT_EQ(test::error_of([&] { world.create_tile_map(def); }),
            "create_tile_map: tiles[1] = -3 is neither -1 (empty) nor a material index");
  def.tiles = {0, 1};
  def.tile_size = 0.0f;
  EXPECT_EQ(test::error_of([&] { world.create_tile_map(def); }),
            "create_tile_map: tile_size must be in [0.002, 200000] m");
  def.tile_size = 1.0f;
  def.floor_gravity = -1.0f;
  EXPECT_EQ(test::error_of([&] { world.create_tile_map(def); }),
            "create_tile_map: floor_gravity must be in [0, 10000] m/s^2");
  def.floor_gravity = 10.0f;
  def.floor_stop_speed = std::nanf("");
  EXPECT_EQ(test::error_of([&] { world.create_tile_map(def); }),
            "create_tile_map: floor_stop_speed must be in [0, 10000] m/s");
  def.floor_stop_speed = 0.01f;
  def.materials[1].material.friction = -1.0f;
  EXPECT_EQ(test::error_of([&] {
              world.create_tile_map(def);
            }).rfind("create_tile_map: materials[1].material.friction", 0),
            0u);
  EXPECT_EQ(world.body_count(), 0u);  // nothing half-built
}

namespace {
// A box sliding on a frictionless floor at 5 m/s for 3 s; returns its final speed and the
// largest height change. Built from 40 flush tiles or from one long box. `add_shape`: a shape
// added to the map's body afterwards (the body is laid out afresh; its seams must stay).
std::pair<float, float> slide_over(bool tiles, bool add_shape = false) {
  World world(WorldConfig{.gravity = {0, -10}, .substeps = 4});
  const Material ice = frictionless();
  if (tiles) {
    TileMapDef def;
    def.origin = {-5, 0};
    def.rows = 1, def.cols = 40;
    def.tiles.assign(40, 0);
    def.materials = {{ice}};
    const TileMap map = world.create_tile_map(def);
    if (add_shape) {
      ShapeDef far;
      far.offset = {0, -50};
      world.add_shape(map.body, far);
    }
  } else {
    BodyDef floor;
    floor.shapes = {ShapeDef{.shape = BoxShape{{20, 0.5f}}, .material = ice}};
    floor.center = {15, -0.5f};
    floor.is_static = true;
    world.create_body(floor);
  }
  BodyDef box = test::box_def({0, 0.25f}, {0.25f, 0.25f});
  box.shapes[0].material = ice;
  box.velocity = {5, 0};
  const BodyId id = world.create_body(box);
  float worst_dy = 0;
  for (int i = 0; i < 180; ++i) {
    world.step(1.0f / 60);
    worst_dy = std::max(worst_dy, std::fabs(world.transform(id).position.y - 0.25f));
  }
  return {world.linear_velocity(id).x, worst_dy};
}
}  // namespace

// Crossing 15 seams, the box keeps its speed and height exactly as on one long floor.
TEST(TileMap, BoxSlidesAcrossSeamsWithoutCatching) {
  const auto [v_tiles, dy_tiles] = slide_over(true);
  const auto [v_floor, dy_floor] = slide_over(false);
  EXPECT_NEAR(v_tiles, 5.0f, 0.01f);
  EXPECT_NEAR(v_tiles, v_floor, 0.01f);
  EXPECT_LT(dy_tiles, 2e-3f);
  EXPECT_LT(dy_floor, 2e-3f);
}

TEST(TileMap, SeamsSurviveAShapeAddedToTheMap) {
  const auto [v, dy] = slide_over(true, true);
  EXPECT_NEAR(v, 5.0f, 0.01f);
  EXPECT_LT(dy, 2e-3f);
}

namespace {
// Top-down (no gravity): a ball of restitution 0 rolls at 5 m/s into a wall tile of the given
// restitution; its velocity along x 1 s later.
float rebound_from_wall(float restitution) {
  World world(WorldConfig{.gravity = {0, 0}});
  TileMapDef def;
  def.origin = {2, 1};
  def.rows = 2, def.cols = 1;
  def.tiles = {0, 0};
  Material wall;
  wall.restitution = restitution;
  def.materials = {{wall}};
  world.create_tile_map(def);
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{0.25f}}};
  ball.velocity = {5, 0};
  const BodyId id = world.create_body(ball);
  for (int i = 0; i < 60; ++i) world.step(1.0f / 60);
  return world.linear_velocity(id).x;
}
}  // namespace

// Restitution combines as the maximum, so the ball leaves at the wall's restitution x 5 m/s
// (the solver's restitution is exact to about 1 %).
TEST(TileMap, RaisedTilesBounceByTheirMaterial) {
  EXPECT_NEAR(rebound_from_wall(0.8f), -4.0f, 0.05f);
  EXPECT_NEAR(rebound_from_wall(0.5f), -2.5f, 0.03f);
  EXPECT_NEAR(rebound_from_wall(0.0f), 0.0f, 0.01f);
}

}  // namespace strut
