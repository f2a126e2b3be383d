// Pieces of the step pipeline shared between world_step.cpp and the API in world.cpp.
#pragma once

#include <cstdint>

#include "solver/core/stores.hpp"
#include "solver/step/integrate.hpp"

namespace strut {

void rebuild_ignored_pairs(Stores<ReadsJoints, WritesPairs> w);
// Rigid bodies' particles follow their pose; soft bodies get a best-fit pose.
void sync_particles(Stores<RunsTasks, WritesBodies, WritesParticles, ReadsScratch> w);
void fit_soft_pose(Stores<WritesBodies, WritesParticles> w, std::uint32_t body);
// Puts fast bodies whose centre crossed a surface this step back in front of it.
void continuous_pass(Stores<ReadsConfig, RunsTasks, WritesBodies, ReadsColliders, ReadsParticles,
                            ReadsPairs, ReadsContacts, ReadsCallbacks, WritesQueries, WritesScratch>
                         w);

}  // namespace strut
