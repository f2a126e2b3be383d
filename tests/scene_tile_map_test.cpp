// Tile maps in scene files (version 2, `tile_maps`): read, written back bit for bit, built into
// one static body plus floors, and every bad input rejected with file, JSON path and problem.
#include <gtest/gtest.h>

#include <string>

#include "strut/scene.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

// A walled top-down room: rock walls (0), sand (1) and ice (2) floors, one empty tile (-1).
const char* const kRoom = R"({"version": 2,
  "world": {"gravity": [0, 0]},
  "materials": {"sand": {"friction": 0.5}, "ice": {"friction": 0.05}},
  "tile_maps": [{"origin": [-3, 2], "tile_size": 0.5, "floor_stop_speed": 0.02,
    "materials": ["rock", {"material": "sand", "floor": true}, {"material": "ice", "floor": true}],
    "rows": [[0, 0, 0, 0, 0, 0],
             [0, 1, 2, 2, 1, 0],
             [0, 1, -1, 2, 1, 0],
             [0, 0, 0, 0, 0, 0]]}],
  "bodies": [{"name": "puck", "shape": "circle", "center": [-2.25, 1.25], "radius": 0.1,
              "velocity": [2, 0]}]})";

// A version-2 scene whose only tile map has the given members (without braces).
std::string with_tile_map(const std::string& members) {
  return R"({"version": 2, "materials": {"sand": {"friction": 0.5}}, "tile_maps": [{)" + members +
         "}]}";
}

std::string error_of_scene(const std::string& json) {
  return test::error_of([&] { parse_scene(json, "map.json"); });
}

}  // namespace

TEST(SceneTileMap, ReadsTheGridMaterialsAndFloors) {
  const Scene s = parse_scene(kRoom, "room.json");
  ASSERT_EQ(s.tile_maps.size(), 1u);
  const TileMapDef& t = s.tile_maps[0];
  EXPECT_EQ(t.origin, (Vec2{-3, 2}));
  EXPECT_EQ(t.tile_size, 0.5f);
  EXPECT_EQ(t.rows, 4);
  EXPECT_EQ(t.cols, 6);
  ASSERT_EQ(t.tiles.size(), 24u);
  EXPECT_EQ(t.tiles[8], 2);  // rows[1][2]: ice
  EXPECT_EQ(t.tiles[14], -1);
  ASSERT_EQ(t.materials.size(), 3u);
  EXPECT_FALSE(t.materials[0].floor);
  EXPECT_EQ(t.materials[0].material.restitution, material_named("rock").restitution);
  EXPECT_TRUE(t.materials[1].floor);
  EXPECT_EQ(t.materials[1].material.friction, 0.5f);
  EXPECT_EQ(t.materials[2].material.friction, 0.05f);
  EXPECT_EQ(t.floor_gravity, 10.0f);
  EXPECT_EQ(t.floor_stop_speed, 0.02f);
}

TEST(SceneTileMap, TilesWithColsReadAsRows) {
  const Scene a =
      parse_scene(with_tile_map(R"("origin": [0, 0], "tile_size": 1, "materials": ["rock"],
                       "rows": [[0, -1, 0], [-1, 0, -1]])"),
                  "a.json");
  const Scene b =
      parse_scene(with_tile_map(R"("origin": [0, 0], "tile_size": 1, "materials": ["rock"],
                       "tiles": [0, -1, 0, -1, 0, -1], "cols": 3)"),
                  "b.json");
  EXPECT_EQ(a.tile_maps[0].tiles, b.tile_maps[0].tiles);
  EXPECT_EQ(b.tile_maps[0].rows, 2);
  EXPECT_EQ(b.tile_maps[0].cols, 3);
  EXPECT_EQ(scene_to_json(a), scene_to_json(b));
}

