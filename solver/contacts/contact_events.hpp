// Contact events: begin (with the manifold), end and hit, accumulated over the steps since the
// program last read them.
#pragma once

#include <cstdint>

#include "solver/core/stores.hpp"

namespace strut {

// Called at the end of a step, after the contacts are finished and particles synced. Clears the
// lists first if the program read them since the last step.
void record_contact_events(Stores<ReadsConfig, ReadsTiming, ReadsBodies, ReadsColliders,
                                  ReadsParticles, WritesContacts, WritesEvents, WritesScratch>
                               w);

}  // namespace strut
