// Joint events: after each step, the joints whose reaction force magnitude exceeded their
// force_threshold, or whose reaction torque magnitude exceeded their torque_threshold (Box2D
// v3's joint events), read as World::joint_reading reads them (the last substep's position
// impulses over h^2; welds and prismatic joints take the torque about their given anchor). A
// disabled joint, or one in a sleeping island, was not solved this step and makes none. The list
// accumulates until the program reads it, as the contact events do. Breaking a joint is the
// program's part: destroy_joint on its event.
//
// While no live joint has a finite threshold (JointStore::threshold_count), a step looks at
// no joint: joint_grid's 19,800 joints cost nothing here.
#include "solver/joint_events.hpp"

#include <cmath>
#include <utility>
#include <variant>

#include "solver/joints/joint_ops.hpp"

namespace strut {

void record_joint_events(WorldState& w) {
  if (w.events.read & EventStore::kJointList) w.events.joint.clear();
  w.events.read &= std::uint8_t(~EventStore::kJointList);
  if (w.joints.threshold_count == 0) return;
  for (const Joint& j : w.joints.dense) {
    if (j.dead || !j.enabled) continue;
    const std::uint32_t a = w.bodies.slots[j.slot_a].dense, b = w.bodies.slots[j.slot_b].dense;
    if ((w.bodies.flags[a] | w.bodies.flags[b]) & kSleeping) continue;
    const auto [force_threshold, torque_threshold] = std::visit(
        [](const auto& d) {
          return std::pair{d.force_threshold, d.torque_threshold};
        },
        j.def);
    if (!std::isfinite(force_threshold) && !std::isfinite(torque_threshold)) continue;
    const JointReading r = read_joint(w, j);
    if (length(r.force) > force_threshold || std::fabs(r.torque) > torque_threshold)
      w.events.joint.push_back({w.joints.slots.id_of<JointId>(j.slot), r.force, r.torque});
  }
}

std::span<const JointEvent> World::joint_events() const {
  state_->events.read |= EventStore::kJointList;
  return state_->events.joint;
}

}  // namespace strut
