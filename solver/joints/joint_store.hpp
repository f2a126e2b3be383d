// Joints, their ids and user data, and how they are solved (part of the world's state,
// solver/world_state.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "solver/colouring/colouring.hpp"
#include "solver/core/id_pool.hpp"
#include "solver/joints/joint.hpp"

namespace strut {

// Joints, their ids and user data, and how they are solved.
struct JointStore {
  std::vector<Joint> dense;
  IdPool slots{"joint"};  // dense index into `dense`
  // User data by slot, with the generation it was set for (a reused slot reads 0).
  struct UserData {
    std::uint32_t generation = 0;
    std::uint64_t value = 0;
  };
  std::vector<UserData> user_data;
  // Live joints with a finite force or torque threshold: while 0, a step looks at no joint for
  // joint events (solver/joint_events.cpp).
  std::uint32_t threshold_count = 0;
  // Joint slots of each body slot, so destroying a body finds its joints without a scan of all
  // joints (rain destroys hundreds of ragdoll bones among 10,000 joints every few steps).
  std::vector<std::vector<std::uint32_t>> of_body;
  bool need_compaction = false;  // dead joints wait in `dense` until the next step
  // Counts the changes that the step's packing of the joint rows (colouring, trees, lanes:
  // prepare_point_motion) depends on: joints created, destroyed, enabled or edited; bodies
  // renumbered, given another mass or type, put to sleep or woken. While it and the movable flags
  // and substep length stay, the packing is kept from step to step.
  std::uint64_t version = 0;
  void mark_changed() { ++version; }
  Colouring colours;
  PointMotion point_motion;  // velocity passes of joint points (solver/joints/point_motion.hpp)
};

}  // namespace strut
