// Scene format version 2 in a running world: compound bodies, capsules, rounded boxes, groups and
// sensors built from a file, captured back, and sensor events in `strut run --events-out`.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "strut/scene.hpp"
#include "test_util.hpp"

namespace strut {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr double kPi = 3.14159265358979323846;

SceneInstance build(const std::string& text) { return build_scene(parse_scene(text, "t.json"), 1); }

// A compound of a 2 x 0.5 m box of density 2 placed 0.5 m above the origin, a circle of radius
// 0.5 (density 1) 1 m to its right, and a massless sensor disc: 2 kg + pi/4 kg, the centre of
// mass between the first two.
constexpr const char* kCompound = R"({"version": 2,
  "materials": {"heavy": {"density": 2}},
  "world": {"gravity": [0, 0]},
  "bodies": [{"name": "cart", "center": [3, 4], "shapes": [
    {"shape": "box", "half_extents": [1, 0.25], "offset": [0, 0.5], "material": "heavy",
     "category": 2, "mask": 6, "group": -4},
    {"shape": "circle", "radius": 0.5, "offset": [1, 0]},
    {"shape": "circle", "radius": 0.2, "offset": [-1, 0], "material": "static", "sensor": true}]}]})";

TEST(SceneV2World, CompoundMassAndCentreComeFromAllItsShapes) {
  SceneInstance inst = build(kCompound);
  const BodyId cart = inst.bodies[0];
  const double box = 2.0 * 2 * 0.5, disc = kPi * 0.25;
  EXPECT_NEAR(inst.world.mass(cart), box + disc, 1e-5 * (box + disc));
  // The reported position is the centre of mass, in world coordinates.
  const Vec2 com = inst.world.transform(cart).position;
  EXPECT_NEAR(com.x, 3 + disc * 1 / (box + disc), 1e-5);
  EXPECT_NEAR(com.y, 4 + box * 0.5 / (box + disc), 1e-5);
  const BodyState state = inst.world.state(cart);
  ASSERT_EQ(state.shapes.size(), 3u);
  EXPECT_FALSE(state.shapes[0].sensor);
  EXPECT_FALSE(state.shapes[1].sensor);
  EXPECT_TRUE(state.shapes[2].sensor);
}

TEST(SceneV2World, CaptureWritesACompoundBodysShapesBack) {
  SceneInstance inst = build(kCompound);
  inst.world.set_angular_velocity(inst.bodies[0], 1.0f);
  for (int i = 0; i < 10; ++i) inst.step();
  const Scene saved = capture_scene(inst);
  const Scene loaded = parse_scene(kCompound, "t.json");
  ASSERT_EQ(saved.bodies.size(), 1u);
  const BodyDef& now = saved.bodies[0].def;
  const BodyDef& then = loaded.bodies[0].def;
  ASSERT_EQ(now.shapes.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    // Placement, material, filter and sensor flag are the shape's, in the body's frame: the
    // body turned, its shapes did not move on it.
    EXPECT_EQ(now.shapes[i].shape.index(), then.shapes[i].shape.index());
    EXPECT_EQ(now.shapes[i].offset, then.shapes[i].offset);
    EXPECT_EQ(now.shapes[i].angle, then.shapes[i].angle);
    EXPECT_EQ(now.shapes[i].material.density, then.shapes[i].material.density);
    EXPECT_EQ(now.shapes[i].filter.category, then.shapes[i].filter.category);
    EXPECT_EQ(now.shapes[i].filter.mask, then.shapes[i].filter.mask);
    EXPECT_EQ(now.shapes[i].filter.group, then.shapes[i].filter.group);
    EXPECT_EQ(now.shapes[i].sensor, then.shapes[i].sensor);
  }
  EXPECT_NEAR(now.angle, 10.0f / 60.0f, 1e-4f);
  // Saved and loaded again, it builds to the same mass and pose.
  SceneInstance again = build_scene(parse_scene(scene_to_json(saved), "saved.json"), 1);
  EXPECT_FLOAT_EQ(again.world.mass(again.bodies[0]), inst.world.mass(inst.bodies[0]));
  const Transform a = again.world.transform(again.bodies[0]);
  const Transform b = inst.world.transform(inst.bodies[0]);
  EXPECT_NEAR(a.position.x, b.position.x, 1e-5f);
  EXPECT_NEAR(a.position.y, b.position.y, 1e-5f);
  EXPECT_NEAR(a.angle, b.angle, 1e-5f);
}

// A capsule lying on the ground rests at its radius; a rounded box at half-extent + radius.
TEST(SceneV2World, CapsuleAndRoundedBoxRestAtTheirRadius) {
  SceneInstance inst = build(R"({"version": 2, "bodies": [
    {"shape": "segment", "center": [0, 0], "points": [[-20, 0], [20, 0]], "static": true},
    {"shape": "capsule", "center": [-5, 1], "half_length": 1, "radius": 0.25},
    {"shape": "box", "center": [5, 1], "half_extents": [0.5, 0.5], "radius": 0.1}]})");
  for (int i = 0; i < 180; ++i) inst.step();
  EXPECT_NEAR(inst.world.transform(inst.bodies[1]).position.y, 0.25f, 0.01f);
  EXPECT_NEAR(inst.world.transform(inst.bodies[2]).position.y, 0.6f, 0.01f);
}

