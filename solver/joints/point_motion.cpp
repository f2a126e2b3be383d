// Velocity passes of joint points (point_motion.hpp). Units as in the contact solver: the state
// stores motion per substep (d = v h), so an impulse here is a position impulse P (N s^2) that
// changes a body's motion by P / m, and the force it stands for is P / h^2.
#include "solver/joints/point_motion.hpp"

#include "solver/joint_solver.hpp"
#include "solver/joints/joint_ops.hpp"

namespace strut {
namespace {

bool has_point_row(const World::Impl& w, const Joint& j) {
  if (!joint_ops(j.type).point_motion || !j.enabled) return false;
  const std::uint32_t a = w.slots[j.slot_a].dense, b = w.slots[j.slot_b].dense;
  if ((w.bodies.flags[a] | w.bodies.flags[b]) & kSleeping) return false;
  return w.is_rigid(a) && w.is_rigid(b);
}

// Applies P to b and -P to a: motion only. Bodies of infinite mass are shared by the rows of
// one colour and never written.
inline void apply(BodyArrays& b, const PointMotionRow& r, Vec2 P) {
  if (r.ma != 0 || r.ia != 0) {
    b.dx[r.a] -= r.ma * P.x, b.dy[r.a] -= r.ma * P.y;
    b.da[r.a] -= r.ia * cross(r.ra, P);
  }
  if (r.mb != 0 || r.ib != 0) {
    b.dx[r.b] += r.mb * P.x, b.dy[r.b] += r.mb * P.y;
    b.da[r.b] += r.ib * cross(r.rb, P);
  }
}

}  // namespace

void prepare_point_motion(World::Impl& w, float h) {
  PointMotion& m = w.point_motion;
  m.rows.clear();
  m.begin.assign(kColourCount + 2, 0);
  const float h2 = h * h;
  auto add = [&](std::uint32_t k) {
    Joint& j = w.joints[k];
    if (!has_point_row(w, j)) {
      j.carried_force = {};
      return;
    }
    PointMotionRow r;
    r.a = w.slots[j.slot_a].dense, r.b = w.slots[j.slot_b].dense;
    r.ma = w.bodies.inv_mass[r.a], r.mb = w.bodies.inv_mass[r.b];
    r.ia = w.bodies.inv_inertia[r.a], r.ib = w.bodies.inv_inertia[r.b];
    r.impulse = h2 * j.carried_force;
    r.joint = k;
    m.rows.push_back(r);
  };
  // The joints are coloured (colour_joints) from kParallelJoints on; fewer are solved serially
  // in creation order, as the overflow colour is.
  if (w.joints.size() >= kParallelJoints) {
    const Colouring& c = w.joint_colours;
    for (int colour = 0; colour <= kOverflowColour; ++colour) {
      m.begin[std::size_t(colour)] = std::uint32_t(m.rows.size());
      for (std::uint32_t i = c.begin[std::size_t(colour)]; i < c.begin[std::size_t(colour) + 1];
           ++i)
        add(c.order[i]);
    }
  } else {
    for (std::uint32_t k = 0; k < w.joints.size(); ++k) add(k);
  }
  m.begin[kOverflowColour + 1] = std::uint32_t(m.rows.size());
}

void refresh_point_rows(World::Impl& w, std::uint32_t lo, std::uint32_t hi, bool warm_start) {
  auto& b = w.bodies;
  for (std::uint32_t i = lo; i < hi; ++i) {
    PointMotionRow& r = w.point_motion.rows[i];
    const Joint& j = w.joints[r.joint];
    r.ra = rotate(Rot{b.qc[r.a], b.qs[r.a]}, j.anchor_a.local);
    r.rb = rotate(Rot{b.qc[r.b], b.qs[r.b]}, j.anchor_b.local);
    // K = (ma + mb) I + ia [ra.y^2, -ra.x ra.y; ., ra.x^2] + the same for b.
    const float m = r.ma + r.mb;
    const float k11 = m + r.ia * r.ra.y * r.ra.y + r.ib * r.rb.y * r.rb.y;
    const float k12 = -r.ia * r.ra.x * r.ra.y - r.ib * r.rb.x * r.rb.y;
    const float k22 = m + r.ia * r.ra.x * r.ra.x + r.ib * r.rb.x * r.rb.x;
    const float det = k11 * k22 - k12 * k12;
    const float inv = det > 1e-20f ? 1.0f / det : 0.0f;  // 0: both bodies fixed here
    r.k11 = k22 * inv, r.k12 = -k12 * inv, r.k22 = k11 * inv;
    if (warm_start) apply(b, r, r.impulse);
  }
}

void solve_point_rows(World::Impl& w, std::uint32_t lo, std::uint32_t hi) {
  float* const dx = w.bodies.dx.data();
  float* const dy = w.bodies.dy.data();
  float* const da = w.bodies.da.data();
  for (std::uint32_t i = lo; i < hi; ++i) {
    // A copy: the body arrays are floats too, so the compiler would reload the row after every
    // store to them.
    const PointMotionRow r = w.point_motion.rows[i];
    // Motion of each anchor over the substep, to first order in the turn: d + da x r.
    const float cx = (dx[r.b] - r.rb.y * da[r.b]) - (dx[r.a] - r.ra.y * da[r.a]);
    const float cy = (dy[r.b] + r.rb.x * da[r.b]) - (dy[r.a] + r.ra.x * da[r.a]);
    const Vec2 P{-(r.k11 * cx + r.k12 * cy), -(r.k12 * cx + r.k22 * cy)};
    w.point_motion.rows[i].impulse = r.impulse + P;
    // Bodies of infinite mass are shared by the rows of one colour and never written.
    if (r.ma != 0 || r.ia != 0) {
      dx[r.a] -= r.ma * P.x, dy[r.a] -= r.ma * P.y;
      da[r.a] -= r.ia * cross(r.ra, P);
    }
    if (r.mb != 0 || r.ib != 0) {
      dx[r.b] += r.mb * P.x, dy[r.b] += r.mb * P.y;
      da[r.b] += r.ib * cross(r.rb, P);
    }
  }
}

void finish_point_motion(World::Impl& w, float h) {
  const float inv_h2 = 1.0f / (h * h);
  auto& rows = w.point_motion.rows;
  w.tasks.parallel_for(int(rows.size()), 4096, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i) {
      const PointMotionRow& r = rows[std::size_t(i)];
      Joint& j = w.joints[r.joint];
      j.carried_force = inv_h2 * r.impulse;
      j.reaction_force = r.impulse;
    }
  });
}

}  // namespace strut
