// Hello world: a crate dropped onto the ground. Build against strut (find_package(strut), link
// strut::strut) and run; it prints the crate's height as it falls and settles.
#include <cmath>
#include <cstdio>
#include <strut/world.hpp>

int main() {
  strut::World world({.gravity = {0, -10}});

  strut::BodyDef ground;  // a static box 100 m wide whose top is at y = 0
  ground.shapes = {strut::ShapeDef{strut::BoxShape{{50, 1}}}};
  ground.center = {0, -1};
  ground.is_static = true;
  world.create_body(ground);

  strut::BodyDef crate;  // a 1 m wooden crate, 4 m up, tilted a little
  crate.shapes = {strut::ShapeDef{.shape = strut::BoxShape{{0.5f, 0.5f}},
                                  .material = strut::material_named("wood")}};
  crate.center = {0, 4};
  crate.angle = 0.3f;
  const strut::BodyId id = world.create_body(crate);

  for (int step = 0; step <= 180; ++step) {  // 3 s at 60 Hz
    if (step % 30 == 0) {
      const strut::Transform t = world.transform(id);
      std::printf("t = %.1f s  crate at (%.3f, %.3f), angle %.3f, %s\n", step / 60.0, t.position.x,
                  t.position.y, t.angle, world.is_sleeping(id) ? "asleep" : "awake");
    }
    world.step(1.0f / 60);
  }
  // It must rest flat on the ground: centre 0.5 m up (within 1 cm), on a face (angle a multiple
  // of pi/2 within 0.01 rad). The test suite runs this program and reads its exit status.
  const strut::Transform t = world.transform(id);
  const float off_face = std::remainder(t.angle, 3.14159265f / 2);
  const bool resting = std::fabs(t.position.y - 0.5f) < 0.01f && std::fabs(off_face) < 0.01f;
  std::printf(resting ? "the crate rests on the ground\n" : "the crate did not settle\n");
  return resting ? 0 : 1;
}
