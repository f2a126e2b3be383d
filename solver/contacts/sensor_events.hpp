// Sensor overlap events (sensor_events.cpp), accumulated like the contact events.
#pragma once

#include "solver/world_impl.hpp"

namespace strut {

// Called at the end of a step, after the particles are synced and before the contact events
// (which clear events_read).
void record_sensor_events(World::Impl& w);

}  // namespace strut
