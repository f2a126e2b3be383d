// Stacking scenes: one big pyramid, many small ones, and a wall smashed by a heavy box.
#include "tools/scene/builtin_parts.hpp"

namespace strut::builtin {

Scene large_pyramid(float size) {
  const int base = scaled_side(100, size);
  Scene s =
      benchmark_scene("large_pyramid",
                      "Box2D benchmark 'large_pyramid': a pyramid of " +
                          std::to_string(base * (base + 1) / 2) + " unit boxes with a base of " +
                          std::to_string(base) + " on a static ground box. Sleeping disabled.",
                      500);
  s.config.enable_sleep = false;
  const float ground_half = std::max(100.0f, 0.5f * base + 10.0f);
  s.bodies.push_back(box({0, -1}, {ground_half, 1}, true));
  s.bodies.back().name = "ground";
  add_pyramid(s, base, 0.5f, 0.0f, 0.0f);
  return s;
}

Scene many_pyramids(float size) {
  const int rows = scaled_side(20, size), columns = rows;
  const int base = 10;
  const float extent = 0.5f;
  const float delta_y = 2 * extent * (base + 1);  // 11 m between grounds
  const float ground_width = 2 * extent * columns * (base + 1);
  Scene s = benchmark_scene("many_pyramids",
                            "Box2D benchmark 'many_pyramids': " + std::to_string(rows * columns) +
                                " pyramids of base 10 in " + std::to_string(rows) + " rows on " +
                                std::to_string(rows) +
                                " ground segments of one static body. Sleeping disabled.",
                            200);
  s.config.enable_sleep = false;
  SceneBody ground;
  ground.name = "ground";
  ground.def.is_static = true;
  for (int i = 0; i < rows; ++i) {
    ShapeDef segment;
    const float y = float(i) * delta_y;
    segment.shape = SegmentShape{{-0.5f * ground_width, y}, {0.5f * ground_width, y}};
    ground.def.shapes.push_back(segment);
  }
  s.bodies.push_back(ground);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) {
      const float center_x = -0.5f * ground_width + j * delta_y + 0.5f * delta_y;
      add_pyramid(s, base, extent, center_x, i * delta_y);
    }
  }
  return s;
}

Scene smash(float size) {
  const int columns = scaled_side(120, size), rows = scaled_side(80, size);
  Scene s = benchmark_scene(
      "smash",
      "Box2D benchmark 'smash': no gravity; an 8 x 8 box of density 8 at 40 m/s into a wall of " +
          std::to_string(columns) + " x " + std::to_string(rows) +
          " boxes of 0.4 m, created asleep (as Box2D does).",
      300);
  s.config.gravity = {0, 0};
  s.materials.emplace_back("smasher", Material{8.0f, 0.6f, 0.6f, 0.0f});
  SceneBody smasher = box({-20, 0}, {4, 4});
  smasher.name = "smasher";
  smasher.def.velocity = {40, 0};
  smasher.def.shapes[0].material = s.materials.back().second;
  s.bodies.push_back(smasher);
  const float d = 0.4f;
  for (int i = 0; i < columns; ++i)
    for (int j = 0; j < rows; ++j) {
      SceneBody brick = box({i * d + 30.0f, (j - rows / 2.0f) * d}, {0.5f * d, 0.5f * d});
      brick.def.awake = false;
      s.bodies.push_back(brick);
    }
  return s;
}

}  // namespace strut::builtin