// Groups from the file: the same negative group never collides (the ball falls through the
// floor), the same positive group always does, even with masks that exclude each other.
TEST(SceneV2World, GroupsDecideBeforeLayers) {
  auto ball_height = [](const char* group, const char* mask) {
    SceneInstance inst = build(std::string(R"({"version": 2, "bodies": [
      {"shape": "box", "center": [0, -1], "half_extents": [5, 1], "static": true, "group": )") +
                               group + R"(, "mask": )" + mask + R"(},
      {"shape": "circle", "center": [0, 1], "radius": 0.25, "group": )" +
                               group + R"(, "mask": )" + mask + "}]}");
    for (int i = 0; i < 120; ++i) inst.step();
    return inst.world.transform(inst.bodies[1]).position.y;
  };
  EXPECT_LT(ball_height("-1", "4294967295"), -5.0f);  // fell through
  EXPECT_NEAR(ball_height("1", "0"), 0.25f, 0.01f);   // rests on the floor
}

// Every kind of the format builds and runs with finite state.
TEST(SceneV2World, EveryShapeKindBuildsAndRuns) {
  SceneInstance inst = build(R"({"version": 2, "bodies": [
    {"shape": "chain", "center": [0, 0], "static": true, "loop": true,
     "points": [[-10, 0], [10, 0], [10, 10], [-10, 10]]},
    {"shape": "segment", "center": [0, 3], "points": [[-2, 0], [2, 0]], "kinematic": true,
     "velocity": [0.1, 0]},
    {"shape": "capsule", "center": [-3, 5], "half_length": 0.5, "radius": 0.25},
    {"shape": "polygon", "center": [3, 5], "vertices": [[0, 0], [1, 0], [0, 1]], "radius": 0.05},
    {"center": [0, 7], "shapes": [{"shape": "box", "half_extents": [1, 0.2]},
                                  {"shape": "circle", "radius": 0.3, "offset": [1, 0]},
                                  {"shape": "capsule", "half_length": 0.3, "radius": 0.1,
                                   "offset": [-1, 0], "angle": 1.5}]}]})");
  EXPECT_EQ(inst.world.state(inst.bodies[4]).shapes.size(), 3u);
  for (int i = 0; i < 240; ++i) inst.step();
  for (const BodyId id : inst.bodies) {
    const Transform t = inst.world.transform(id);
    EXPECT_TRUE(std::isfinite(t.position.x) && std::isfinite(t.position.y));
    // Nothing escapes the loop.
    EXPECT_GT(t.position.y, -0.5f);
    EXPECT_LT(std::fabs(t.position.x), 10.5f);
  }
}

// `strut run --events-out` with a sensor: a ball falls through a sensor zone on exactly the
// trajectory it has without the zone, and the file has exactly one sensor_begin and one
// sensor_end, the sensor's body first, at the steps free fall says, and no contact.
TEST(SceneV2World, SensorEventsInEventsOut) {
  const fs::path dir = fs::path(::testing::TempDir()) / "strut_scene_v2_sensor";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string ball =
      R"({"name": "ball", "shape": "circle", "center": [0, 8], "radius": 0.25})";
  const std::string zone =
      R"({"name": "zone", "shape": "box", "center": [0, 5], "half_extents": [2, 0.5],
          "static": true, "sensor": true})";
  auto run = [&](const std::string& name, const std::string& bodies) {
    const fs::path scene = dir / (name + ".json");
    std::ofstream(scene) << R"({"version": 2, "world": {"dt": 0.016666668}, "bodies": [)" + bodies +
                                "]}";
    const std::string command = std::string(STRUT_BINARY_DIR) + "/strut run " + scene.string() +
                                " --steps 120 --quiet --state-out " + (dir / name).string() +
                                ".state --events-out " + (dir / name).string() +
                                ".events >/dev/null";
    EXPECT_EQ(test::exit_status(command), 0) << command;
    return json::parse(test::read_file(dir / (name + ".state")));
  };
  const json with = run("with", zone + ", " + ball);
  const json without = run("without", ball);
  // Bit for bit the same fall (JSON numbers are written in their shortest exact form).
  EXPECT_EQ(with.at("bodies")[1].at("center"), without.at("bodies")[0].at("center"));
  EXPECT_EQ(with.at("bodies")[1].at("velocity"), without.at("bodies")[0].at("velocity"));

  std::vector<json> lines;
  std::istringstream in(test::read_file(dir / "with.events"));
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 2u);
  const json pair = json::parse(R"([["zone", "ball"]])");
  EXPECT_EQ(lines[0].at("sensor_begin"), pair);
  EXPECT_EQ(lines[0].at("sensor_end"), json::array());
  EXPECT_EQ(lines[1].at("sensor_end"), pair);
  EXPECT_EQ(lines[1].at("sensor_begin"), json::array());
  for (const json& l : lines) {
    EXPECT_EQ(l.at("begin"), json::array());
    EXPECT_EQ(l.at("end"), json::array());
  }
  // The ball (radius 0.25) overlaps the zone (y 4.5..5.5) while its centre is within 4.25..5.75:
  // from 8 - 5 t^2 = 5.75 (t = 0.671 s, step 40.2) to 4.25 (t = 0.866 s, step 52.0).
  EXPECT_NEAR(lines[0].at("step").get<int>(), 41, 2);
  EXPECT_NEAR(lines[1].at("step").get<int>(), 53, 2);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace strut
