// Broad phase benchmarks: steady-state sweep and prune (incremental repair + find_pairs) vs
// an O(n^2) brute force, SIMD vs scalar kernel, 1 vs 2 threads, static tiles, teleports, and the
// canonical pair sort vs std::sort.
//
// Scene: n boxes of half-extent 0.5 (size 1) on a square of side sqrt(4n/3), so each box
// overlaps about 3 others (two boxes overlap when their centres are within 1 on both axes: an
// area of 4). Each step every box moves by its own velocity (|v| <= 0.05 per step, bouncing at
// the borders), written through the SoA spans as the world's AABB pass does.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "broadphase/pair.hpp"
#include "broadphase/pair_sort.hpp"
#include "broadphase/sweep_and_prune.hpp"
#include "solver/core/task_system.hpp"
#include "solver/simd/simd_dispatch.hpp"

namespace strut::broadphase {
namespace {

class MovingBoxes {
 public:
  explicit MovingBoxes(int n, std::uint32_t seed = 1) : rng_(seed) {
    side_ = std::sqrt(4.0f * static_cast<float>(n) / 3.0f);
    std::uniform_real_distribution<float> pos(0.0f, side_), vel(-0.05f, 0.05f);
    for (int i = 0; i < n; ++i) {
      cx_.push_back(pos(rng_));
      cy_.push_back(pos(rng_));
      vx_.push_back(vel(rng_));
      vy_.push_back(vel(rng_));
    }
  }

  std::size_t size() const { return cx_.size(); }
  float side() const { return side_; }
  Aabb box(std::size_t i) const {
    return {{cx_[i] - 0.5f, cy_[i] - 0.5f}, {cx_[i] + 0.5f, cy_[i] + 0.5f}};
  }

  void insert_into(SweepAndPrune& sap, std::uint32_t first_key = 0) const {
    for (std::size_t i = 0; i < size(); ++i)
      sap.insert(first_key + static_cast<std::uint32_t>(i), box(i), 1, ~0u, false);
  }

  // Advances every box one step and writes the boxes through the spans.
  void step(SweepAndPrune& sap, std::uint32_t first_key = 0) {
    advance();
    auto lx = sap.min_x(), ly = sap.min_y(), ux = sap.max_x(), uy = sap.max_y();
    for (std::size_t i = 0; i < size(); ++i) {
      const std::size_t k = first_key + i;
      lx[k] = cx_[i] - 0.5f;
      ly[k] = cy_[i] - 0.5f;
      ux[k] = cx_[i] + 0.5f;
      uy[k] = cy_[i] + 0.5f;
    }
  }

  // Teleports one box in `every` to a random place (then moves everything as usual).
  void teleport(int every) {
    std::uniform_real_distribution<float> pos(0.0f, side_);
    for (std::size_t i = 0; i < size(); i += static_cast<std::size_t>(every)) {
      cx_[i] = pos(rng_);
      cy_[i] = pos(rng_);
    }
  }

  std::vector<float> min_x, min_y, max_x, max_y;  // for the brute force

  void fill_arrays() {
    min_x.resize(size());
    min_y.resize(size());
    max_x.resize(size());
    max_y.resize(size());
    for (std::size_t i = 0; i < size(); ++i) {
      min_x[i] = cx_[i] - 0.5f, min_y[i] = cy_[i] - 0.5f;
      max_x[i] = cx_[i] + 0.5f, max_y[i] = cy_[i] + 0.5f;
    }
  }

  void advance() {
    for (std::size_t i = 0; i < size(); ++i) {
      cx_[i] += vx_[i];
      cy_[i] += vy_[i];
      if (cx_[i] < 0.0f || cx_[i] > side_) vx_[i] = -vx_[i];
      if (cy_[i] < 0.0f || cy_[i] > side_) vy_[i] = -vy_[i];
    }
  }

