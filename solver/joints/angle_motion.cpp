// Motor and limit rows of the velocity passes (angle_motion.hpp). Units as in point_motion.cpp.
#include "solver/joints/angle_motion.hpp"

#include <algorithm>

#include "solver/joints/joint_rows.hpp"

namespace strut {
namespace {

// Changes the bodies' turn over the substep by the angle row's impulse dl (fixed bodies are
// never written: a colour's joints may share them).
inline void push_angle(World::Impl& w, const AngleMotion& e, float dl) {
  if (e.ia != 0) w.bodies.da[e.a] -= e.ia * dl;
  if (e.ib != 0) w.bodies.da[e.b] += e.ib * dl;
}

}  // namespace

void add_angle_motion(const World::Impl& w, std::vector<AngleMotion>& out, std::uint32_t k,
                      const AngleRows& r, float h2) {
  if (!r.motor && !r.limit) return;
  const Joint& j = w.joints[k];
  AngleMotion& e = out.emplace_back();
  e.a = w.slots[j.slot_a].dense, e.b = w.slots[j.slot_b].dense;
  e.joint = k;
  e.ia = w.bodies.inv_inertia[e.a], e.ib = w.bodies.inv_inertia[e.b];
  e.inv_k = e.ia + e.ib > 0 ? 1.0f / (e.ia + e.ib) : 0.0f;
  e.motor = r.motor, e.limit = r.limit;
  e.motor_shift = r.motor_shift, e.motor_bound = r.motor_bound;
  e.lower = r.lower, e.upper = r.upper;
  e.reference = r.reference;
  // A setter may have lowered the motor's effort or turned a row off since the last step.
  e.impulse[0] = r.motor ? std::clamp(h2 * j.carried_angle[0], -r.motor_bound, r.motor_bound) : 0;
  e.impulse[1] = r.limit ? std::max(h2 * j.carried_angle[1], 0.0f) : 0.0f;
  e.impulse[2] = r.limit ? std::min(h2 * j.carried_angle[2], 0.0f) : 0.0f;
}

void refresh_angle_motion(World::Impl& w, std::span<AngleMotion> rows, bool warm_start) {
  for (AngleMotion& e : rows) {
    if (e.limit) {
      const float angle = joint_angle(w, JointBodies{.a = e.a, .b = e.b}, e.reference);
      e.slack_lower = std::max(angle - e.lower, 0.0f);
      e.slack_upper = std::max(e.upper - angle, 0.0f);
    }
    if (warm_start) push_angle(w, e, e.impulse[0] + e.impulse[1] + e.impulse[2]);
  }
}

void solve_angle_motion(World::Impl& w, std::span<AngleMotion> rows) {
  const float* da = w.bodies.da.data();
  for (AngleMotion& e : rows) {
    // Drives the relative turn over the substep toward `target`, the impulse kept in [lo, hi].
    auto row = [&](float& impulse, float target, float lo_bound, float hi_bound) {
      const float motion = da[e.b] - da[e.a];
      const float next = std::clamp(impulse - (motion - target) * e.inv_k, lo_bound, hi_bound);
      push_angle(w, e, next - impulse);
      impulse = next;
    };
    if (e.motor) row(e.impulse[0], e.motor_shift, -e.motor_bound, e.motor_bound);
    if (e.limit) {
      row(e.impulse[1], -e.slack_lower, 0.0f, kUnbounded);
      row(e.impulse[2], e.slack_upper, -kUnbounded, 0.0f);
    }
  }
}

void finish_angle_motion(World::Impl& w, std::span<const AngleMotion> rows, float h) {
  const float inv_h2 = 1.0f / (h * h);
  w.tasks.parallel_for(int(rows.size()), 512, [&](int lo, int hi, int) {
    for (int k = lo; k < hi; ++k) {
      const AngleMotion& e = rows[std::size_t(k)];
      Joint& j = w.joints[e.joint];
      for (int r = 0; r < 3; ++r) j.carried_angle[r] = inv_h2 * e.impulse[r];
      j.motor_impulse = e.impulse[0];
      j.reaction_torque += (e.impulse[0] + e.impulse[1]) + e.impulse[2];
    }
  });
}

}  // namespace strut
