// What a step costs when the world is small: the cost that does not grow with the bodies decides
// there (stage set-up, bookkeeping, passes over nothing). One world stepped on one thread: empty,
// one falling box, a cart-pole (two bodies, two joints, no contacts), the lander and the pile of
// 30 boxes of ../shared/smallworlds (tools/worlds/small_worlds.hpp), the pile from its drop
// until it sleeps and once asleep. Then a batch of 1,024 landers (strut/world_batch.hpp) at 1 and
// 2 threads: world-steps per second, to set beside the smallworlds probe's Box2D figure. And what
// World::copy costs, beside a step.
#include <benchmark/benchmark.h>

#include <vector>

#include "strut/scenes.hpp"
#include "strut/world_batch.hpp"
#include "tools/worlds/small_worlds.hpp"

namespace strut {
namespace {

constexpr float kDt = 1.0f / 60.0f;

World one_thread_world() { return World(WorldConfig{.threads = 1}); }

void BM_SmallWorldEmpty(benchmark::State& state) {
  World w = one_thread_world();
  for (auto _ : state) w.step(kDt);
}

void BM_SmallWorldOneBody(benchmark::State& state) {
  World w = one_thread_world();
  BodyDef box;
  box.shapes = {ShapeDef{BoxShape{{0.5f, 0.5f}}}};
  box.enable_sleep = false;  // falls for as long as the benchmark runs
  w.create_body(box);
  for (auto _ : state) w.step(kDt);
}

void BM_SmallWorldCartPole(benchmark::State& state) {
  World w = one_thread_world();
  const worlds::CartPole c = worlds::build_cart_pole(w);
  int step = 0;
  for (auto _ : state) {
    w.apply_force(c.cart, {(step++ / 20) % 2 == 0 ? 5.0f : -5.0f, 0});  // keeps it awake
    w.step(kDt);
  }
}

void BM_SmallWorldLander(benchmark::State& state) {
  World w = one_thread_world();
  const worlds::Lander l = worlds::build_lander(w, 0);
  int step = 0;
  for (auto _ : state) {
    w.apply_force(l.hull, worlds::lander_thrust(step++));
    w.step(kDt);
  }
}

// The first 300 steps of a fresh pile (it lands, settles and falls asleep), per step.
void BM_SmallWorldPile30(benchmark::State& state) {
  constexpr int kSteps = 300;
  for (auto _ : state) {
    state.PauseTiming();
    World w = one_thread_world();
    worlds::build_pile30(w, 0);
    state.ResumeTiming();
    for (int s = 0; s < kSteps; ++s) w.step(kDt);
  }
  state.SetItemsProcessed(state.iterations() * kSteps);  // items: steps
}

void BM_SmallWorldPile30Asleep(benchmark::State& state) {
  World w = one_thread_world();
  worlds::build_pile30(w, 0);
  for (int s = 0; s < 600; ++s) w.step(kDt);
  for (auto _ : state) w.step(kDt);
}

// 1,024 landers stepped by a batch on range(0) threads, the engines' thrust as one array call.
void BM_WorldBatchLanders(benchmark::State& state) {
  constexpr int kWorlds = 1024;
  WorldBatch batch(int(state.range(0)));
  worlds::Lander l{};
  for (int i = 0; i < kWorlds; ++i) {
    World w = one_thread_world();
    l = worlds::build_lander(w, i);
    batch.add(std::move(w));
  }
  const BodyId hull[] = {l.hull};
  std::vector<Vec2> thrust(kWorlds);
  int step = 0;
  for (auto _ : state) {
    std::fill(thrust.begin(), thrust.end(), worlds::lander_thrust(step++));
    batch.apply_forces(hull, thrust);
    batch.step(kDt);
  }
  state.counters["world_steps_per_s"] =
      benchmark::Counter(double(state.iterations()) * kWorlds, benchmark::Counter::kIsRate);
}

// World::copy of a running world (a reset or a branch), beside a step of the same world.
void BM_WorldCopyLander(benchmark::State& state) {
  World w = one_thread_world();
  worlds::build_lander(w, 0);
  for (int s = 0; s < 60; ++s) w.step(kDt);
  for (auto _ : state) benchmark::DoNotOptimize(w.copy());
}

// World::restore of a saved lander into a running one (a learning environment's reset).
void BM_WorldRestoreLander(benchmark::State& state) {
  World w = one_thread_world();
  worlds::build_lander(w, 0);
  for (int s = 0; s < 60; ++s) w.step(kDt);
  const World saved = w.copy();
  for (auto _ : state) {
    w.restore(saved);
    benchmark::ClobberMemory();
  }
}

void BM_WorldCopyLargePyramid(benchmark::State& state) {
  SceneInstance s = build_scene(builtin_scene("large_pyramid"), 1);
  for (int k = 0; k < 60; ++k) s.step();
  for (auto _ : state) benchmark::DoNotOptimize(s.world.copy());
}

// World::snapshot to bytes and World::from_snapshot back (save, then load into a new world), and
// restore(bytes) into a running world; the bytes' size as a counter.
template <class Build>
void snapshot_round_trip(benchmark::State& state, Build&& build, bool into_running) {
  World w = build();
  const std::vector<std::uint8_t> first = w.snapshot();
  for (auto _ : state) {
    const std::vector<std::uint8_t> bytes = w.snapshot();
    if (into_running)
      w.restore(bytes);
    else
      benchmark::DoNotOptimize(World::from_snapshot(bytes, 1));
  }
  state.counters["bytes"] = double(first.size());
}
World running_lander() {
  World w = one_thread_world();
  worlds::build_lander(w, 0);
  for (int s = 0; s < 60; ++s) w.step(kDt);
  return w;
}
World running_large_pyramid() {
  SceneInstance s = build_scene(builtin_scene("large_pyramid"), 1);
  for (int k = 0; k < 60; ++k) s.step();
  return std::move(s.world);
}
void BM_SnapshotLander(benchmark::State& state) {
  snapshot_round_trip(state, running_lander, false);
}
void BM_SnapshotRestoreLander(benchmark::State& state) {
  snapshot_round_trip(state, running_lander, true);
}
void BM_SnapshotLargePyramid(benchmark::State& state) {
  snapshot_round_trip(state, running_large_pyramid, false);
}

void BM_StepLargePyramid(benchmark::State& state) {
  SceneInstance s = build_scene(builtin_scene("large_pyramid"), 1);
  for (int k = 0; k < 60; ++k) s.step();
  for (auto _ : state) s.step();
}

}  // namespace

BENCHMARK(BM_WorldCopyLander);
BENCHMARK(BM_WorldRestoreLander);
BENCHMARK(BM_WorldCopyLargePyramid)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SnapshotLander);
BENCHMARK(BM_SnapshotRestoreLander);
BENCHMARK(BM_SnapshotLargePyramid)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_StepLargePyramid)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SmallWorldEmpty);
BENCHMARK(BM_SmallWorldOneBody);
BENCHMARK(BM_SmallWorldCartPole);
BENCHMARK(BM_SmallWorldLander);
BENCHMARK(BM_SmallWorldPile30)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SmallWorldPile30Asleep);
BENCHMARK(BM_WorldBatchLanders)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace strut
