// One step: collide once, then `substeps` x (integrate, `iterations` x project, velocity pass).
// "Small steps": many substeps of one iteration converge better than one step of many.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "solver/body_storage.hpp"
#include "solver/collide_phase.hpp"
#include "solver/contact_events.hpp"
#include "solver/contact_solver.hpp"
#include "solver/integrate.hpp"
#include "solver/islands.hpp"
#include "solver/joint_solver.hpp"
#include "solver/step_internals.hpp"
#include "strut/limits.hpp"

namespace strut {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The implicit velocity x - x_prev belongs to the substep length that produced it: when dt or
// the substep count changes, rescale it so bodies keep their speed.
void rescale_velocities(World::Impl& w, float ratio) {
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
  // Warm-start impulses are in displacement units (impulse x h) too.
  for (ContactPoint& cp : w.contacts.points) cp.lambda_n *= ratio, cp.lambda_t *= ratio;
}

// Per-step accelerations and damping, constant over the substeps.
void prepare_forces(World::Impl& w, float h) {
  auto& b = w.bodies;
  auto& s = w.scratch;
  const std::size_t n = b.size();
  s.ax.resize(n), s.ay.resize(n), s.alpha.resize(n), s.damping.resize(n);
  w.tasks.parallel_for(int(n), 4096, [&](int lo, int hi, int) {
    for (std::size_t k = std::size_t(lo); k < std::size_t(hi); ++k) {
      const bool dynamic = b.inv_mass[k] > 0;
      s.ax[k] = dynamic ? w.config.gravity.x * b.gravity_scale[k] + b.fx[k] * b.inv_mass[k] : 0.0f;
      s.ay[k] = dynamic ? w.config.gravity.y * b.gravity_scale[k] + b.fy[k] * b.inv_mass[k] : 0.0f;
      s.alpha[k] = b.torque[k] * b.inv_inertia[k];
      s.damping[k] = b.drag[k] > 0 ? std::exp(-b.drag[k] * h) : 1.0f;
    }
  });
  // Integration runs: maximal ranges of rigid bodies that move and are awake.
  s.rigid_runs.clear();
  s.soft_bodies.clear();
  for (std::uint32_t k = 0; k < n;) {
    const auto skip = [&](std::uint32_t i) {
      return (b.flags[i] & (kStatic | kSleeping | kSoft)) != 0;
    };
    if (skip(k)) {
      if ((b.flags[k] & kSoft) && !(b.flags[k] & kSleeping)) s.soft_bodies.push_back(k);
      ++k;
      continue;
    }
    std::uint32_t e = k;
    while (e < n && !skip(e)) ++e;
    s.rigid_runs.emplace_back(k, e);
    k = e;
  }
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

RigidSpans rigid_spans(World::Impl& w) {
  auto& b = w.bodies;
  auto& s = w.scratch;
  return RigidSpans{b.px.data(), b.py.data(),    b.qc.data(),     b.qs.data(),
                    b.dx.data(), b.dy.data(),    b.da.data(),     s.ax.data(),
                    s.ay.data(), s.alpha.data(), s.damping.data()};
}

ParticleSpans particle_spans(World::Impl& w) {
  auto& q = w.particles;
  auto& s = w.scratch;
  return ParticleSpans{q.x.data(),   q.y.data(),   q.dx.data(),      q.dy.data(),
                       s.pax.data(), s.pay.data(), s.pdamping.data()};
}

// Integration is element-wise, so any split gives the same bits. One stage covers all bodies in
// fixed chunks; a chunk integrates the parts of the rigid runs inside it.
constexpr int kIntegrateGrain = 2048;

using Stage = TaskSystem::Stage;

// Profile buckets of the substep stages.
enum Phase { kPhaseIntegrate = 0, kPhaseSolve = 1, kPhaseVelocity = 2, kPhaseCount = 3 };

// scatter_first / gather_after: the stage also moves the solver bodies of its range back to the
// body arrays before integrating, and gathers them afresh after (see run_substeps).
template <class RigidFn, class ParticleFn>
void add_integrate_stages(World::Impl& w, std::vector<Stage>& stages, RigidFn rigid,
                          ParticleFn particles, bool scatter_first = false,
                          bool gather_after = false) {
  stages.push_back({int(w.bodies.size()), kIntegrateGrain,
                    [&w, rigid, scatter_first, gather_after](int lo, int hi, int) {
                      if (scatter_first) scatter_solver_bodies(w, lo, hi);
                      const auto& runs = w.scratch.rigid_runs;
                      // First run ending after lo.
                      auto it = std::upper_bound(
                          runs.begin(), runs.end(), std::uint32_t(lo),
                          [](std::uint32_t v, const auto& run) { return v < run.second; });
                      for (; it != runs.end() && int(it->first) < hi; ++it)
                        rigid(std::max(lo, int(it->first)), std::min(hi, int(it->second)));
                      if (gather_after) gather_solver_bodies(w, lo, hi);
                    },
                    kPhaseIntegrate});
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
                    kPhaseIntegrate});
}

