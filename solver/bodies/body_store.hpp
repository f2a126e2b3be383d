// Bodies and their particles: the per-body columns, ids, definitions and the bookkeeping
// of which bodies a step visits (part of the world's state, solver/world_state.hpp).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "solver/core/id_pool.hpp"
#include "strut/world.hpp"

namespace strut {

enum BodyFlag : std::uint8_t {
  kStatic = 1,     // never moves, infinite mass
  kKinematic = 2,  // moves by its velocity only, infinite mass
  kSoft = 4,       // particles + struts are the state; otherwise the pose is the state
  kBullet = 8,
  kSleeping = 16,
  kSensorOnly = 32,  // every collider of the body is a sensor: it never touches anything
  kDead = 64,        // destroyed, removed at the next compaction
  kNoSleep = 128,    // BodyDef::enable_sleep false: never still, so its island never sleeps
};

// BodyArrays::locks bits.
enum MotionLock : std::uint8_t { kLockX = 1, kLockY = 2 };

// A body's pose at the start of a step: centre of mass and rotation.
struct StartPose {
  Vec2 position;
  Rot rotation;
};

// Per-body solver state, SoA. Rigid bodies (not kSoft) carry their pose (centre
// of mass position p and rotation q = (cos, sin)) and the motion of the last
// substep: d = p - p_prev and the angle turned, da (angular velocity = da / h).
// This is position Verlet (velocity = d / h), but the motion is stored instead
// of p_prev: recomputing p - p_prev in float loses the small per-substep
// increments far from the origin (at y = 100 m gravity's g h^2 is only ~20
// ulps, and the rounding biased a projectile's speed by 1.5% in a second).
// Every position correction adds to both p and d, exactly as it would to p
// alone with p_prev fixed. Soft bodies keep their state in particles; for them
// p/q and d/dq are a best fit refreshed after each step for reporting.
struct BodyArrays {
  std::vector<std::uint32_t> slot;  // id slot of each dense body
  std::vector<std::uint8_t> flags;
  std::vector<std::uint32_t> particle_begin;
  std::vector<std::uint32_t> particle_count;  // its colliders' vertices (+ a soft body's centre)
  std::vector<std::uint32_t> collider_begin, collider_count;  // its colliders, dense
  std::vector<std::uint32_t> strut_begin;
  std::vector<std::uint32_t> strut_count;
  std::vector<float> px, py, qc, qs;         // pose now
  std::vector<float> dx, dy, da;             // motion of the last substep
  std::vector<float> inv_mass, inv_inertia;  // 0 for static and kinematic bodies
  std::vector<float> mass, inertia;          // true values (also for kinematic)
  std::vector<float> reach;  // farthest surface point from the centre of mass (set at creation)
  std::vector<float> gravity_scale, drag, angular_drag;
  // Accumulated until the end of the next step.
  std::vector<float> fx, fy, torque;
  std::vector<float> sleep_time;
  // Pose at the start of the last step (interpolation, the continuous pass), kept as a rotation:
  // its angle is only needed when interpolated_transform asks, and an atan2 per body per step
  // would be a measurable share of a pile's step.
  std::vector<StartPose> before_step;
  std::vector<Aabb> aabb;             // tight box of the last step's start, all colliders
  std::vector<std::uint32_t> island;  // root slot of the body's island at the last step
  // Motion locks (BodyDef::lock_x, lock_y): bit kLockX, kLockY; and where the centre of mass is
  // held along the locked axes (solver/bodies/motion_locks.cpp).
  std::vector<std::uint8_t> locks;
  std::vector<Vec2> lock_at;

