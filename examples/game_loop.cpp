// A game loop: real frame times feed a FixedStepDriver, which runs whole 60 Hz steps; the
// renderer draws interpolated poses; contact events (read once per frame, accumulated over all
// the steps the frame ran) make sounds. Frame times here are made up (a game would measure them)
// so the program is deterministic.
#include <cmath>
#include <cstdio>
#include <strut/world.hpp>
#include <vector>

int main() {
  strut::World world;
  strut::BodyDef ground;
  ground.shapes = {strut::ShapeDef{strut::BoxShape{{50, 1}}}};
  ground.center = {0, -1};
  ground.is_static = true;
  world.create_body(ground);

  std::vector<strut::BodyId> balls;
  for (int i = 0; i < 3; ++i) {
    strut::BodyDef ball;
    ball.shapes = {strut::ShapeDef{.shape = strut::CircleShape{0.25f},
                                   .material = strut::material_named("rock")}};
    ball.center = {2.0f * i, 1.25f + 1.0f * i};  // bottoms 1, 2 and 3 m above the ground
    ball.user_data = std::uint64_t(i);           // the game's own handle: which ball
    balls.push_back(world.create_body(ball));
  }

  strut::FixedStepDriver driver(world, 1.0f / 60);
  const float frame_times[] = {1.0f / 144, 1.0f / 30, 1.0f / 75, 1.0f / 60, 1.0f / 20};
  int begins = 0, hits = 0;
  bool speeds_right = true;
  double time = 0;
  for (int frame = 0; frame < 300; ++frame) {
    const float elapsed = frame_times[frame % 5];
    time += elapsed;
    const float alpha = driver.advance(elapsed);  // 0 to 3 steps this frame

    // Render: each ball between its last two step poses.
    for (const strut::BodyId id : balls) {
      const strut::Transform pose = world.interpolated_transform(id, alpha);
      if (frame % 60 == 0)
        std::printf("frame %3d  ball %llu at (%.2f, %.2f)\n", frame,
                    (unsigned long long)world.user_data(id), pose.position.x, pose.position.y);
    }
    // Sounds: every impact since the last frame, however many steps it ran.
    begins += int(world.contact_begin_events().size());
    for (const strut::ContactHitEvent& hit : world.contact_hit_events()) {
      const strut::BodyId ball = hit.b;  // the ground was created first: it is `a`
      const double drop = 1.0 + double(world.user_data(ball));
      const double expected = std::sqrt(2 * 10 * drop);
      std::printf("t = %.2f s  ball %llu hits at %.2f m/s (free fall from %.0f m: %.2f)\n", time,
                  (unsigned long long)world.user_data(ball), hit.approach_speed, drop, expected);
      // The speed is the one before the impact step: within one step of gravity (0.17 m/s).
      speeds_right = speeds_right && std::fabs(hit.approach_speed - expected) < 10.0 / 60;
      ++hits;
    }
  }
  // Rocks bounce a little (restitution 0.1); each ball lands once at speed, so at least three
  // hits, and as many begins.
  const bool ok = hits >= 3 && begins >= 3 && speeds_right;
  std::printf("%d begin events, %d hit events: %s\n", begins, hits, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