// The substeps, as one list of stages run in one parallel region: per substep, integrate
// velocities, warm start and solve the contacts, integrate positions, project struts and joints,
// relax the contacts. Each stage waits for the one before; inside a stage the work is split in
// chunks that are independent by construction (bodies, colours), so any thread count gives the
// same bits.
void run_substeps(World::Impl& w, float h, int substeps, StepProfile& p) {
  RigidSpans rs = rigid_spans(w);
  ParticleSpans ps = particle_spans(w);
  // The speed limits hold in every substep, whatever forces and contacts did (limits.hpp).
  rs.max_move = ps.max_move = limits::kMaxSpeed * h;
  rs.max_turn = limits::kMaxAngularSpeed * h;
  auto& stages = w.scratch.substep_stages;
  stages.clear();
  // When only contacts and integration touch the bodies' motion, the integration stages carry
  // the solver bodies' gather and scatter for their own ranges (both are per body), instead of
  // four stages of their own per substep: fewer waits between threads and fewer passes.
  const bool fused = solver_bodies_only(w);
  for (int s = 0; s < substeps; ++s) {
    add_integrate_stages(
        w, stages, [rs, h](int lo, int hi) { integrate_rigid_velocity_simd(rs, lo, hi, h); },
        [ps, h](int lo, int hi) { integrate_particles_velocity(ps, lo, hi, h); }, fused && s > 0,
        fused);
    add_contact_solve_stages(w, stages, h, kPhaseSolve, !fused);
    add_integrate_stages(
        w, stages, [rs](int lo, int hi) { integrate_rigid_position_simd(rs, lo, hi); },
        [ps](int lo, int hi) { integrate_particles_position(ps, lo, hi); }, fused, fused);
    add_joint_stages(w, stages, h, kPhaseSolve);
    add_contact_relax_stages(w, stages, h, kPhaseVelocity, !fused);
  }
  if (fused)
    stages.push_back({int(w.bodies.size()), kIntegrateGrain,
                      [&w](int lo, int hi, int) { scatter_solver_bodies(w, lo, hi); },
                      kPhaseVelocity});
  double phase_ms[kPhaseCount] = {};
  w.tasks.run_stages(stages, phase_ms);
  p.integrate += phase_ms[kPhaseIntegrate];
  p.solve += phase_ms[kPhaseSolve];
  p.velocity += phase_ms[kPhaseVelocity];
}

// The bodies the solver may write (finite mass), which the contact and joint colourings read:
// constraints of one colour may share the others.
void mark_movable_bodies(World::Impl& w) {
  const auto& b = w.bodies;
  auto& moving = w.scratch.moving;
  moving.resize(b.size());
  w.tasks.parallel_for(int(b.size()), 4096, [&](int lo, int hi, int) {
    for (std::size_t k = std::size_t(lo); k < std::size_t(hi); ++k)
      moving[k] = b.inv_mass[k] > 0 || b.inv_inertia[k] > 0;
  });
}

}  // namespace

