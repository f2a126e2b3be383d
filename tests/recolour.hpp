// The reference the kept contact structure (colour_contacts.cpp) is compared against: a world
// that colours its contacts and lays out their lanes afresh in the coming step, as it does
// whenever its pairs change. Forgetting the colouring's bodies' version is what makes the step
// see the structure as changed; tests count structure_kept to show it did.
#pragma once

#include "solver/world_state.hpp"
#include "solver/world_state.hpp"

namespace strut::test {

inline void recolour_next_step(World& world) {
  StepScratch& s = state_of(world).scratch;
  s.coloured_moving_version = ~s.moving_version;
}

}  // namespace strut::test