// Read, write, read, write: the same text; and the world built from it captures to it again.
TEST(SceneTileMap, SurvivesWriteAndReadBitForBit) {
  const Scene first = parse_scene(kRoom, "room.json");
  const std::string text = scene_to_json(first);
  EXPECT_NE(text.find("\"version\": 2"), std::string::npos);
  EXPECT_NE(text.find("\"tile_maps\""), std::string::npos);
  const Scene second = parse_scene(text, "again.json");
  EXPECT_EQ(scene_to_json(second), text);
  const TileMapDef &a = first.tile_maps[0], &b = second.tile_maps[0];
  EXPECT_EQ(test::bits(a.origin.x), test::bits(b.origin.x));
  EXPECT_EQ(test::bits(a.origin.y), test::bits(b.origin.y));
  EXPECT_EQ(test::bits(a.tile_size), test::bits(b.tile_size));
  EXPECT_EQ(test::bits(a.floor_stop_speed), test::bits(b.floor_stop_speed));
  EXPECT_EQ(a.tiles, b.tiles);
  for (std::size_t i = 0; i < a.materials.size(); ++i) {
    EXPECT_EQ(a.materials[i].floor, b.materials[i].floor);
    EXPECT_EQ(a.materials[i].material.friction, b.materials[i].material.friction);
  }
  SceneInstance inst = build_scene(second, 1);
  for (int i = 0; i < 30; ++i) inst.step();
  Scene captured = capture_scene(inst);
  captured.bodies.clear();  // the puck moved; the map must not have
  Scene expected = second;
  expected.bodies.clear();
  EXPECT_EQ(scene_to_json(captured), scene_to_json(expected));
}

// The room builds into one static body of the 16 rock tiles (not listed among the scene's
// bodies) and floors: the puck slides over sand, ice and sand, and stops.
TEST(SceneTileMap, BuildsOneStaticBodyAndFloorsThatStopAPuck) {
  SceneInstance inst = build_scene(parse_scene(kRoom, "room.json"), 1);
  ASSERT_EQ(inst.tile_map_parts.size(), 1u);
  const TileMap& map = inst.tile_map_parts[0];
  EXPECT_EQ(inst.world.shapes(map.body).size(), 16u);
  EXPECT_EQ(inst.world.body_count(), 2u);
  EXPECT_EQ(inst.bodies.size(), 1u);
  const BodyId puck = inst.bodies[0];
  for (int i = 0; i < 300; ++i) inst.step();
  EXPECT_EQ(inst.world.linear_velocity(puck).x, 0.0f);
  // From 2 m/s: 0.25 m of sand (v^2 = 4 - 2 x 5 x 0.25 = 1.5), 1 m of ice (v^2 = 1.5 - 2 x 0.5 =
  // 0.5), then sand again for v^2 / (2 x 5) = 0.05 m: it stops at x = -0.95 (within 5 cm: the
  // floor under it is looked up once per step).
  EXPECT_NEAR(inst.world.transform(puck).position.x, -0.95f, 0.05f);
}

