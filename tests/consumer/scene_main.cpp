// A program outside the strut tree that reads a scene file through strut::scene: a box dropped
// from 10 m for one second falls g t^2 / 2 = 4.9 m (within 0.1 m: the integrator's first-order
// error at 60 Hz is g t dt / 2 = 0.08 m).
#include <strut/scene.hpp>

#include <cstdio>

int main() {
  const strut::Scene scene = strut::parse_scene(
      R"({"format": "strut-scene", "version": 1, "world": {"gravity": [0, -9.8]},
          "bodies": [{"name": "box", "shape": "box", "center": [0, 10],
                      "half_extents": [0.5, 0.5]}]})",
      "consumer.json");
  strut::SceneInstance instance = strut::build_scene(scene, 1);
  for (int i = 0; i < 60; ++i) instance.world.step(1.0f / 60.0f);
  const float y = instance.world.transform(instance.bodies[0]).position.y;
  std::printf("scene box at y = %.3f\n", y);
  return (y > 5.0f && y < 5.2f) ? 0 : 1;
}
