// The world's internal state: its stores, flat arrays with no pointers between objects.
// Everything the solver touches per substep is structure-of-arrays; cold data
// (definitions kept for output) lives apart.
#pragma once

#include <cstdint>

#include "solver/bodies/body_store.hpp"
#include "solver/bodies/collider_store.hpp"
#include "solver/contacts/callback_store.hpp"
#include "solver/contacts/contact_store.hpp"
#include "solver/contacts/event_store.hpp"
#include "solver/contacts/pair_store.hpp"
#include "solver/core/step_timing.hpp"
#include "solver/core/task_system.hpp"
#include "solver/islands/island_store.hpp"
#include "solver/joints/joint_store.hpp"
#include "solver/query/query_store.hpp"
#include "solver/soft/soft_store.hpp"
#include "solver/step/step_scratch.hpp"
#include "strut/world.hpp"

namespace strut {

// Throws strut::Error naming the first setting out of range (World's constructor, snapshots).
void validate_config(const WorldConfig &config);

namespace detail {

// Everything a world holds (World keeps it behind a pointer, so the public header shows none of
// it): its stores, each owned by one subsystem and declared in that subsystem's folder. A store
// that has SoA columns is those columns (its base, whose for_each_column adding and compacting go
// through) plus its ids and bookkeeping. The engine's stages and the facade in solver/world*.cpp
// read and write it.
struct WorldState {
  WorldConfig config;
  TaskSystem tasks;
  StepTiming timing;
  BodyStore bodies;
  ColliderStore colliders;
  ParticleArrays particles;  // colliders' vertices and soft bodies' points
  SoftStore soft;
  JointStore joints;
  PairStore pairs;
  ContactStore contacts;
  IslandStore islands;
  EventStore events;
  CallbackStore callbacks;
  QueryStore queries;
  StepScratch scratch;
  ProfileStore profile;
  // Every member a snapshot stores (solver/world_snapshot.cpp), named for its errors, in order.
  // Not listed: config (stored first, before the world is made) and tasks (the thread pool,
  // made for the threads asked for at loading), the callbacks (the World object's), and the
  // profile (a loaded world's starts at 0).
  template <class F>
  void for_each_section(F &&f) {
    f("last_h", timing.last_h);
    f("last_substeps", timing.last_substeps);
    f("step_index", timing.step_index);
    f("bodies", static_cast<BodyArrays &>(bodies));
    f("threshold_joints", joints.threshold_count);
    f("joint_events", events.joint);
    f("locked_bodies", bodies.locked_count);
    f("surface_colliders", colliders.surface_count);
    f("custom_filter_colliders", colliders.custom_filter_count);
    f("pre_solve_colliders", colliders.pre_solve_count);
    f("colliders", static_cast<ColliderArrays &>(colliders));
    f("collider_slots", colliders.slots);
    f("shape_slots", colliders.shape_slots);
    f("shapes", colliders.shapes);
    f("particles", particles);
    f("struts", soft.struts);
    f("cold", bodies.cold);
    f("slots", bodies.slots);
    f("needs_compaction", bodies.needs_compaction);
    f("first_dead", bodies.first_dead);
    f("visited_flags", bodies.visited_flags);
    f("edited_bodies", bodies.edited);
    f("awake_runs", bodies.awake_runs);
    f("sleeping_bodies", bodies.sleeping_count);
    f("kinematic_bodies", bodies.kinematic_count);
    f("island_sleepers", islands.sleepers);
    f("dense_moved", bodies.dense_moved);
    f("joints_need_compaction", joints.need_compaction);
    f("joints_version", joints.version);
    f("joints", joints.dense);
    f("joint_slots", joints.slots);
    f("joint_user_data", joints.user_data);
    f("joints_of_body", joints.of_body);
    f("ignored_pairs_dirty", pairs.ignored_dirty);
    f("ignored_pairs", pairs.ignored);
    f("broadphase", pairs.broadphase);
    f("broadphase_pairs", pairs.broadphase_pairs);
    f("motion", bodies.motion);
    f("sweep_x", bodies.sweep_x);
    f("sweep_y", bodies.sweep_y);
    f("spread", bodies.spread);
    f("reach", bodies.step_reach);
    f("extent", bodies.extent);
    f("cached_pairs", pairs.cached);
    f("candidate_pairs", pairs.candidates);
    f("sensor_candidates", pairs.sensor_candidates);
    f("sensor_overlaps", events.sensor_overlaps);
    f("removed_sensor_ends", events.removed_sensor_ends);
    f("enlarged_pairs", pairs.enlarged);
    f("enlarged_sensor_pairs", pairs.enlarged_sensor);
    f("enlarged_version", pairs.enlarged_version);
    f("enlarged_sweeps", pairs.sweeps);
    f("filter_verdicts", callbacks.filter_verdicts);
    f("contacts", static_cast<ContactSet &>(contacts));
    f("contact_softness", contacts.softness);
    f("static_softness", contacts.static_softness);
    f("contact_colours", contacts.colours);
    f("joint_colours", joints.colours);
    f("point_motion", joints.point_motion);
    f("strut_colours", soft.colours);
    f("strut_groups", soft.groups);
    f("strut_group_begin", soft.group_begin);
    f("strut_lanes", soft.lanes);
    f("scratch", scratch);
    f("floor_grids", colliders.floor_grids);
    f("begin_events", events.begin);
    f("end_events", events.end);
    f("hit_events", events.hit);
    f("sensor_begin_events", events.sensor_begin);
    f("sensor_end_events", events.sensor_end);
    f("events_read", events.read);
    f("sleeping_touches", events.sleeping_touches);
    f("query_index", queries.index);
    f("static_index", queries.static_index);
    f("body_edits", bodies.edits);
  }

  explicit WorldState(const WorldConfig &c)
      : config(c), tasks(c.external_arena ? TaskSystem(c.external_arena) : TaskSystem(c.threads)) {}

  // Id helpers: throw strut::Error for null, out-of-range or stale ids.
  std::uint32_t dense_of(BodyId id, const char *what) const;
  std::uint32_t joint_dense_of(JointId id, const char *what) const;
  // Throw strut::Error naming the call and the body: a static body cannot be given a velocity,
  // a static or kinematic one cannot take forces or impulses.
  void require_movable(std::uint32_t dense, const char *what) const;
  void require_dynamic(std::uint32_t dense, const char *what) const;
  // Adds to the accumulated force and torque, or throws (nothing added) when the result would
  // exceed limits::kMaxAcceleration or kMaxAngularAcceleration.
  void add_force(std::uint32_t dense, Vec2 force, double torque, const char *what);
  // add_force once check_force has passed.
  void add_checked_force(std::uint32_t dense, Vec2 force, double torque);
  // What add_force checks, without adding.
  void check_force(std::uint32_t dense, Vec2 force, double torque, const char *what) const;
  // What set_linear_velocity, set_angular_velocity and apply_force check (naming `call`), without
  // changing anything; each returns the body's dense index.
  std::uint32_t check_linear_velocity(BodyId id, Vec2 v, const char *call) const;
  std::uint32_t check_angular_velocity(BodyId id, float omega, const char *call) const;
  std::uint32_t check_central_force(BodyId id, Vec2 force, const char *call) const;
};

}  // namespace detail

using detail::state_of;
using detail::WorldState;

}  // namespace strut
