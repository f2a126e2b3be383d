// One step of the world, as named stages in order. Each stage says what it reads and writes;
// the work of each lives in its own file (named beside it). "Small steps": many substeps of one
// iteration converge better than one step of many.
//
//   begin step         compaction of destroyed bodies and joints, poses before the step
//   broad phase        body bounds swept along this step's motion -> candidate pairs
//   narrow phase       candidate pairs -> contact points (features), cached or collided afresh
//   islands            touching pairs and joints -> islands (only to sleep and wake whole)
//   colouring          contacts, joints, struts -> colours of constraints sharing no body
//   prepare            forces -> accelerations; contacts -> anchors, normals, masses in lanes
//                      (between the two, floor friction: bodies over tile maps' floor tiles
//                      slowed or stopped, solver/step/floor_friction.cpp)
//   substeps           substeps x (integrate velocities, warm start and solve contacts,
//                      integrate positions, joints and struts, relax contacts)
//   after the substeps continuous collision, restitution, impulses stored for warm starting
//   sync particles     hull vertices follow the poses
//   sleep and events   islands woken and put to sleep, contact begin/end events, forces cleared
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "solver/bodies/body_storage.hpp"
#include "solver/bodies/body_store.hpp"
#include "solver/bodies/collider_store.hpp"
#include "solver/contacts/contact_events.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/contacts/contact_store.hpp"
#include "solver/contacts/pair_store.hpp"
#include "solver/contacts/sensor_events.hpp"
#include "solver/core/step_timing.hpp"
#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"
#include "solver/core/tick_clock.hpp"
#include "solver/islands/islands.hpp"
#include "solver/joint_events.hpp"
#include "solver/joints/joint_solver.hpp"
#include "solver/joints/joint_store.hpp"
#include "solver/joints/point_motion.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "solver/soft/soft_store.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/step/floor_friction.hpp"
#include "solver/step/integrate.hpp"
#include "solver/step/integrate_stages.hpp"
#include "solver/step/step_internals.hpp"
#include "solver/step/step_scratch.hpp"
#include "solver/step/visited_bodies.hpp"
#include "strut/limits.hpp"
#include "strut/world.hpp"

