// Joint events (joint_events.cpp): joints whose reaction passed their thresholds in a step.
#pragma once

#include "solver/world_state.hpp"

namespace strut {

// Called at the end of a step, after the substeps and before sleeping islands wake: lists the
// joints whose reaction of the step's last substep exceeded a threshold. Clears the list first
// if the program read it since the last step.
void record_joint_events(WorldState& w);

}  // namespace strut
