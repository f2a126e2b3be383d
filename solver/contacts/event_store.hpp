// Events, and what deciding them needs between steps (part of the world's state,
// solver/world_state.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "strut/world.hpp"

namespace strut {

// Events, and what deciding them needs between steps.
struct EventStore {
  // Each list accumulated since the program last read it (contact_events.cpp); `read` has a bit
  // per list read since the last step (List), whose list the next step starts afresh.
  std::vector<ContactEvent> begin, end;
  std::vector<ContactHitEvent> hit;
  std::vector<SensorEvent> sensor_begin, sensor_end;
  std::vector<JointEvent> joint;  // solver/joint_events.cpp
  enum List : std::uint8_t {
    kBeginList = 1,
    kEndList = 2,
    kHitList = 4,
    kSensorBeginList = 8,
    kSensorEndList = 16,
    kJointList = 32,
  };
  mutable std::uint8_t read = 0;
  // Touching pairs (collider slot keys and generations) whose island fell asleep (their contacts
  // are dropped while asleep): no end event then, and no begin event when they wake still
  // touching (contact_events.cpp).
  struct SleepingTouch {
    std::uint64_t key;
    std::uint32_t generation_a, generation_b;
  };
  std::vector<SleepingTouch> sleeping_touches;  // sorted by key
  // Bodies woken and collider slots retired so far, and its value when record_contact_events last
  // checked the sleeping touches. Only a wake or a retired slot can end or forget a touch while
  // the pairs stay as they were, so while the two agree a settled world skips the check.
  // ~0: never checked.
  std::uint64_t wakes_and_retires = 0, touches_checked_at = ~std::uint64_t(0);
  // (sensor shape slot << 32 | visitor shape slot) of the overlaps found last step, sorted.
  std::vector<std::uint64_t> sensor_overlaps;
  // End events of overlaps whose sensor or visitor was removed since the last step.
  std::vector<SensorEvent> removed_sensor_ends;
};

}  // namespace strut