TEST(SceneTileMap, BadInputIsRejectedWithFileJsonPathAndProblem) {
  const std::string base = R"("origin": [0, 0], "tile_size": 1, )";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"version": 1, "tile_maps": []})",
       "map.json: tile_maps: unknown key (tile maps need \"version\": 2)"},
      {with_tile_map(base + R"("materials": ["mud"], "rows": [[0]])"),
       "map.json: tile_maps[0].materials[0]: unknown material \"mud\""},
      {with_tile_map(base + R"("materials": [{"material": "mud", "floor": true}], "rows": [[0]])"),
       "map.json: tile_maps[0].materials[0].material: unknown material \"mud\""},
      {with_tile_map(base + R"("materials": [{"material": "sand", "floor": 1}], "rows": [[0]])"),
       "map.json: tile_maps[0].materials[0].floor: expected true or false, got 1"},
      {with_tile_map(base + R"("materials": [{"material": "sand", "flor": true}], "rows": [[0]])"),
       "map.json: tile_maps[0].materials[0].flor: unknown key"},
      {with_tile_map(base + R"("materials": [], "rows": [[0]])"),
       "map.json: tile_maps[0].materials: must not be empty"},
      {with_tile_map(base + R"("materials": ["rock"], "rows": [[0, 0], [0]])"),
       "map.json: tile_maps[0].rows[1]: has 1 tiles, rows[0] has 2 (rows must be equally long)"},
      {with_tile_map(base + R"("materials": ["rock"], "rows": [])"),
       "map.json: tile_maps[0].rows: must not be empty"},
      {with_tile_map(base + R"("materials": ["rock"], "rows": [[0, 1]])"),
       "map.json: tile_maps[0].rows[0][1]: 1 names no material (1 in materials)"},
      {with_tile_map(base + R"("materials": ["rock"], "rows": [[0, -2]])"),
       "map.json: tile_maps[0].rows[0][1]: -2 is neither -1 (empty) nor a material index"},
      {with_tile_map(base + R"("materials": ["rock"], "rows": [[0, 0.5]])"),
       "map.json: tile_maps[0].rows[0][1]: expected an integer, got 0.5"},
      {with_tile_map(base + R"("materials": ["rock"], "rows": [[0]], "tiles": [0])"),
       "map.json: tile_maps[0].tiles: give either rows or tiles with cols, not both"},
      {with_tile_map(base + R"("materials": ["rock"])"),
       "map.json: tile_maps[0]: missing key \"rows\" (or \"tiles\" with \"cols\")"},
      {with_tile_map(base + R"("materials": ["rock"], "tiles": [0, 0, 0])"),
       "map.json: tile_maps[0]: missing key \"cols\""},
      {with_tile_map(base + R"("materials": ["rock"], "tiles": [0, 0, 0], "cols": 2)"),
       "map.json: tile_maps[0].tiles: has 3 tiles, not a multiple of cols (2)"},
      {with_tile_map(base + R"("materials": ["rock"], "tiles": [0], "cols": 0)"),
       "map.json: tile_maps[0].cols: must be positive, got 0"},
      {with_tile_map(R"("origin": [0, 0], "tile_size": 0, "materials": ["rock"], "rows": [[0]])"),
       "map.json: tile_maps[0].tile_size: 0 is outside [0.002, 200000] (strut/limits.hpp)"},
      {with_tile_map(R"("origin": [0, 0], "tile_size": -1, "materials": ["rock"], "rows": [[0]])"),
       "map.json: tile_maps[0].tile_size: -1 is outside [0.002, 200000] (strut/limits.hpp)"},
      {with_tile_map(
           R"("origin": [0, 0], "tile_size": 1e39, "materials": ["rock"], "rows": [[0]])"),
       "map.json: tile_maps[0].tile_size: number 1e+39 is too large for a float"},
      {with_tile_map(R"("origin": [0, "x"], "tile_size": 1, "materials": ["rock"], "rows": [[0]])"),
       "map.json: tile_maps[0].origin[1]: expected a number, got \"x\""},
      {with_tile_map(R"("origin": [9999999, 0], "tile_size": 1, "materials": ["rock"],
                        "rows": [[0, 0]])"),
       "map.json: tile_maps[0].origin: the map reaches beyond the coordinate limit of 4000 m "
       "(strut/limits.hpp)"},
      {with_tile_map(base + R"("materials": ["rock"], "rows": [[0]], "floor_gravity": -10)"),
       "map.json: tile_maps[0].floor_gravity: -10 is outside [0, 10000] (strut/limits.hpp)"},
      {with_tile_map(base + R"("materials": ["rock"], "rows": [[0]], "floor_stop_speed": -1)"),
       "map.json: tile_maps[0].floor_stop_speed: -1 is outside [0, 10000] (strut/limits.hpp)"},
      {with_tile_map(base + R"("materials": ["rock"], "rows": [[0]], "size": 1)"),
       "map.json: tile_maps[0].size: unknown key"},
      {R"({"version": 2, "tile_maps": {}})",
       "map.json: tile_maps: expected an array, got an object"},
  };
  for (const auto& [json, message] : cases) EXPECT_EQ(error_of_scene(json), message) << json;
}

}  // namespace strut
