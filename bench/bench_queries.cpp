// World queries on a world of 100,000 bodies (a 316 x 316 grid of boxes and circles of 0.2 to
// 0.5 m at 1 m spacing, plus a 200 m ground): each query answers from the query index
// (solver/query/query_index.hpp). BM_QueryIndexBuild is the rebuild the first query after a step
// pays.
#include <benchmark/benchmark.h>

#include <random>

#include "strut/world.hpp"

namespace strut {
namespace {

World& grid_world() {
  static World world = [] {
    World w({.threads = 1});
    BodyDef ground;
    ground.shapes = {ShapeDef{BoxShape{{200, 1}}}};
    ground.center = {158, -2};
    ground.is_static = true;
    w.create_body(ground);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> size(0.2f, 0.5f);
    for (int i = 0; i < 99999; ++i) {
      BodyDef d;
      d.shapes = {ShapeDef{BoxShape{}}};
      if (i % 2)
        d.shapes[0].shape = CircleShape{size(rng)};
      else
        d.shapes[0].shape = BoxShape{{size(rng), size(rng)}};
      d.center = {float(i % 316), float(i / 316)};
      w.create_body(d);
    }
    w.query_aabb(Aabb{{0, 0}, {1, 1}});  // builds the index once
    return w;
  }();
  return world;
}

Vec2 random_point(std::mt19937& rng) {
  std::uniform_real_distribution<float> c(0, 316);
  return {c(rng), c(rng)};
}

void BM_QueryAabb(benchmark::State& state) {
  World& w = grid_world();
  std::mt19937 rng(1);
  std::size_t found = 0;
  for (auto _ : state) {
    const Vec2 p = random_point(rng);
    found += w.query_aabb(Aabb{p, p + Vec2{2, 2}}).size();  // about 9 bodies
  }
  state.counters["bodies_per_query"] = double(found) / double(state.iterations());
}
BENCHMARK(BM_QueryAabb)->Unit(benchmark::kMicrosecond);

void BM_QueryPoint(benchmark::State& state) {
  World& w = grid_world();
  std::mt19937 rng(2);
  for (auto _ : state) benchmark::DoNotOptimize(w.query_point(random_point(rng)));
}
BENCHMARK(BM_QueryPoint)->Unit(benchmark::kMicrosecond);

void BM_RayCastClosest(benchmark::State& state) {
  World& w = grid_world();
  std::mt19937 rng(3);
  for (auto _ : state) {
    const Vec2 p = random_point(rng);
    benchmark::DoNotOptimize(w.ray_cast(p, p + Vec2{3, 4}));  // a 5 m ray
  }
}
BENCHMARK(BM_RayCastClosest)->Unit(benchmark::kMicrosecond);

void BM_ShapeOverlap(benchmark::State& state) {
  World& w = grid_world();
  std::mt19937 rng(4);
  std::size_t found = 0;
  for (auto _ : state)
    found += w.overlap_shape(BoxShape{{1, 0.5f}}, {random_point(rng), 0.3f}).size();
  state.counters["shapes_per_query"] = double(found) / double(state.iterations());
}
BENCHMARK(BM_ShapeOverlap)->Unit(benchmark::kMicrosecond);

// A 0.3 m circle and a box cast 5 m through the grid: each stops at the first shape it meets.
void BM_ShapeCast(benchmark::State& state) {
  World& w = grid_world();
  std::mt19937 rng(6);
  const Shape shape =
      state.range(0) == 0 ? Shape{CircleShape{0.3f}} : Shape{BoxShape{{0.3f, 0.2f}}};
  std::size_t hits = 0;
  for (auto _ : state) hits += w.cast_shape(shape, {random_point(rng), 0.5f}, {3, 4}).has_value();
  state.counters["hit_fraction"] = double(hits) / double(state.iterations());
}
BENCHMARK(BM_ShapeCast)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_QueryIndexBuild(benchmark::State& state) {
  World& w = grid_world();
  for (auto _ : state) {
    // A teleport invalidates the index; the query rebuilds it.
    const BodyId first = w.bodies()[1];
    w.set_transform(first, {0, 0}, 0);
    benchmark::DoNotOptimize(w.query_point({0, 0}));
  }
}
BENCHMARK(BM_QueryIndexBuild)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace strut
