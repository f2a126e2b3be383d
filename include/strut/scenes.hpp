// The built-in scenes: Box2D v3's benchmark scenes rebuilt for strut (README, Benchmarks),
// plus a particle pour and a cloth. Shared by the `strut` program, the tests and the benchmarks;
// each is also committed as scenes/<name>.json (generated from this code).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "strut/scene.hpp"

namespace strut {

// The scene `strut run` runs when given none.
inline constexpr std::string_view kDefaultSceneName = "large_pyramid";

// Names of the built-in scenes, in a fixed order.
std::vector<std::string> builtin_scene_names();
bool is_builtin_scene(std::string_view name);
// The scene `name` (throws strut::Error if there is none). `size` multiplies the number of
// bodies (approximately: pyramids, grids and walls keep their shape, so counts are rounded);
// 1 is the benchmark configuration.
Scene builtin_scene(std::string_view name, float size = 1.0f);

}  // namespace strut