 private:
  std::mt19937 rng_;
  float side_ = 0.0f;
  std::vector<float> cx_, cy_, vx_, vy_;
};

// Steady state: warm up (first step sorts from scratch), then per iteration move every box
// (untimed: that is the world's AABB pass) and time the broad phase's repair + sweep + merge.
// The sweep's kernel is the SIMD level in use (STRUT_SIMD picks it), or `level` when given.
void run_steady(benchmark::State& state, int n, int threads,
                std::optional<SimdLevel> level = std::nullopt, int teleport_every = 0,
                bool sorted = false) {
  const SimdLevel in_use = simd_level();
  if (level) {
    if (!simd_level_runs(*level)) {
      state.SkipWithError("this CPU does not run the level");
      return;
    }
    set_simd_level(*level);
  }
  MovingBoxes boxes(n);
  SweepAndPrune sap;
  sap.set_sorted_output(sorted);
  boxes.insert_into(sap);
  TaskSystem tasks(threads);
  std::vector<Pair> pairs;
  for (int i = 0; i < 3; ++i) {
    boxes.step(sap);
    sap.find_pairs(pairs, tasks);
  }
  std::size_t total_pairs = 0, radix = 0;
  double order_ns = 0, gather_ns = 0, sweep_ns = 0, merge_ns = 0;
  for (auto _ : state) {
    state.PauseTiming();
    if (teleport_every > 0) boxes.teleport(teleport_every);
    boxes.step(sap);
    state.ResumeTiming();
    sap.find_pairs(pairs, tasks);
    benchmark::DoNotOptimize(pairs.data());
    total_pairs += pairs.size();
    const SweepAndPrune::Stats& st = sap.last_stats();
    radix += st.radix_sorted;
    order_ns += static_cast<double>(st.order_ns);
    gather_ns += static_cast<double>(st.gather_ns);
    sweep_ns += static_cast<double>(st.sweep_ns);
    merge_ns += static_cast<double>(st.merge_ns);
  }
  const double iters = static_cast<double>(state.iterations());
  // Phase split (microseconds per step) from SweepAndPrune::Stats.
  state.counters["order_us"] = order_ns / iters / 1e3;
  state.counters["gather_us"] = gather_ns / iters / 1e3;
  state.counters["sweep_us"] = sweep_ns / iters / 1e3;
  state.counters["merge_us"] = merge_ns / iters / 1e3;
  state.counters["pairs"] = static_cast<double>(total_pairs) / iters;
  state.counters["pairs_per_box"] = static_cast<double>(total_pairs) / iters / n;
  state.counters["radix_steps"] = static_cast<double>(radix) / iters;
  state.counters["axis"] = sap.sweep_axis();
  set_simd_level(in_use);
}

// The machine is shared: with --benchmark_repetitions=N, "_min" is the figure to compare.
double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

void BM_SweepAndPrune(benchmark::State& state) {
  run_steady(state, static_cast<int>(state.range(0)), 1);
}
BENCHMARK(BM_SweepAndPrune)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->ComputeStatistics("min", min_of)
    ->Unit(benchmark::kMicrosecond);

// 8-float (AVX2) batches, for machines without AVX-512 (same as BM_SweepAndPrune there).
void BM_SweepAndPrune_Simd8(benchmark::State& state) {
  run_steady(state, static_cast<int>(state.range(0)), 1, SimdLevel::Avx2);
}
BENCHMARK(BM_SweepAndPrune_Simd8)
    ->Arg(10000)
    ->ComputeStatistics("min", min_of)
    ->Unit(benchmark::kMicrosecond);

void BM_SweepAndPrune_Scalar(benchmark::State& state) {
  run_steady(state, static_cast<int>(state.range(0)), 1, SimdLevel::Scalar);
}
BENCHMARK(BM_SweepAndPrune_Scalar)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->ComputeStatistics("min", min_of)
    ->Unit(benchmark::kMicrosecond);

// Output sorted by (a, b) instead of the canonical sweep order.
void BM_SweepAndPrune_Sorted(benchmark::State& state) {
  run_steady(state, static_cast<int>(state.range(0)), 1, std::nullopt, 0, true);
}
BENCHMARK(BM_SweepAndPrune_Sorted)
    ->Arg(10000)
    ->ComputeStatistics("min", min_of)
    ->Unit(benchmark::kMicrosecond);

// range(1) = threads. Real time: CPU time of the calling thread would hide the workers.
void BM_SweepAndPrune_Threads(benchmark::State& state) {
  run_steady(state, static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
}
BENCHMARK(BM_SweepAndPrune_Threads)
    ->Args({10000, 1})
    ->Args({10000, 2})
    ->Args({100000, 1})
    ->Args({100000, 2})
    ->ComputeStatistics("min", min_of)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// 1 box in 100 teleports every step: the insertion-sort budget decides repair vs radix.
void BM_SweepAndPrune_Teleport(benchmark::State& state) {
  run_steady(state, static_cast<int>(state.range(0)), 1, std::nullopt, 100);
}
BENCHMARK(BM_SweepAndPrune_Teleport)
    ->Arg(10000)
    ->ComputeStatistics("min", min_of)
    ->Unit(benchmark::kMicrosecond);

// range(0) moving boxes and a block of 100k static unit tiles (1000 x 100) under them. With
// range(1) = 0 the block lies 10 units below the moving boxes (nothing moves near a tile:
// the statics should cost nothing); with 1 its top row touches the bottom of the moving area.
// Compare with BM_SweepAndPrune/10000.
void BM_SweepAndPrune_StaticTiles(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const float top = state.range(1) == 0 ? -10.0f : 0.5f;
  MovingBoxes boxes(n);
  SweepAndPrune sap;
  boxes.insert_into(sap);
  auto key = static_cast<std::uint32_t>(n);
  for (int i = 0; i < 1000; ++i)
    for (int j = 0; j < 100; ++j) {
      const float x = float(i) - 400.0f, y = top - float(j + 1);
      sap.insert(key++, {{x, y}, {x + 1.0f, y + 1.0f}}, 1, ~0u, true);
    }
  TaskSystem tasks(1);
  std::vector<Pair> pairs;
  for (int i = 0; i < 3; ++i) {
    boxes.step(sap);
    sap.find_pairs(pairs, tasks);
  }
  for (auto _ : state) {
    state.PauseTiming();
    boxes.step(sap);
    state.ResumeTiming();
    sap.find_pairs(pairs, tasks);
    benchmark::DoNotOptimize(pairs.data());
  }
  state.counters["statics"] = static_cast<double>(sap.last_stats().statics);
  state.counters["pairs"] = static_cast<double>(pairs.size());
}
BENCHMARK(BM_SweepAndPrune_StaticTiles)
    ->Args({10000, 0})
    ->Args({10000, 1})
    ->ComputeStatistics("min", min_of)
    ->Unit(benchmark::kMicrosecond);

// The O(n^2) reference on the same scene (layer test included, as in the sweep).
void BM_BruteForcePairs(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  MovingBoxes boxes(n);
  boxes.fill_arrays();
  std::vector<std::uint32_t> category(static_cast<std::size_t>(n), 1u),
      mask(static_cast<std::size_t>(n), ~0u);
  std::vector<Pair> pairs;
  for (auto _ : state) {
    pairs.clear();
    const float* lx = boxes.min_x.data();
    const float* ly = boxes.min_y.data();
    const float* ux = boxes.max_x.data();
    const float* uy = boxes.max_y.data();
    for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(n); ++i) {
      for (std::uint32_t j = i + 1; j < static_cast<std::uint32_t>(n); ++j) {
        if (lx[j] <= ux[i] && lx[i] <= ux[j] && ly[j] <= uy[i] && ly[i] <= uy[j] &&
            (category[i] & mask[j]) != 0 && (category[j] & mask[i]) != 0)
          pairs.push_back({i, j});
      }
    }
    benchmark::DoNotOptimize(pairs.data());
  }
  state.counters["pairs"] = static_cast<double>(pairs.size());
}
// 100k: 5e9 box tests (several seconds) per iteration, so a single iteration.
BENCHMARK(BM_BruteForcePairs)
    ->Arg(1000)
    ->Arg(10000)
    ->ComputeStatistics("min", min_of)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BruteForcePairs)->Arg(100000)->Iterations(1)->Unit(benchmark::kMillisecond);

// The canonical-order merge on the pair lists of a 10k-box step, vs std::sort of the
// concatenation (the obvious alternative).
std::vector<std::vector<Pair>> chunked_pairs(int n) {
  MovingBoxes boxes(n);
  SweepAndPrune sap;
  boxes.insert_into(sap);
  TaskSystem tasks(1);
  std::vector<Pair> pairs;
  sap.find_pairs(pairs, tasks);
  // Scramble into 20 chunks in sweep-like (unsorted) order.
  std::mt19937 rng(3);
  std::shuffle(pairs.begin(), pairs.end(), rng);
  std::vector<std::vector<Pair>> chunks(20);
  for (std::size_t i = 0; i < pairs.size(); ++i) chunks[i % 20].push_back(pairs[i]);
  return chunks;
}

void BM_SortPairs_Bucket(benchmark::State& state) {
  const auto chunks = chunked_pairs(static_cast<int>(state.range(0)));
  PairSorter sorter;
  std::vector<Pair> out;
  for (auto _ : state) {
    sorter.sort(chunks, static_cast<std::uint32_t>(state.range(0)), out);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["pairs"] = static_cast<double>(out.size());
}
BENCHMARK(BM_SortPairs_Bucket)->Arg(10000)->Unit(benchmark::kMicrosecond);

void BM_SortPairs_StdSort(benchmark::State& state) {
  const auto chunks = chunked_pairs(static_cast<int>(state.range(0)));
  std::vector<Pair> out;
  for (auto _ : state) {
    out.clear();
    for (const auto& c : chunks) out.insert(out.end(), c.begin(), c.end());
    std::sort(out.begin(), out.end());
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["pairs"] = static_cast<double>(out.size());
}
BENCHMARK(BM_SortPairs_StdSort)->Arg(10000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace strut::broadphase
