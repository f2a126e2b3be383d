// Sorting soft bodies into lane groups (strut_lanes.hpp) by topology.
#pragma once

#include <cstdint>

#include "solver/core/stores.hpp"

namespace strut {

// Rebuilds w.soft.lanes when bodies or struts changed since the last build (or the lane switch
// was flipped): the small soft bodies grouped kWideLanes to a group by topology, and the runs of
// struts left to the other paths. A no-op otherwise, so it may run every step.
void update_strut_lanes(Stores<ReadsBodies, ReadsParticles, WritesSoft> w);

}  // namespace strut
