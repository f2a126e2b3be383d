// Whole-scene benchmarks: every built-in scene run for its Box2D step count at 1 and 2 threads.
// As Box2D's benchmark program does, the first step (the most expensive: every pair is new) runs
// untimed and steps 2..N are timed, so the two programs' figures measure the same steps. Each run
// reports ms per step, the final state hash (as two exact 32-bit counters), so every timing
// carries its determinism check, and the quality figures of the final state (quality.hpp).
// STRUT_BENCH_STEPS=N shortens every run to N steps (CI smoke runs).
// Names: BM_Scene/<scene>/threads:<T>.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "bench/scene_quality.hpp"
#include "strut/scenes.hpp"

namespace strut {
namespace {

int steps_for(const Scene& scene) {
  if (const char* env = std::getenv("STRUT_BENCH_STEPS")) {
    const int n = std::atoi(env);
    if (n > 0) return n;
  }
  return scene.steps;
}

// Steps a scene instance `steps` times; returns the wall time per step in ms of steps 2..N (the
// first runs untimed, as in Box2D's benchmark).
double ms_per_step_of(SceneInstance& inst, int steps) {
  inst.step();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 1; i < steps; ++i) inst.step();
  const auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(stop - start).count() / std::max(1, steps - 1);
}

void BM_Scene(benchmark::State& state, const std::string& name, int threads) {
  const Scene scene = builtin_scene(name);
  const int steps = steps_for(scene);
  double ms_per_step = 0;
  std::uint64_t hash = 0;
  std::size_t bodies = 0;
  SceneQuality quality;
  for (auto _ : state) {
    state.PauseTiming();
    SceneInstance inst = build_scene(scene, threads);
    const QualityStart start = quality_start(inst);
    state.ResumeTiming();
    ms_per_step = ms_per_step_of(inst, steps);
    hash = inst.world.state_hash();
    bodies = inst.world.body_count();
    state.PauseTiming();
    quality = measure_quality(inst, start);
    state.ResumeTiming();
    state.PauseTiming();  // the world's destruction is not part of the run
    { SceneInstance gone = std::move(inst); }
    state.ResumeTiming();
  }
  state.counters["ms_per_step"] = ms_per_step;
  state.counters["steps"] = steps;
  state.counters["bodies"] = double(bodies);
  state.counters["max_drop"] = quality.max_drop;
  state.counters["max_overlap"] = quality.max_overlap;
  state.counters["lead_x"] = quality.lead_x;
  // A double holds 53 bits exactly: the 64-bit hash goes in two halves.
  state.counters["hash_hi"] = double(hash >> 32);
  state.counters["hash_lo"] = double(hash & 0xFFFFFFFFu);
  char label[32];
  std::snprintf(label, sizeof label, "hash=%016llx", static_cast<unsigned long long>(hash));
  state.SetLabel(label);
}

// What 2 threads could at best give on this machine: two independent worlds of the scene, one
// thread each, run at the same time on their own threads. Each thread's ms/step against a lone
// 1-thread run shows what the cores lose by running together (shared caches, memory bandwidth,
// the host): with no such loss the two would each run as fast as one alone, and 2 threads in one
// world could at best reach 2 x (1-thread ms/step) / (this ms/step). Names:
// BM_SceneTwoWorlds/<scene>; ms_per_step is the mean of the two.
void BM_SceneTwoWorlds(benchmark::State& state, const std::string& name) {
  const Scene scene = builtin_scene(name);
  const int steps = steps_for(scene);
  double ms[2] = {0, 0};
  for (auto _ : state) {
    state.PauseTiming();
    SceneInstance a = build_scene(scene, 1), b = build_scene(scene, 1);
    state.ResumeTiming();
    std::thread other([&] { ms[1] = ms_per_step_of(b, steps); });
    ms[0] = ms_per_step_of(a, steps);
    other.join();
    state.PauseTiming();
    { SceneInstance gone_a = std::move(a), gone_b = std::move(b); }
    state.ResumeTiming();
  }
  state.counters["ms_per_step"] = 0.5 * (ms[0] + ms[1]);
  state.counters["steps"] = steps;
}

// Registered at start-up, one benchmark per scene and thread count; whole runs take seconds,
// so one iteration each (repeat with --benchmark_repetitions).
const bool kRegistered = [] {
  for (const std::string& name : builtin_scene_names()) {
    for (const int threads : {1, 2}) {
      benchmark::RegisterBenchmark(
          ("BM_Scene/" + name + "/threads:" + std::to_string(threads)).c_str(),
          [name, threads](benchmark::State& s) { BM_Scene(s, name, threads); })
          ->Iterations(1)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond)
          ->ComputeStatistics("min", [](const std::vector<double>& v) {
            return *std::min_element(v.begin(), v.end());
          });
    }
  }
  for (const std::string name : {"large_pyramid", "rain"})
    benchmark::RegisterBenchmark(("BM_SceneTwoWorlds/" + name).c_str(),
                                 [name](benchmark::State& s) { BM_SceneTwoWorlds(s, name); })
        ->Iterations(1)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
}  // namespace strut
