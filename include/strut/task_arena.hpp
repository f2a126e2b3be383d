// Running strut inside an embedding program's own oneTBB arena, so the program keeps control of
// its threads. Only this header names TBB; the rest of the API does not.
#pragma once

#include <tbb/task_arena.h>

#include "strut/world.hpp"

namespace strut {

// The config with its parallel phases bound to `arena` (not owned; it must outlive the World).
inline WorldConfig in_arena(WorldConfig config, tbb::task_arena& arena) {
  config.external_arena = &arena;
  return config;
}

}  // namespace strut