  // Calls f(column) for every column above. Adding and compacting bodies go through this one
  // list, so no column can be left out of either (body_storage_test checks that it names every
  // member).
  template <class F>
  void for_each_column(F &&f) {
    f(slot), f(flags), f(particle_begin), f(particle_count), f(collider_begin), f(collider_count);
    f(strut_begin), f(strut_count), f(px), f(py), f(qc), f(qs), f(dx), f(dy), f(da);
    f(inv_mass), f(inv_inertia), f(mass), f(inertia), f(reach), f(gravity_scale), f(drag);
    f(angular_drag), f(fx), f(fy), f(torque), f(sleep_time), f(before_step), f(aabb), f(island);
    f(locks), f(lock_at);
  }
  std::size_t size() const { return slot.size(); }
  bool is_rigid(std::uint32_t b) const { return (flags[b] & kSoft) == 0; }
};

// Particles, SoA. For a rigid body the particles are its colliders' vertices, derived
// from the pose (x = p + q * local); for a soft body they are the state (x, and
// d = x - x_prev).
struct ParticleArrays {
  std::vector<float> x, y;  // world position
  // Displacement over the last substep (soft bodies only).
  std::vector<float> dx, dy;
  std::vector<float> w;       // inverse mass (soft bodies)
  std::vector<float> lx, ly;  // rest position relative to the centre of mass
  std::vector<std::uint32_t> body;
  // Offset from a collider vertex to the next one of its collider (the end of the edge it
  // starts): +1, or back to the collider's first vertex; 0 for a circle or a soft body's centre.
  std::vector<std::int8_t> next;

  // Every column, as BodyArrays::for_each_column.
  template <class F>
  void for_each_column(F &&f) {
    f(x), f(y), f(dx), f(dy), f(w), f(lx), f(ly), f(body), f(next);
  }
  std::size_t size() const { return x.size(); }
};

// What a body was made from, kept for World::definition and scene saving.
struct BodyCold {
  BodyDef def;      // as created (shapes as added since); pose/velocity refreshed on request
  Vec2 com_offset;  // centre of mass relative to def.center, in body coordinates
  std::vector<std::uint32_t> shapes;  // shape slots, in the order they were added
  template <class F>
  void for_each_field(F &&f) {
    f(def), f(com_offset), f(shapes);
  }
};

// Bodies: their columns, ids and definitions, and the bookkeeping of which a step visits.
struct BodyStore : BodyArrays {
  std::vector<BodyCold> cold;  // per dense body
  IdPool slots{"body"};        // body slots; dense index into the columns
  bool needs_compaction = false;
  std::uint32_t first_dead = ~0u;  // the lowest dense index destroyed since the last compaction
  // The bodies a step visits (solver/step/visited_bodies.hpp). Per dense body, its flags when a
  // step last visited it; the bodies the program or the step changed since (flags, pose, motion,
  // forces: mark_body_edited); the runs of bodies that were not idle then, and how many slept and
  // were kinematic.
  std::vector<std::uint8_t> visited_flags;
  std::vector<std::uint32_t> edited;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> awake_runs;
  std::uint32_t sleeping_count = 0, kinematic_count = 0;
  bool dense_moved = false;  // compaction moved bodies since the last narrow phase
  // Bodies with a motion lock (BodyArrays::locks non-zero), destroyed ones until the compaction:
  // while 0, no stage looks at the locks (solver/bodies/motion_locks.cpp).
  std::uint32_t locked_count = 0;
  // Per body, set by update_bounds each step: how far any point may move this step; the motion
  // split for the broad phase's swept boxes (the displacement at the step's starting velocity
  // for rigid bodies, and the rest, which may go any way: turning, gravity, a soft body's whole
  // motion); the farthest surface point from the centre of mass; the longer side of the tight box.
  std::vector<float> motion;
  std::vector<float> sweep_x, sweep_y, spread;
  std::vector<float> step_reach;
  std::vector<float> extent;
  // Counts creations, removals and teleports: the query indexes are rebuilt when it changed.
  std::uint64_t edits = 0;

  BodyId id_of_dense(std::uint32_t dense) const { return slots.id_of<BodyId>(slot[dense]); }
};

}  // namespace strut
