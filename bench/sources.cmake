set(STRUT_BENCH_SOURCES
  bench/bench_main.cpp
  bench/bench_kernels.cpp
  bench/bench_scenes.cpp
  bench/scene_quality.cpp
  bench/bench_queries.cpp
  bench/bench_idle_bodies.cpp
)
