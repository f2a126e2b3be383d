// A car on wheel joints: a chassis and two wheels, each wheel held by a wheel joint (a spring
// along a suspension axis, free to turn), the rear one driven by the joint's motor. The car
// starts on flat ground, drives right and climbs a gentle ramp. It prints the car's speed and
// checks that it matches the wheels' turning (rolling without slipping: speed = spin x radius).
#include <cmath>
#include <cstdio>
#include <strut/world.hpp>

int main() {
  strut::World world({.gravity = {0, -10}});

  // Ground: a chain (a static polyline), flat up to x = 12 m, then rising 1 m over 20 m. A chain
  // lets wheels roll across its joints as smoothly as along one long segment.
  strut::BodyDef ground;
  ground.shapes = {strut::ShapeDef{strut::ChainShape{{{-10, 0}, {12, 0}, {32, 1}, {60, 1}}}}};
  ground.is_static = true;
  world.create_body(ground);

  // Chassis: a 3 m x 0.5 m box. Wheels: circles of radius 0.4 m below its ends.
  const float radius = 0.4f;
  strut::BodyDef chassis;
  chassis.shapes = {strut::ShapeDef{strut::BoxShape{{1.5f, 0.25f}}}};
  chassis.center = {0, 1.0f};
  const strut::BodyId body = world.create_body(chassis);

  strut::BodyDef wheel;
  // Rubber on the road: enough grip to drive without spinning.
  wheel.shapes = {
      strut::ShapeDef{.shape = strut::CircleShape{radius}, .material = {.friction = 0.9f}}};
  wheel.center = {-1.0f, 0.45f};
  const strut::BodyId rear = world.create_body(wheel);
  wheel.center = {1.0f, 0.45f};
  const strut::BodyId front = world.create_body(wheel);

  // Each wheel joint lets its wheel spin freely and slide along the vertical axis against a
  // 5 Hz spring (the suspension). The rear motor turns its wheel clockwise (negative: angles
  // count counter-clockwise) at up to 8 rad/s with at most 50 N m, which drives the car right.
  const float motor_speed = -8.0f;
  strut::WheelJointDef suspension;
  suspension.a = body;
  suspension.axis = {0, 1};
  suspension.spring = {.enabled = true, .hertz = 5.0f, .damping_ratio = 0.7f};
  suspension.b = rear;
  suspension.anchor = {-1.0f, 0.45f};
  suspension.motor = {.enabled = true, .speed = motor_speed, .max_effort = 50.0f};
  world.create_joint(suspension);
  suspension.b = front;
  suspension.anchor = {1.0f, 0.45f};
  suspension.motor = {};  // the front wheel rolls freely
  world.create_joint(suspension);

  bool rolling = true;
  for (int step = 1; step <= 360; ++step) {  // 6 s at 60 Hz
    world.step(1.0f / 60);
    if (step % 60 != 0) continue;
    const strut::Vec2 v = world.linear_velocity(body);
    const float wheel_spin = world.angular_velocity(front);  // the free wheel just rolls
    std::printf("t = %.0f s  car at x = %5.2f m, speed %.2f m/s, front wheel %.2f rad/s\n",
                step / 60.0, world.transform(body).position.x, std::hypot(v.x, v.y), wheel_spin);
    // Once up to speed (after the first second) a wheel that rolls without slipping moves
    // its centre at -spin x radius; 5 % covers the suspension's bounce.
    if (step >= 120)
      rolling = rolling && std::fabs(v.x + wheel_spin * radius) < 0.05f * std::fabs(v.x);
  }
  // The motor's speed limit sets the top speed, 8 rad/s x 0.4 m = 3.2 m/s: in 6 s the car
  // cannot pass 6 x 3.2 = 19.2 m, and it must have driven onto the ramp (x > 12 m).
  const float x = world.transform(body).position.x;
  const bool ok = rolling && x > 12 && x < 19.2f;
  std::printf(ok ? "the car drives on its wheels\n" : "the car did not drive as expected\n");
  return ok ? 0 : 1;
}