void World::step(float dt) {
  auto& w = *impl_;
  if (!(dt >= limits::kMinDt && dt <= limits::kMaxDt)) {  // also rejects NaN
    char msg[96];
    std::snprintf(msg, sizeof msg, "step: dt must be in [%g, %g] s (strut/limits.hpp), got %g",
                  double(limits::kMinDt), double(limits::kMaxDt), double(dt));
    throw Error(msg);
  }
  const auto t_start = Clock::now();
  compact_bodies(w);
  compact_joints(w);
  if (w.ignored_pairs_dirty) rebuild_ignored_pairs(w);
  const int substeps = w.config.substeps;
  const float h = dt / float(substeps);
  if (h != w.last_h) rescale_velocities(w, h / w.last_h);
  w.last_h = h;
  auto& b = w.bodies;
  w.tasks.parallel_for(int(b.size()), 2048, [&](int lo, int hi, int) {
    for (int k = lo; k < hi; ++k)
      b.before_step[k] = Transform{{b.px[k], b.py[k]}, angle_of(Rot{b.qc[k], b.qs[k]})};
  });

  StepProfile p;
  auto t0 = Clock::now();
  update_bounds(w, dt);
  find_candidate_pairs(w);
  p.broad_phase = ms_since(t0);
  t0 = Clock::now();
  narrow_phase(w);
  p.narrow_phase = ms_since(t0);
  t0 = Clock::now();
  mark_touched_islands(w);
  build_islands(w);
  mark_movable_bodies(w);
  colour_contacts(w);
  colour_joints(w);
  colour_struts(w);
  p.islands = ms_since(t0);

  t0 = Clock::now();
  prepare_forces(w, h);
  p.integrate += ms_since(t0);
  t0 = Clock::now();
  // Contact push-out stiffness: at most a quarter of the substep rate (stiffer is unstable);
  // contacts with static bodies twice as stiff, as they have half the give.
  const float hertz = std::min(w.config.contact_hertz, 0.25f / h);
  w.contact_softness = make_softness(hertz, w.config.contact_damping_ratio, h);
  w.static_softness = make_softness(2.0f * hertz, w.config.contact_damping_ratio, h);
  prepare_contacts(w);
  p.solve += ms_since(t0);
  run_substeps(w, h, substeps, p);
  t0 = Clock::now();
  continuous_pass(w);
  apply_restitution(w, h, w.config.restitution_threshold);
  finish_contacts(w);
  // The speed limits hold at the end of the step too: restitution and the continuous pass act
  // after the last substep (a fuzzed scene left a plank at 4e12 m/s here).
  clamp_motion(b.dx.data(), b.dy.data(), b.da.data(), b.size(), limits::kMaxSpeed * h,
               limits::kMaxAngularSpeed * h);
  clamp_motion(w.particles.dx.data(), w.particles.dy.data(), nullptr, w.particles.size(),
               limits::kMaxSpeed * h, 0.0f);
  p.velocity += ms_since(t0);
  t0 = Clock::now();
  sync_particles(w);
  p.integrate += ms_since(t0);
  t0 = Clock::now();
  wake_marked_islands(w);
  update_sleep(w, dt);
  record_contact_events(w);
  std::fill(b.fx.begin(), b.fx.end(), 0.0f);
  std::fill(b.fy.begin(), b.fy.end(), 0.0f);
  std::fill(b.torque.begin(), b.torque.end(), 0.0f);
  p.sleep = ms_since(t0);
  p.total = ms_since(t_start);

  ++w.step_index;
  auto& sum = w.profile_sum;
  sum.integrate += p.integrate, sum.broad_phase += p.broad_phase;
  sum.narrow_phase += p.narrow_phase, sum.islands += p.islands, sum.solve += p.solve;
  sum.velocity += p.velocity, sum.sleep += p.sleep, sum.total += p.total;
  sum.steps += 1;
}

