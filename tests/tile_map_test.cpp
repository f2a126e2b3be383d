// Tile maps: one call builds static tiles with their materials; seams never snag.
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace strut {

TEST(TileMap, CreatesOneStaticBodyPerSolidTileWithItsMaterial) {
  World world;
  const int tiles[] = {-1, 0, -1, 1, 1, 0};
  Material ice;
  ice.friction = 0.0f;
  ice.static_friction = 0.0f;
  const Material mats[] = {Material{}, ice};
  const auto ids = world.create_tile_map({0, 2}, 1.0f, 2, 3, tiles, mats);
  EXPECT_EQ(ids.size(), 4u);
  EXPECT_TRUE(world.state(ids[0]).is_static);
  EXPECT_NEAR(world.transform(ids[0]).position.x, 1.5f, 1e-6f);
  EXPECT_NEAR(world.transform(ids[0]).position.y, 1.5f, 1e-6f);
  EXPECT_EQ(test::error_of([&] {
              world.create_tile_map({0, 0}, 1.0f, 2, 3, std::span<const int>(tiles, 5), mats);
            }),
            "create_tile_map: tiles has 5 entries, expected rows x cols = 6");
  const int bad[] = {0, 2};
  EXPECT_EQ(test::error_of([&] {
              world.create_tile_map({0, 0}, 1.0f, 1, 2, bad, mats);
            }),
            "create_tile_map: tiles[1] = 2 names no material (2 given)");
}

namespace {
// A box sliding on a frictionless floor at 5 m/s for 3 s; returns its final speed and the
// largest height change. Built from 40 flush tiles or from one long box.
std::pair<float, float> slide_over(bool tiles) {
  World world(WorldConfig{.gravity = {0, -10}, .substeps = 4});
  Material ice;
  ice.friction = 0.0f;
  ice.static_friction = 0.0f;
  if (tiles) {
    std::vector<int> row(40, 0);
    world.create_tile_map({-5, 0}, 1.0f, 1, 40, row, std::span<const Material>(&ice, 1));
  } else {
    BodyDef floor;
    floor.shape = BoxShape{{20, 0.5f}};
    floor.center = {15, -0.5f};
    floor.is_static = true;
    floor.material = ice;
    world.create_body(floor);
  }
  BodyDef box = test::box_def({0, 0.25f}, {0.25f, 0.25f});
  box.material = ice;
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

}  // namespace strut
