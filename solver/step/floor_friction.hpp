// The floor friction stage of the step (world_step.cpp): tile maps' floor tiles slowing the
// bodies over them (strut/tile_map.hpp).
#pragma once

#include <cstdint>

#include "solver/core/stores.hpp"

namespace strut {

// Once per step, after prepare_forces and before the contacts are prepared (which read the
// motion). Reads: the floor grids, poses (centre of mass), masses, inertia, motion and the
// step's accelerations. Writes: the accelerations and motion of the awake dynamic rigid bodies
// whose centre of mass is over a floor tile (the first map's in creation order where maps
// overlap). Soft bodies are not slowed. Without floor tiles it returns at once.
void apply_floor_friction(
    Stores<RunsTasks, ReadsTiming, WritesBodies, ReadsColliders, WritesScratch> w, float dt);

}  // namespace strut