void rebuild_ignored_pairs(World::Impl& w) {
  w.ignored_pairs.clear();
  for (const Joint& j : w.joints)
    if (!j.collide) w.ignored_pairs.push_back(pair_key(j.slot_a, j.slot_b));
  std::sort(w.ignored_pairs.begin(), w.ignored_pairs.end());
  w.ignored_pairs.erase(std::unique(w.ignored_pairs.begin(), w.ignored_pairs.end()),
                        w.ignored_pairs.end());
  std::vector<broadphase::Pair> pairs;
  for (std::uint64_t k : w.ignored_pairs)
    pairs.push_back({std::uint32_t(k >> 32), std::uint32_t(k)});
  w.broadphase.set_ignored_pairs(std::move(pairs));
  w.ignored_pairs_dirty = false;
}

// Particles of rigid bodies follow their pose; soft bodies get a best-fit pose for reporting.
void sync_particles(World::Impl& w) {
  auto& b = w.bodies;
  auto& q = w.particles;
  w.tasks.parallel_for(int(b.size()), 1024, [&](int lo, int hi, int) {
    for (std::uint32_t k = std::uint32_t(lo); k < std::uint32_t(hi); ++k) {
      const std::uint32_t p0 = b.particle_begin[k], pc = b.particle_count[k];
      if (w.is_rigid(k)) {
        if (b.flags[k] & kStatic) continue;
        const Rot r{b.qc[k], b.qs[k]};
        for (std::uint32_t i = p0; i < p0 + pc; ++i) {
          const Vec2 x = Vec2{b.px[k], b.py[k]} + rotate(r, {q.lx[i], q.ly[i]});
          q.x[i] = x.x;
          q.y[i] = x.y;
        }
        continue;
      }
      fit_soft_pose(w, k);
    }
  });
}

void fit_soft_pose(World::Impl& w, std::uint32_t k) {
  auto& b = w.bodies;
  auto& q = w.particles;
  const std::uint32_t p0 = b.particle_begin[k], pc = b.particle_count[k];
  auto fit = [&](const std::vector<float>& xs, const std::vector<float>& ys, float& px, float& py,
                 float& qc, float& qs) {
    double m = 0, cx = 0, cy = 0;
    for (std::uint32_t i = p0; i < p0 + pc; ++i) {
      const double mi = 1.0 / q.w[i];
      m += mi, cx += mi * xs[i], cy += mi * ys[i];
    }
    cx /= m, cy /= m;
    double sc = 0, ss = 0;
    for (std::uint32_t i = p0; i < p0 + pc; ++i) {
      const double mi = 1.0 / q.w[i];
      const double rx = xs[i] - cx, ry = ys[i] - cy;
      sc += mi * (q.lx[i] * rx + q.ly[i] * ry);
      ss += mi * (q.lx[i] * ry - q.ly[i] * rx);
    }
    const double len = std::sqrt(sc * sc + ss * ss);
    px = float(cx), py = float(cy);
    qc = len > 0 ? float(sc / len) : 1.0f;
    qs = len > 0 ? float(ss / len) : 0.0f;
  };
  fit(q.x, q.y, b.px[k], b.py[k], b.qc[k], b.qs[k]);
  // Motion of the body: mass-weighted particle motion, and the rotation that best maps the
  // particles' previous offsets onto the current ones.
  double m = 0, mx = 0, my = 0, sc = 0, ss = 0;
  for (std::uint32_t i = p0; i < p0 + pc; ++i) {
    const double mi = 1.0 / q.w[i];
    m += mi, mx += mi * q.dx[i], my += mi * q.dy[i];
  }
  b.dx[k] = float(mx / m);
  b.dy[k] = float(my / m);
  for (std::uint32_t i = p0; i < p0 + pc; ++i) {
    const double mi = 1.0 / q.w[i];
    const double rx = q.x[i] - b.px[k], ry = q.y[i] - b.py[k];
    const double ox = rx - (q.dx[i] - b.dx[k]), oy = ry - (q.dy[i] - b.dy[k]);
    sc += mi * (ox * rx + oy * ry);
    ss += mi * (ox * ry - oy * rx);
  }
  const double len = std::sqrt(sc * sc + ss * ss);
  b.da[k] = len > 0 ? float(std::atan2(ss, sc)) : 0.0f;
}

}  // namespace strut
