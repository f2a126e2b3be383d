# Broad phase module: sources, tests, benchmarks (paths relative to the project root).
set(STRUT_BROADPHASE_SOURCES
  broadphase/radix_sort.cpp
  broadphase/static_set.cpp
  broadphase/sweep_and_prune.cpp
)
set(STRUT_BROADPHASE_TESTS
  tests/broadphase_test.cpp
)
set(STRUT_BROADPHASE_BENCH
  bench/bench_broadphase.cpp
)