namespace strut {
namespace {

// Wall time of consecutive phases, in ticks (solver/core/tick_clock.hpp), and the step's length in
// steady_clock time, which converts the ticks to milliseconds at the end of the step.
class PhaseClock {
 public:
  // Ticks since the last lap (or construction).
  double lap() {
    const std::uint64_t now = read_ticks();
    const double ticks = double(now - last_);
    last_ = now;
    return ticks;
  }
  // Ticks from construction to the last lap.
  double total() const { return double(last_ - first_); }
  // Milliseconds a tick lasted from construction to the last lap (0 if no tick passed).
  double ms_per_tick() const {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
            .count();
    return last_ > first_ ? ms / double(last_ - first_) : 0.0;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::uint64_t first_ = read_ticks();
  std::uint64_t last_ = first_;
};

// The profile in ticks, turned to milliseconds.
void scale_profile(StepProfile& p, double ms_per_tick) {
  p.integrate *= ms_per_tick, p.broad_phase *= ms_per_tick, p.narrow_phase *= ms_per_tick;
  p.islands *= ms_per_tick, p.solve *= ms_per_tick, p.velocity *= ms_per_tick;
  p.sleep *= ms_per_tick, p.total *= ms_per_tick;
}

// Profile buckets of the substep stages (StepProfile's integrate, solve and velocity).
enum Phase { kPhaseIntegrate = 0, kPhaseSolve = 1, kPhaseVelocity = 2, kPhaseCount = 3 };

// The stages of one substep, in the order they run. Each becomes one or more TaskSystem stages
// (per colour, per chunk of bodies) of one list run in a single parallel region.
enum class SubstepStage : std::uint8_t {
  // Reads accelerations and damping (prepare_forces); writes the motion d of awake bodies and
  // soft particles. (solver/step/integrate_stages.cpp)
  kIntegrateVelocities,
  // Reads the prepared constraints and last substep's impulses; writes the bodies' motion and
  // the accumulated impulses: joint points' warm start and velocity passes
  // (solver/joints/point_motion.cpp); contacts' warm start, then `iterations` soft solve passes
  // (push-out bias), then the points touching soft bodies. (solver/contacts/contact_stages.cpp)
  kWarmStartAndSolveContacts,
  // Reads the motion; writes poses (rigid) and particle positions (soft).
  kIntegratePositions,
  // Reads and writes the poses, motion and particles of jointed bodies and soft bodies: strut
  // multipliers reset, then `iterations` x (struts, joints). (solver/joints/joint_solver.cpp)
  kSolveJointsAndStruts,
  // As kWarmStartAndSolveContacts without warm start and push-out: removes the velocity the
  // push-out and the joint projection added. (solver/joints/point_motion.cpp,
  // solver/contacts/contact_stages.cpp)
  kRelaxContacts,
};
constexpr SubstepStage kSubstepOrder[] = {
    SubstepStage::kIntegrateVelocities, SubstepStage::kWarmStartAndSolveContacts,
    SubstepStage::kIntegratePositions,  SubstepStage::kSolveJointsAndStruts,
    SubstepStage::kRelaxContacts,
};

// The contact passes work on 32-byte solver bodies gathered from the body arrays and scattered
// back (solver/contacts/solver_bodies.cpp). When nothing but contacts and integration touches
// the bodies' motion (no joints, struts or soft contacts), the bodies stay gathered for the whole
// step: the integration stages scatter and gather their own ranges around their work ("fused"),
// instead of four stages of their own per substep (fewer waits between threads, fewer passes).
void add_substep_stage(WorldState& w, std::vector<TaskSystem::Stage>& stages, SubstepStage stage,
                       float h, int substep, bool fused) {
  // Without wide contacts no stage reads or writes the solver bodies: a contact pass's own
  // gather and scatter would copy the bodies' motion there and back (joint_grid: 10,000 bodies,
  // 8 copies a step).
  const bool own_gather = !fused && !w.contacts.work.empty();
  switch (stage) {
    case SubstepStage::kIntegrateVelocities:
      add_integrate_velocity_stages(w, stages, h, fused && substep > 0, fused, kPhaseIntegrate);
      break;
    case SubstepStage::kWarmStartAndSolveContacts:
      // With joint rows at the velocity level, the contacts are warm started before the joints'
      // passes, as Box2D warm starts everything before it solves anything. Warm started after
      // them, the contacts' carried impulses came after 8 passes that had converged without them:
      // a ragdoll lying on its limbs had its torso's weight taken off the joints (the limbs and
      // the torso fell alike), the contacts then threw the limbs up (at 0.135 m/s, against 0.042
      // of gravity) and the projection pulled them back every substep, a fight the carried
      // impulses never learned (the projection's impulse is not carried): the ragdoll crept at
      // 0.2 m/s. One more gather (of the motion) and scatter of the solver bodies a substep.
      if (has_joint_motion(w) && (!w.contacts.work.empty() || !w.contacts.generic_pairs.empty())) {
        add_contact_warm_start_stages(w, stages, kPhaseSolve);
        add_joint_motion_stages(w, stages, kPhaseSolve, false);
        add_contact_solve_stages(w, stages, h, kPhaseSolve, own_gather, false);
      } else {
        add_joint_motion_stages(w, stages, kPhaseSolve, false);
        add_contact_solve_stages(w, stages, h, kPhaseSolve, own_gather);
      }
      break;
    case SubstepStage::kIntegratePositions:
      add_integrate_position_stages(w, stages, h, fused, fused, kPhaseIntegrate);
      break;
    case SubstepStage::kSolveJointsAndStruts:
      add_joint_stages(w, stages, h, kPhaseSolve);
      break;
    case SubstepStage::kRelaxContacts:
      add_joint_motion_stages(w, stages, kPhaseVelocity, true);
      add_contact_relax_stages(w, stages, h, kPhaseVelocity, own_gather);
      break;
  }
}

// Whether the substeps would change nothing: no body is visited or given motion by a contact,
// no joint point is in lanes, no strut, and every joint has a sleeping body or is disabled (its
// solve returns at once). An idle world's step then builds and runs no substep stage at all.
bool substeps_have_work(const WorldState& w) {
  if (!w.scratch.body_runs.empty() || !w.scratch.solver_runs.empty() || !w.soft.struts.empty())
    return true;
  if (has_joint_motion(w)) return true;
  return std::any_of(w.joints.dense.begin(), w.joints.dense.end(), [&w](const Joint& j) {
    const std::uint32_t a = w.bodies.slots[j.slot_a].dense, b = w.bodies.slots[j.slot_b].dense;
    return j.enabled && !((w.bodies.flags[a] | w.bodies.flags[b]) & kSleeping);
  });
}

// The substeps, as one list of stages run in one parallel region. Each stage waits for the one
// before; inside a stage the work is split in chunks that are independent by construction
// (bodies, colours), so any thread count gives the same bits.
void run_substeps(WorldState& w, float h, int substeps, StepProfile& p) {
  if (!substeps_have_work(w)) return;
  auto& stages = w.scratch.substep_stages;
  stages.clear();
  const bool fused = solver_bodies_only(w);
  // The stages are built before any runs, from state the substeps do not change, and only the
  // first substep's differ (its integration gathers the solver bodies whole): the second
  // substep's stages are built, the later substeps' copied from them.
  std::size_t second = 0;
  for (int s = 0; s < std::min(substeps, 2); ++s) {
    second = stages.size();
    for (const SubstepStage stage : kSubstepOrder) add_substep_stage(w, stages, stage, h, s, fused);
  }
  const std::size_t per_substep = stages.size() - second;
  stages.reserve(stages.size() + std::size_t(std::max(substeps - 2, 0)) * per_substep);
  for (int s = 2; s < substeps; ++s)
    for (std::size_t k = second; k < second + per_substep; ++k) stages.push_back(stages[k]);
  if (fused) add_scatter_solver_bodies_stage(w, stages, kPhaseVelocity);
  double phase_ticks[kPhaseCount] = {};
  w.tasks.run_stages(stages, phase_ticks);
  p.integrate += phase_ticks[kPhaseIntegrate];
  p.solve += phase_ticks[kPhaseSolve];
  p.velocity += phase_ticks[kPhaseVelocity];
}

// Reads: destroyed bodies and joints, joints' collide flags, dt, body flags. Writes: the
// compacted dense arrays, the broad phase's ignored pairs, motion rescaled to a changed substep
// length, the bodies this step visits (solver/step/visited_bodies.cpp), and their poses before
// the step (interpolation).
void begin_step(Stores<RunsTasks, WritesTiming, WritesBodies, WritesColliders, WritesParticles,
                       WritesSoft, WritesJoints, WritesPairs, WritesContacts, WritesScratch>
                    w,
                float h) {
  compact_bodies(w);
  compact_joints(w);
  if (w.pairs.ignored_dirty) rebuild_ignored_pairs(w);
  if (h != w.timing.last_h) rescale_velocities(w, h / w.timing.last_h);
  w.timing.last_h = h;
  find_visited_bodies(w);
  auto& b = w.bodies;
  parallel_for_each_in(w, w.scratch.body_runs, [&b](std::uint32_t k) {
    b.before_step[k] = StartPose{{b.px[k], b.py[k]}, Rot{b.qc[k], b.qs[k]}};
  });
}

// The bodies the solver may write (finite mass), which the contact and joint colourings read:
// constraints of one colour may share the others. Kept between steps, set for the visited bodies;
// the colouring is redone when a flag changed (moving_version).
void mark_movable_bodies(Stores<RunsTasks, ReadsBodies, WritesScratch> w) {
  const auto& b = w.bodies;
  auto& s = w.scratch;
  auto& moving = s.moving;
  if (moving.size() != b.size()) {
    moving.resize(b.size());
    ++s.moving_version;
  }
  std::atomic<bool> changed{false};
  parallel_for_runs(w, s.body_runs, [&](int first, int last) {
    bool any = false;
    for (int k = first; k < last; ++k) {
      const std::uint8_t m = b.inv_mass[std::size_t(k)] > 0 || b.inv_inertia[std::size_t(k)] > 0;
      any |= moving[std::size_t(k)] != m;
      moving[std::size_t(k)] = m;
    }
    if (any) changed.store(true, std::memory_order_relaxed);
  });
  if (changed.load()) ++s.moving_version;
}

// Reads: config stiffness, substep length. Writes: the softness of contact push-out.
void set_contact_softness(Stores<ReadsConfig, WritesContacts> w, float h) {
  // Contact push-out stiffness: at most 0.1875 of the substep rate, 45 Hz at 4 substeps of a
  // 60 Hz step (omega h = 1.18). Measured on a 60-row pyramid of unit boxes standing for 10 s
  // (tests/ stiffness_test.cpp), largest move of a box at 4 substeps: 30 Hz 0.261 m (Box2D v3,
  // whose default is 30 Hz, 0.263 m), 40 Hz 0.147, 45 Hz 0.119, 50 Hz 0.100, 55 Hz 0.099, and at 60
  // Hz (a quarter of the substep rate) the pyramid shakes: 0.68 m.
  const float hertz = std::min(w.config.contact_hertz, 0.1875f / h);
  w.contacts.softness = make_softness(hertz, w.config.contact_damping_ratio, h);
  // Contacts with static and kinematic bodies: twice as stiff, as they have half the give, but
  // at most a quarter of the substep rate (60 Hz at 4 substeps of a 60 Hz step, omega h = pi/2,
  // Box2D v3's static stiffness). At 90 Hz (omega h = 2.36) the soft step rang: a 3-box stack
  // dropped 10 cm rocked at 10 Hz for 23 s and never slept, 3 boxes pushed apart on the ground
  // never settled, a 20 x 20 box on two unit boxes walked 30 cm and was thrown off; at 72 Hz
  // the stack was quiet but Box2D's HighMassRatio1 collapsed (docs/architecture.md).
  const float static_hertz = std::min(2.0f * hertz, 0.25f / h);
  w.contacts.static_softness = make_softness(static_hertz, w.config.contact_damping_ratio, h);
}

// Reads: nothing. Writes: the forces and torques applied since the last step, cleared (only a
// visited body has any: applying one marks the body edited).
void clear_forces(Stores<WritesBodies, ReadsScratch> w) {
  auto& b = w.bodies;
  for (const auto& [first, last] : w.scratch.body_runs) {
    std::fill(b.fx.begin() + first, b.fx.begin() + last, 0.0f);
    std::fill(b.fy.begin() + first, b.fy.begin() + last, 0.0f);
    std::fill(b.torque.begin() + first, b.torque.begin() + last, 0.0f);
  }
}

// The speed limits hold at the end of the step too: restitution and the continuous pass act
// after the last substep (a fuzzed scene left a plank at 4e12 m/s here). Reads and writes the
// motion of the bodies the solver may have moved (and their particles, for soft bodies).
void clamp_final_motion(Stores<WritesBodies, WritesParticles, ReadsScratch> w, float h) {
  auto& b = w.bodies;
  auto& q = w.particles;
  for (const auto& [first, last] : w.scratch.solver_runs) {
    clamp_motion(b.dx.data() + first, b.dy.data() + first, b.da.data() + first, last - first,
                 limits::kMaxSpeed * h, limits::kMaxAngularSpeed * h);
    for (std::uint32_t k = first; k < last; ++k)
      if (b.flags[k] & kSoft)
        clamp_motion(q.dx.data() + b.particle_begin[k], q.dy.data() + b.particle_begin[k], nullptr,
                     b.particle_count[k], limits::kMaxSpeed * h, 0.0f);
  }
}

void add_to_profile(Stores<WritesProfile> w, const StepProfile& p) {
  auto& sum = w.profile.sum;
  sum.integrate += p.integrate, sum.broad_phase += p.broad_phase;
  sum.narrow_phase += p.narrow_phase, sum.islands += p.islands, sum.solve += p.solve;
  sum.velocity += p.velocity, sum.sleep += p.sleep, sum.total += p.total;
  sum.steps += 1;
}

}  // namespace

void World::step(float dt) {
  auto& w = *state_;
  shapes::check_step_dt(dt, "step");
  const int substeps = w.config.substeps;
  const float h = dt / float(substeps);
  PhaseClock clock;
  StepProfile p;

  begin_step(w, h);
  w.timing.last_substeps = substeps;
  clock.lap();  // counted in the total only

  // Broad phase. Reads: particles, motion. Writes: tight boxes, motion and reach per body, the
  // candidate pairs. (solver/step/collider_boxes.cpp, solver/step/candidate_pairs.cpp, broadphase/)
  update_bounds(w, dt);
  find_candidate_pairs(w);
  p.broad_phase = clock.lap();

  // Narrow phase. Reads: candidate pairs, particles, last step's contacts. Writes: contact points
  // with their features, warm-start impulses and touching flags. (solver/contacts/narrow_phase.cpp,
  // solver/step/collide_pair.cpp)
  narrow_phase(w);
  release_retired_colliders(w);
  find_solver_bodies(w);
  p.narrow_phase = clock.lap();

  // Islands and colouring. Reads: touching pairs, joints, struts. Writes: islands and the sleepers
  // to wake, movable flags, the colours of contacts, joints and struts.
  // (solver/islands/islands.cpp, solver/contacts/colour_contacts.cpp,
  // solver/joints/joint_solver.cpp)
  mark_touched_islands(w);
  build_islands(w);
  mark_movable_bodies(w);
  set_contact_softness(w, h);  // the push-out counts of the colouring read it too
  colour_contacts(w);
  colour_joints(w);
  prepare_point_motion(w, h);
  colour_struts(w);
  p.islands = clock.lap();

  // Prepare. Reads: forces, poses, contact points. Writes: accelerations; contact constraints in
  // SIMD lanes. (solver/step/integrate_stages.cpp, solver/contacts/prepare_contacts.cpp)
  prepare_forces(w, h);
  apply_floor_friction(w, dt);  // reads floors, poses, motion; writes accelerations, motion
  p.integrate += clock.lap();
  prepare_contacts(w);
  p.solve += clock.lap();

  // The substeps (see SubstepStage).
  run_substeps(w, h, substeps, p);
  finish_point_motion(w, h);
  clock.lap();

  // After the substeps. Continuous: fast bodies put back in front of what they crossed
  // (solver/step/continuous.cpp); restitution (solver/contacts/restitution.cpp); pressed pairs
  // marked touching, the impulses left in the lanes for warm starting next step
  // (solver/contacts/finish_contacts.cpp, point_impulses.cpp).
  continuous_pass(w);
  apply_restitution(w, h, w.config.restitution_threshold);
  finish_contacts(w);
  clamp_final_motion(w, h);
  apply_motion_locks_to_solver_runs(w);  // after the last change of motion and pose
  p.velocity += clock.lap();

  // Reads: poses. Writes: particles of rigid bodies, best-fit poses of soft ones.
  // (solver/step/sync_particles.cpp)
  sync_particles(w);
  p.integrate += clock.lap();

  // Sleep and events. Reads: motion, islands, touching pairs, sensor pairs. Writes: sleeping
  // flags, sensor and contact events; forces cleared. (solver/islands/islands.cpp,
  // solver/contacts/sensor_events.cpp, solver/contacts/contact_events.cpp)
  record_joint_events(w);  // before the wake: a sleeping joint was not solved this step
  wake_marked_islands(w);
  update_sleep(w, dt);
  record_sensor_events(w);
  record_contact_events(w);
  clear_forces(w);
  p.sleep += clock.lap();
  p.total = clock.total();
  scale_profile(p, clock.ms_per_tick());

  ++w.timing.step_index;
  add_to_profile(w, p);
  // A contact callback threw during the step (solver/step/callback_guard.hpp).
  if (w.callbacks.error) std::rethrow_exception(std::exchange(w.callbacks.error, nullptr));
}

void rebuild_ignored_pairs(Stores<ReadsJoints, WritesPairs> w) {
  w.pairs.ignored.clear();
  for (const Joint& j : w.joints.dense)
    if (!j.collide) w.pairs.ignored.push_back(pair_key(j.slot_a, j.slot_b));
  std::sort(w.pairs.ignored.begin(), w.pairs.ignored.end());
  w.pairs.ignored.erase(std::unique(w.pairs.ignored.begin(), w.pairs.ignored.end()),
                        w.pairs.ignored.end());
  // The broad phase's proxies are colliders: the world filters jointed bodies after each sweep
  // (colliders_may_touch), and a changed list must make the next step sweep again.
  w.pairs.enlarged_version = ~std::uint64_t{0};
  w.pairs.ignored_dirty = false;
}

}  // namespace strut
