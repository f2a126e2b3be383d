// What bodies that do not move cost a step: 100 boxes falling onto a ground, alone and beside
// 100,000 idle boxes far away, static or created asleep. Box2D keeps sleeping bodies out of its
// awake set and static ones out of the solver, so they cost it nothing per step; the ratio of
// the idle worlds' steps to the bare one says what they cost here.
#include <benchmark/benchmark.h>

#include <vector>

#include "strut/world.hpp"

namespace strut {
namespace {

enum Idle : int { kNone = 0, kStatic = 1, kAsleep = 2 };

World idle_world(Idle idle, int count) {
  World w({.threads = 1});
  BodyDef ground;
  ground.shapes = {ShapeDef{BoxShape{{20, 1}}}};
  ground.center = {0, -1};
  ground.is_static = true;
  w.create_body(ground);
  for (int i = 0; i < 100; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{{0.4f, 0.4f}}}};
    d.center = {float(i % 20) - 9.5f, 1.0f + float(i / 20)};
    w.create_body(d);
  }
  for (int i = 0; idle != kNone && i < count; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{{0.4f, 0.4f}}}};
    d.center = {1000.0f + float(i % 316), float(i / 316)};  // 1 m apart: not touching
    d.is_static = idle == kStatic;
    d.awake = idle != kAsleep;
    w.create_body(d);
  }
  return w;
}

void BM_IdleBodies(benchmark::State& state) {
  World w = idle_world(Idle(state.range(0)), int(state.range(1)));
  for (int i = 0; i < 10; ++i) w.step(1.0f / 60.0f);  // the first steps build what is kept
  for (auto _ : state) w.step(1.0f / 60.0f);
  state.SetLabel(state.range(0) == kNone     ? "100 falling boxes alone"
                 : state.range(0) == kStatic ? "beside static boxes"
                                             : "beside sleeping boxes");
}
// The same worlds beside a kinematic box rising at 5 m/s far from everything: its box leaves
// the enlarged box it was swept with every other step, so the broad phase sweeps again.
void BM_IdleBodiesBesideAMover(benchmark::State& state) {
  World w = idle_world(Idle(state.range(0)), int(state.range(1)));
  BodyDef mover;
  mover.shapes = {ShapeDef{BoxShape{{0.5f, 0.5f}}}};
  mover.center = {-500, 50};
  mover.velocity = {0, 5};  // up, away from everything, however many steps the run takes
  mover.is_kinematic = true;
  w.create_body(mover);
  for (int i = 0; i < 10; ++i) w.step(1.0f / 60.0f);
  for (auto _ : state) w.step(1.0f / 60.0f);
}
BENCHMARK(BM_IdleBodiesBesideAMover)
    ->Args({kNone, 0})
    ->Args({kStatic, 100000})
    ->Args({kAsleep, 100000})
    ->Unit(benchmark::kMicrosecond);

// The same worlds while the program throws a ball in and destroys the oldest of them every
// step (a game's bullets): creating and destroying bodies among idle ones.
void BM_IdleBodiesWithChurn(benchmark::State& state) {
  World w = idle_world(Idle(state.range(0)), int(state.range(1)));
  std::vector<BodyId> balls;
  BodyDef ball;
  ball.shapes = {ShapeDef{CircleShape{0.1f}}};
  ball.center = {0, 10};
  ball.velocity = {3, 0};
  for (int i = 0; i < 10; ++i) w.step(1.0f / 60.0f);
  for (auto _ : state) {
    balls.push_back(w.create_body(ball));
    if (balls.size() > 20) {
      w.destroy_body(balls.front());
      balls.erase(balls.begin());
    }
    w.step(1.0f / 60.0f);
  }
}
BENCHMARK(BM_IdleBodiesWithChurn)
    ->Args({kNone, 0})
    ->Args({kStatic, 100000})
    ->Args({kAsleep, 100000})
    ->Unit(benchmark::kMicrosecond);

// 100,000 sleeping boxes resting on a ground, each its own island, while the program wakes one
// of them every step (a game's player brushing past): the woken box settles and sleeps again
// after sleep_time, so about 30 are awake at any step. Waking an island used to scan every body
// for its members.
void BM_IdleBodiesWokenOneAStep(benchmark::State& state) {
  World w({.threads = 1});
  const int count = int(state.range(0));
  const int columns = 1000;
  BodyDef ground;
  ground.shapes = {ShapeDef{BoxShape{{float(columns) / 2 + 1, 1}}}};
  ground.center = {float(columns) / 2, -1};
  ground.is_static = true;
  w.create_body(ground);
  std::vector<BodyId> bottom_row;
  for (int i = 0; i < count; ++i) {
    BodyDef d;
    d.shapes = {ShapeDef{BoxShape{{0.4f, 0.4f}}}};
    d.center = {float(i % columns), 0.4f + float(i / columns)};  // rows stacked 0.2 m apart
    d.awake = false;
    const BodyId id = w.create_body(d);
    if (i < columns) bottom_row.push_back(id);
  }
  for (int i = 0; i < 10; ++i) w.step(1.0f / 60.0f);
  std::size_t next = 0;
  for (auto _ : state) {
    w.wake(bottom_row[next]);
    next = (next + 1) % bottom_row.size();
    w.step(1.0f / 60.0f);
  }
}
BENCHMARK(BM_IdleBodiesWokenOneAStep)->Arg(1000)->Arg(100000)->Unit(benchmark::kMicrosecond);

BENCHMARK(BM_IdleBodies)
    ->Args({kNone, 0})
    ->Args({kStatic, 100000})
    ->Args({kAsleep, 100000})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace strut
