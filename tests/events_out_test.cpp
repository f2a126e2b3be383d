// `strut run --events-out` with a tile map: the map's body, which is not among the scene's
// bodies, is named "tile_maps[k]" (it was null), both in contact events and as a sensor's static
// visitor. Runs the real binary, as cli_test.cpp does.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "test_util.hpp"

namespace strut {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// A row of four rock tiles (top at y = 0); a ball lands on it and a sensor ball falls through.
constexpr const char* kScene = R"({"version": 2, "world": {"gravity": [0, -10], "dt": 0.02},
  "tile_maps": [{"origin": [-2, 0], "tile_size": 1, "materials": ["rock"], "rows": [[0, 0, 0, 0]]}],
  "bodies": [{"name": "ball", "shape": "circle", "center": [-1.5, 2], "radius": 0.25},
             {"name": "probe", "shape": "circle", "center": [1.5, 2], "radius": 0.25,
              "sensor": true}]})";

TEST(EventsOut, NamesATileMapsBodyByItsMap) {
  const fs::path dir = fs::path(::testing::TempDir()) / "strut_events_out_tile_map";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path scene = dir / "tiles.json", events = dir / "events.jsonl";
  std::ofstream(scene) << kScene;
  const std::string binary = std::string(STRUT_BINARY_DIR) + "/strut";
  ASSERT_EQ(test::exit_status(binary + " run '" + scene.string() +
                              "' --steps 60 --quiet --threads 1 >/dev/null --events-out '" +
                              events.string() + "'"),
            0);
  const std::string text = test::read_file(events);
  EXPECT_EQ(text.find("null"), std::string::npos) << text;
  int landed = 0, probe_in = 0, probe_out = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const json e = json::parse(line);
    for (const json& pair : e.at("begin")) {
      const bool ball_on_map = (pair[0] == "ball" && pair[1] == "tile_maps[0]") ||
                               (pair[1] == "ball" && pair[0] == "tile_maps[0]");
      EXPECT_TRUE(ball_on_map) << line;
      ++landed;
    }
    for (const json& pair : e.at("sensor_begin")) {
      EXPECT_EQ(pair, json::parse(R"(["probe", "tile_maps[0]"])")) << line;
      ++probe_in;
    }
    for (const json& pair : e.at("sensor_end")) {
      EXPECT_EQ(pair, json::parse(R"(["probe", "tile_maps[0]"])")) << line;
      ++probe_out;
    }
  }
  EXPECT_GE(landed, 1) << text;  // rock is a little bouncy: it may land twice
  // Free fall: the probe's bottom reaches the tiles' top at 0.66 s and its top leaves their
  // bottom at 0.89 s, both within the 1.2 s run.
  EXPECT_EQ(probe_in, 1) << text;
  EXPECT_EQ(probe_out, 1) << text;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace strut
