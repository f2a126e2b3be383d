// Sensor overlap events (sensor_events.cpp), accumulated like the contact events.
#pragma once

#include "solver/core/stores.hpp"
#include "solver/world_state.hpp"

namespace strut {

// Called at the end of a step, after the particles are synced and before the contact events
// (each clears the read bits of its own lists).
void record_sensor_events(
    Stores<ReadsBodies, ReadsColliders, ReadsParticles, ReadsPairs, WritesEvents> w);

// Ends every overlap that shape slot `shape` (a sensor or a visitor) takes part in, for a shape
// about to be removed or whose body is about to be destroyed (call it while the shape's and its
// body's ids are still valid). The end events are reported with the next step's events.
void end_sensor_overlaps_of(WorldState& w, std::uint32_t shape);

}  // namespace strut
