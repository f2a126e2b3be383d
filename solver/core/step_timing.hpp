// Where the stepping stands, and the profile's sums (part of the world's state,
// solver/world_state.hpp).
#pragma once

#include <cstdint>

#include "strut/world.hpp"

namespace strut {

// Where the stepping stands.
struct StepTiming {
  float last_h = 1.0f / 240.0f;  // substep length of the last step: implicit velocities use it
  int last_substeps = 0;  // substeps of the last step (World::body_contacts' impulses per step)
  std::uint64_t step_index = 0;
};

struct ProfileStore {
  StepProfile sum;  // sums; profile() divides
  mutable StepProfile mean;
};

}  // namespace strut
