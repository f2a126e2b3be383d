// Velocity passes of rigid joint rows (row_motion.hpp). Units as in point_motion.cpp: motion is
// per substep (d = v h), so an impulse here is a position impulse (N s^2; N m s^2 for an angle
// row) and the force it stands for is the impulse / h^2.
#include "solver/joints/row_motion.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"
#include "solver/joints/joint_ops.hpp"
#include "solver/joints/joint_rows.hpp"
#include "solver/joints/joint_store.hpp"

namespace strut {
namespace {

// Changes the bodies' motion (not their poses) by the impulses dl[i] along rows[i].
void push_motion(WorldState& w, const JointBodies& q, const Row* rows, const float* dl, int count) {
  const auto [p, ta, tb] = sum_rows(rows, dl, count);
  auto& b = w.bodies;
  // Fixed bodies are never written: a colour's joints may share them.
  if (q.ma != 0 || q.ia != 0) {
    b.dx[q.a] -= q.ma * p.x, b.dy[q.a] -= q.ma * p.y;
    b.da[q.a] += q.ia * ta;
  }
  if (q.mb != 0 || q.ib != 0) {
    b.dx[q.b] += q.mb * p.x, b.dy[q.b] += q.mb * p.y;
    b.da[q.b] += q.ib * tb;
  }
}

// The rows at the poses now and the inverse of their mass matrix K (0 where K is singular: both
// bodies fixed along the rows). K is inverted in double, as solve_block solves it.
RowSpring refresh(const WorldState& w, RigidRows& e) {
  const Joint& j = w.joints.dense[e.joint];
  RowSpring spring;
  e.count = joint_ops(j.type).rigid_rows(w, j, e.q, e.rows, spring);
  e.spring_c = spring.c;
  const int n = e.count;
  double k[3][3] = {};
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      k[r][c] = double(e.q.ma + e.q.mb) * dot(e.rows[r].n, e.rows[c].n) +
                double(e.q.ia) * e.rows[r].ang_a * e.rows[c].ang_a +
                double(e.q.ib) * e.rows[r].ang_b * e.rows[c].ang_b;
  // Rows whose K is singular, or so ill-conditioned that float motion makes its inverse's
  // products meaningless, are dropped (inverse 0): a joint created 200 km apart and teleported
  // together (a fuzzed input) had a condition number of 1e12, and its passes drove the motion to
  // 1e33 and then inf x 0 = NaN. Beyond 1 / float epsilon the rows carry no usable information.
  double inverse[3][3] = {};
  bool usable = true;
  for (int c = 0; usable && c < n; ++c) {
    double unit[3] = {}, column[3] = {};
    unit[c] = 1;
    usable = solve_small(n, k, unit, column);
    for (int r = 0; r < n; ++r) inverse[r][c] = column[r];
  }
  double norm_k = 0, norm_inverse = 0;
  for (int r = 0; usable && r < n; ++r) {
    double row_k = 0, row_inverse = 0;
    for (int c = 0; c < n; ++c)
      row_k += std::fabs(k[r][c]), row_inverse += std::fabs(inverse[r][c]);
    norm_k = std::max(norm_k, row_k), norm_inverse = std::max(norm_inverse, row_inverse);
  }
  constexpr double kMaxCondition = 1.0 / 1.1920929e-7;  // 1 / float epsilon
  usable = usable && std::isfinite(norm_inverse) && norm_k * norm_inverse < kMaxCondition;
  for (int r = 0; r < kMaxRigidRows; ++r)
    for (int c = 0; c < kMaxRigidRows; ++c)
      e.inv_k[r][c] = usable && r < n && c < n ? float(inverse[r][c]) : 0.0f;
  return spring;
}

// One pass of a row held by a spring: the implicit spring-damper over the substep. With the
// row's value c at the substep's start, its motion d (so c + d at its end), its effective mass m
// and the impulse carried so far l, the impulse the spring gives over the substep is
// l = -m ((omega h)^2 (c + d) + 2 zeta omega h d); the step dl that makes it hold once d has
// moved by dl / m is dl = -(l + m (a (c + d) + b d)) / (1 + a + b). Returns how far dl moves
// the row (its pass's share of the convergence test).
float solve_sprung_row(WorldState& w, RigidRows& e) {
  const float inv_mass = e.inv_k[0][0] > 0 ? 1.0f / e.inv_k[0][0] : 0.0f;
  if (!(inv_mass > 0)) return 0.0f;
  const float d = row_motion(w, e.q, e.rows[0]);
  const float dl =
      -(e.impulse[0] + e.inv_k[0][0] * (e.spring_a * (e.spring_c + d) + e.spring_b * d)) /
      (1.0f + e.spring_a + e.spring_b);
  e.impulse[0] += dl;
  push_motion(w, e.q, e.rows, &dl, 1);
  return std::abs(dl * inv_mass);
}

}  // namespace

bool add_rigid_rows(WorldState& w, std::uint32_t k, float h) {
  const Joint& j = w.joints.dense[k];
  if (!joint_ops(j.type).rigid_rows || !j.enabled) return false;
  const std::uint32_t a = w.bodies.slots[j.slot_a].dense, b = w.bodies.slots[j.slot_b].dense;
  if ((w.bodies.flags[a] | w.bodies.flags[b]) & kSleeping) return false;
  if (!w.bodies.is_rigid(a) || !w.bodies.is_rigid(b)) return false;
  auto& rigid = w.joints.point_motion.rigid;
  RigidRows& e = rigid.emplace_back();
  e.q = joint_bodies(w, a, b);
  e.joint = k;
  const RowSpring spring = refresh(w, e);
  if (e.count == 0) {
    rigid.pop_back();
    return false;
  }
  if (spring.hertz > 0) {
    const float omega_h = 2.0f * std::numbers::pi_v<float> * spring.hertz * h;
    e.spring_a = omega_h * omega_h;
    e.spring_b = 2.0f * spring.damping_ratio * omega_h;
  }
  // Which rows a joint holds rigidly is fixed at its creation (no setter changes a weld's
  // hertz), so the carried forces line up with the rows.
  load_rigid_impulses(j, e, h);
  return true;
}

void load_rigid_impulses(const Joint& j, RigidRows& e, float h) {
  for (int i = 0; i < kMaxRigidRows; ++i) e.impulse[i] = h * h * j.carried_rows[i];
}

void refresh_rigid_rows(WorldState& w, std::uint32_t lo, std::uint32_t hi, bool warm_start) {
  for (std::uint32_t i = lo; i < hi; ++i) {
    RigidRows& e = w.joints.point_motion.rigid[i];
    refresh(w, e);
    if (warm_start) push_motion(w, e.q, e.rows, e.impulse, e.count);
  }
}

float solve_rigid_rows(WorldState& w, std::uint32_t lo, std::uint32_t hi, bool relax) {
  float largest = 0.0f;
  for (std::uint32_t k = lo; k < hi; ++k) {
    RigidRows& e = w.joints.point_motion.rigid[k];
    if (e.sprung()) {
      // The relax passes remove what the projection added; a spring has no projection.
      if (!relax) largest = std::max(largest, solve_sprung_row(w, e));
      continue;
    }
    const int n = e.count;
    float motion[kMaxRigidRows], dl[kMaxRigidRows];
    for (int r = 0; r < n; ++r) {
      motion[r] = row_motion(w, e.q, e.rows[r]);
      largest = std::max(largest, std::abs(motion[r]));
    }
    for (int r = 0; r < n; ++r) {
      float sum = 0;
      for (int c = 0; c < n; ++c) sum += e.inv_k[r][c] * motion[c];
      dl[r] = -sum;
      e.impulse[r] += dl[r];
    }
    push_motion(w, e.q, e.rows, dl, n);
  }
  return largest;
}

void finish_rigid_rows(Stores<RunsTasks, WritesJoints> w, float h) {
  const float inv_h2 = 1.0f / (h * h);
  auto& rigid = w.joints.point_motion.rigid;
  w.tasks.parallel_for(int(rigid.size()), 512, [&](int lo, int hi, int) {
    for (int k = lo; k < hi; ++k) {
      const RigidRows& e = rigid[std::size_t(k)];
      Joint& j = w.joints.dense[e.joint];
      for (int r = 0; r < kMaxRigidRows; ++r)
        j.carried_rows[r] = r < e.count ? inv_h2 * e.impulse[r] : 0.0f;
      // The rows are point rows (a force at the anchor) or angle rows (n = 0: a torque).
      for (int r = 0; r < e.count; ++r) {
        if (e.rows[r].n.x == 0 && e.rows[r].n.y == 0)
          j.reaction_torque += e.impulse[r];
        else
          j.reaction_force += e.impulse[r] * e.rows[r].n;
      }
    }
  });
}

}  // namespace strut
