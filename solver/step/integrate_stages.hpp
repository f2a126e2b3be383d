// Integration stages of the step (world_step.cpp): forces once per step, velocity and position
// integration once per substep.
#pragma once

#include <vector>

#include "solver/core/stores.hpp"
#include "solver/core/task_system.hpp"
#include "solver/world_state.hpp"

namespace strut {

// The implicit velocity belongs to the substep length that produced it: rescales every motion
// (and warm-start impulse) by `ratio` when dt or the substep count changed.
void rescale_velocities(Stores<WritesBodies, WritesParticles, WritesContacts> w, float ratio);
// Once per step. Reads: gravity, forces, torques, drag, masses. Writes: scratch accelerations,
// damping, the runs of awake moving rigid bodies and the list of awake soft bodies.
void prepare_forces(Stores<ReadsConfig, RunsTasks, WritesBodies, WritesParticles, WritesScratch> w,
                    float h);
// One substep's velocity integration. Reads: accelerations, damping. Writes: motion d (rigid
// bodies) and particle motion (soft bodies). scatter_first: the stage first moves its range's
// solver bodies back to the body arrays; gather_after: it gathers them afresh after (the fused
// path of run_substeps).
void add_integrate_velocity_stages(WorldState& w, std::vector<TaskSystem::Stage>& stages, float h,
                                   bool scatter_first, bool gather_after, int phase);
// One substep's position integration. Reads: motion. Writes: poses (rigid) and particles (soft).
void add_integrate_position_stages(WorldState& w, std::vector<TaskSystem::Stage>& stages, float h,
                                   bool scatter_first, bool gather_after, int phase);
// Moves every solver body's motion back to the body arrays (the end of the fused path).
void add_scatter_solver_bodies_stage(WorldState& w, std::vector<TaskSystem::Stage>& stages,
                                     int phase);

// Motion locks (BodyDef::lock_x, lock_y; World::set_motion_locks; solver/step/motion_locks.cpp):
// bodies [lo, hi) put back on their locked axes, the centre of mass at its held coordinate
// (BodyArrays::lock_at) and the motion along the axis 0. Only dynamic bodies; nothing while no
// body is locked. After positions integrate (so neither gravity, forces nor contacts move a
// locked axis) and after the substeps (joints' projection, the continuous pass, restitution).
void apply_motion_locks(Stores<WritesBodies> w, std::uint32_t lo, std::uint32_t hi);
// The same over the runs the solver may have moved (scratch.solver_runs), after the step's
// last change of motion and pose.
void apply_motion_locks_to_solver_runs(Stores<WritesBodies, ReadsScratch> w);
// One body's motion along its locked axes set to 0 (velocity setters and impulses).
void drop_locked_motion(WorldState& w, std::uint32_t k);

}  // namespace strut
