#include "solver/contacts/contact_solver.hpp"

namespace strut {

// Solver bodies: the motion of the substep and the pose change since the step began, 32 bytes
// per body in one array, so a constraint touches one cache line per body instead of ten arrays.
void gather_solver_bodies(WorldState &w, int lo, int hi) {
  const auto &b = w.bodies;
  const auto &s = w.scratch;
  auto &out = w.scratch.solver_bodies;
  for (int k = lo; k < hi; ++k) {
    const std::size_t i = std::size_t(k);
    SolverBody &o = out[i];
    o.dx = b.dx[i], o.dy = b.dy[i], o.da = b.da[i];
    o.dpx = b.px[i] - s.p0x[i], o.dpy = b.py[i] - s.p0y[i];
    o.dqc = b.qc[i] * s.q0c[i] + b.qs[i] * s.q0s[i];
    o.dqs = b.qs[i] * s.q0c[i] - b.qc[i] * s.q0s[i];
  }
}

void gather_solver_motion(WorldState &w, int lo, int hi) {
  const auto &b = w.bodies;
  auto &out = w.scratch.solver_bodies;
  for (int k = lo; k < hi; ++k) {
    const std::size_t i = std::size_t(k);
    out[i].dx = b.dx[i], out[i].dy = b.dy[i], out[i].da = b.da[i];
  }
}

void scatter_solver_bodies(WorldState &w, int lo, int hi) {
  auto &b = w.bodies;
  const auto &in = w.scratch.solver_bodies;
  const auto &moving = w.scratch.moving;  // finite mass: the solver may have changed it
  for (int k = lo; k < hi; ++k) {
    const std::size_t i = std::size_t(k);
    if (!moving[i]) continue;
    b.dx[i] = in[i].dx, b.dy[i] = in[i].dy, b.da[i] = in[i].da;
  }
}

bool solver_bodies_only(const WorldState &w) {
  return w.joints.dense.empty() && w.soft.struts.empty() && w.contacts.generic_pairs.empty();
}

}  // namespace strut
