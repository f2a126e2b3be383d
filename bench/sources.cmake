set(STRUT_BENCH_SOURCES
  bench/bench_main.cpp
)
