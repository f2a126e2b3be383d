// Integration as substep stages: per-step accelerations, then velocity and position
// integration of the awake moving bodies (rigid runs through the SIMD kernels of
// integrate_simd.cpp, soft bodies' particles one body at a time).
#include "solver/step/integrate_stages.hpp"

#include <algorithm>
#include <cmath>

#include "solver/bodies/body_store.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/contacts/contact_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"
#include "solver/step/integrate.hpp"
#include "solver/step/step_scratch.hpp"
#include "solver/step/visited_bodies.hpp"
#include "strut/limits.hpp"
#include "strut/world.hpp"

namespace strut {

// The implicit velocity x - x_prev belongs to the substep length that produced it: when dt or
// the substep count changes, rescale it so bodies keep their speed.
void rescale_velocities(Stores<WritesBodies, WritesParticles, WritesContacts> w, float ratio) {
  auto& b = w.bodies;
  for (std::size_t k = 0; k < b.size(); ++k) {
    if (b.flags[k] & kStatic) continue;
    b.dx[k] *= ratio;
    b.dy[k] *= ratio;
    b.da[k] *= ratio;
  }
  auto& q = w.particles;
  for (std::size_t i = 0; i < q.size(); ++i) {
    q.dx[i] *= ratio;
    q.dy[i] *= ratio;
  }
  // Warm-start impulses are in displacement units (impulse x h) too, in the points and in the
  // lanes, where a kept structure warm-starts from (point_impulses.cpp).
  for (ContactPoint& cp : w.contacts.points) cp.lambda_n *= ratio, cp.lambda_t *= ratio;
  for (WideConstraint& c : w.contacts.wide)
    for (WidePoint& p : c.p)
      for (int lane = 0; lane < kContactLanes; ++lane)
        p.lambda_n[lane] *= ratio, p.lambda_t[lane] *= ratio;
}

// Per-step accelerations and damping, constant over the substeps, of the awake moving bodies:
// the integration runs (maximal ranges of awake rigid bodies that are not static, in dense
// order) and the awake soft bodies, found among the bodies this step visits. Static and sleeping
// bodies get none: nothing reads theirs.
void prepare_forces(Stores<ReadsConfig, RunsTasks, WritesBodies, WritesParticles, WritesScratch> w,
                    float h) {
  auto& b = w.bodies;
  auto& s = w.scratch;
  const std::size_t n = b.size();
  s.ax.resize(n), s.ay.resize(n), s.alpha.resize(n), s.damping.resize(n);
  s.angular_damping.resize(n);
  s.rigid_runs.clear();
  s.soft_bodies.clear();
  for (const auto& [first, last] : s.body_runs) {
    for (std::uint32_t k = first; k < last;) {
      const auto skip = [&](std::uint32_t i) {
        return (b.flags[i] & (kStatic | kSleeping | kSoft)) != 0;
      };
      if (skip(k)) {
        if ((b.flags[k] & kSoft) && !(b.flags[k] & kSleeping)) s.soft_bodies.push_back(k);
        ++k;
        continue;
      }
      std::uint32_t e = k;
      while (e < last && !skip(e)) ++e;
      s.rigid_runs.emplace_back(k, e);
      k = e;
    }
  }
  const auto forces = [&](std::size_t k) {
    const bool dynamic = b.inv_mass[k] > 0;
    s.ax[k] = dynamic ? w.config.gravity.x * b.gravity_scale[k] + b.fx[k] * b.inv_mass[k] : 0.0f;
    s.ay[k] = dynamic ? w.config.gravity.y * b.gravity_scale[k] + b.fy[k] * b.inv_mass[k] : 0.0f;
    s.alpha[k] = b.torque[k] * b.inv_inertia[k];
    s.damping[k] = b.drag[k] > 0 ? std::exp(-b.drag[k] * h) : 1.0f;
    s.angular_damping[k] = b.angular_drag[k] > 0 ? std::exp(-b.angular_drag[k] * h) : 1.0f;
  };
  parallel_for_each_in(w, s.rigid_runs, [&](std::uint32_t k) { forces(k); });
  for (const std::uint32_t k : s.soft_bodies) forces(k);
  // Soft particles take their body's acceleration and damping.
  auto& q = w.particles;
  s.pax.resize(q.size()), s.pay.resize(q.size()), s.pdamping.resize(q.size());
  for (std::uint32_t k : s.soft_bodies) {
    for (std::uint32_t i = b.particle_begin[k]; i < b.particle_begin[k] + b.particle_count[k];
         ++i) {
      s.pax[i] = s.ax[k];
      s.pay[i] = s.ay[k];
      s.pdamping[i] = s.damping[k];
    }
  }
}

namespace {

// The speed limits (strut/limits.hpp) hold in every substep, whatever forces and contacts did:
// the position kernels clamp the motion to them.
RigidSpans rigid_spans(WorldState& w, float h) {
  auto& b = w.bodies;
  auto& s = w.scratch;
  RigidSpans rs{b.px.data(), b.py.data(),    b.qc.data(),      b.qs.data(),
                b.dx.data(), b.dy.data(),    b.da.data(),      s.ax.data(),
                s.ay.data(), s.alpha.data(), s.damping.data(), s.angular_damping.data()};
  rs.max_move = limits::kMaxSpeed * h;
  rs.max_turn = limits::kMaxAngularSpeed * h;
  return rs;
}

ParticleSpans particle_spans(WorldState& w, float h) {
  auto& q = w.particles;
  auto& s = w.scratch;
  ParticleSpans ps{q.x.data(),   q.y.data(),   q.dx.data(),      q.dy.data(),
                   s.pax.data(), s.pay.data(), s.pdamping.data()};
  ps.max_move = limits::kMaxSpeed * h;
  return ps;
}

// Integration is element-wise, so any split gives the same bits. One stage covers all bodies in
// fixed chunks (TaskSystem::even_grain); a chunk integrates the parts of the rigid runs inside it.

using Stage = TaskSystem::Stage;

// scatter_first / gather_after: the stage also moves the solver bodies of its range back to the
// body arrays before integrating, and gathers them afresh after (see run_substeps); only their
// motion if motion_only (the stage changed no pose since they were gathered).
template <class RigidFn, class ParticleFn>
void add_integrate_stages(WorldState& w, std::vector<Stage>& stages, RigidFn rigid,
                          ParticleFn particles, bool scatter_first, bool gather_after,
                          bool motion_only, int phase) {
  stages.push_back(
      {int(w.bodies.size()), TaskSystem::even_grain(int(w.bodies.size())),
       [&w, rigid, scatter_first, gather_after, motion_only](int lo, int hi, int) {
         const auto& runs = w.scratch.rigid_runs;
         // Only the bodies integrated here move between the stages: the solver
         // bodies of the others (static, asleep) are gathered once, by the first
         // stage of the step (scatter_first false), and scattered once, after the
         // last substep. For them a scatter and gather in between would copy the
         // same floats back and forth, over every body of the world each substep.
         if (scatter_first)
           for_runs_in(runs, lo, hi, [&w](int a, int b) { scatter_solver_bodies(w, a, b); });
         for_runs_in(runs, lo, hi, rigid);
         if (!gather_after) return;
         if (motion_only)
           for_runs_in(runs, lo, hi, [&w](int a, int b) { gather_solver_motion(w, a, b); });
         else if (scatter_first)
           for_runs_in(runs, lo, hi, [&w](int a, int b) { gather_solver_bodies(w, a, b); });
         else  // the step's first gather: every body this step visits (the others' rows
               // are as their last visit left them)
           for_runs_in(w.scratch.body_runs, lo, hi,
                       [&w](int a, int b) { gather_solver_bodies(w, a, b); });
       },
       phase});
  if (w.scratch.soft_bodies.empty()) return;
  stages.push_back({int(w.scratch.soft_bodies.size()), 64,
                    [&w, particles](int lo, int hi, int) {
                      const auto& b = w.bodies;
                      for (int i = lo; i < hi; ++i) {
                        const std::uint32_t k = w.scratch.soft_bodies[std::size_t(i)];
                        particles(int(b.particle_begin[k]),
                                  int(b.particle_begin[k] + b.particle_count[k]));
                      }
                    },
                    phase});
}

}  // namespace

void add_integrate_velocity_stages(WorldState& w, std::vector<TaskSystem::Stage>& stages, float h,
                                   bool scatter_first, bool gather_after, int phase) {
  // The spans are taken when the stage runs (a dozen loads a run of bodies): captured, they made
  // the stage's callable too large to hold in place (TaskSystem::RangeFn).
  WorldState* world = &w;
  add_integrate_stages(
      w, stages,
      [world, h](int lo, int hi) {
        integrate_rigid_velocity_simd(rigid_spans(*world, h), lo, hi, h);
      },
      [world, h](int lo, int hi) {
        integrate_particles_velocity(particle_spans(*world, h), lo, hi, h);
      },
      scatter_first, gather_after, scatter_first,
      phase);  // scattered first: gathered whole before, poses kept
}

void add_integrate_position_stages(WorldState& w, std::vector<TaskSystem::Stage>& stages, float h,
                                   bool scatter_first, bool gather_after, int phase) {
  WorldState* world = &w;
  add_integrate_stages(
      w, stages,
      [world, h](int lo, int hi) {
        integrate_rigid_position_simd(rigid_spans(*world, h), lo, hi);
        apply_motion_locks(*world, std::uint32_t(lo), std::uint32_t(hi));
      },
      [world, h](int lo, int hi) {
        integrate_particles_position(particle_spans(*world, h), lo, hi);
      },
      scatter_first, gather_after, false, phase);
}

void add_scatter_solver_bodies_stage(WorldState& w, std::vector<TaskSystem::Stage>& stages,
                                     int phase) {
  stages.push_back({int(w.bodies.size()), TaskSystem::even_grain(int(w.bodies.size())),
                    [&w](int lo, int hi, int) {
                      for_runs_in(w.scratch.solver_runs, lo, hi,
                                  [&w](int a, int b) { scatter_solver_bodies(w, a, b); });
                    },
                    phase});
}

}  // namespace strut
