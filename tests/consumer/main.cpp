// A program outside the strut tree: drops a box for one second and checks it fell.
#include <cstdio>
#include <strut/world.hpp>

int main() {
  strut::World world;
  strut::BodyDef def;
  def.shapes = {strut::ShapeDef{strut::BoxShape{}}};
  def.center = {0, 10};
  const strut::BodyId box = world.create_body(def);
  for (int i = 0; i < 60; ++i) world.step(1.0f / 60.0f);
  const float y = world.transform(box).position.y;
  std::printf("box at y = %.3f\n", y);
  return (y < 6.0f && y > 4.0f) ? 0 : 1;
}
