// The world's internal state: flat arrays, no pointers between objects.
// Everything the solver touches per substep is structure-of-arrays; cold data
// (definitions kept for output) lives apart.
#pragma once

#include <cstdint>
#include <exception>
#include <unordered_map>
#include <vector>

#include "broadphase/sweep_and_prune.hpp"
#include "solver/collide/manifold.hpp"
#include "solver/contacts/contact.hpp"
#include "solver/contacts/contact_features.hpp"
#include "solver/contacts/contact_wide.hpp"
#include "solver/core/id_pool.hpp"
#include "solver/core/task_system.hpp"
#include "solver/islands/colouring.hpp"
#include "solver/joints/joint.hpp"
#include "solver/query/query_index.hpp"
#include "solver/soft/strut_kernel.hpp"
#include "solver/soft/strut_lanes.hpp"
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

// ColliderArrays::callbacks bits: the shape asks the world's custom filter about its new pairs
// (ShapeDef::custom_filter), or the pre-solve callback about its contacts (ShapeDef::pre_solve).
enum CallbackFlag : std::uint8_t { kCustomFilter = 1, kPreSolve = 2 };

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
};

// Colliders, SoA, dense in body order (a body's are contiguous): the convex pieces a body's
// shapes are made of (solver/shapes/shape_ops.hpp), each one broad-phase proxy keyed by its slot.
// A collider's vertices are particles of its body, from particle_begin + vertex_begin.
struct ColliderArrays {
  std::vector<std::uint32_t> slot;   // collider slot (broad-phase proxy, contact pair keys)
  std::vector<std::uint32_t> body;   // dense body
  std::vector<std::uint32_t> shape;  // shape slot (the public ShapeId it belongs to)
  std::vector<collide::ColliderKind> kind;
  std::vector<std::uint8_t> count;          // vertices
  std::vector<std::uint32_t> vertex_begin;  // first vertex, relative to the body's particles
  std::vector<float> radius;
  std::vector<float> friction, static_friction, restitution;
  // The material's mixing rules (MixRule): friction's in the low four bits, restitution's in the
  // high four; 0 for the Default rules, which the narrow phase then applies without looking
  // further (collide_pair.cpp).
  std::vector<std::uint8_t> mix_rules;
  std::vector<std::uint32_t> category, mask;
  std::vector<std::int32_t> group;
  std::vector<std::uint8_t> sensor;
  // ShapeDef::custom_filter and pre_solve as CallbackFlag bits (solver/step/custom_filter.cpp,
  // solver/step/pre_solve.cpp).
  std::vector<std::uint8_t> callbacks;
  std::vector<std::uint16_t> internal_edges;  // tile map seams
  // ShapeDef::tangent_speed and rolling_resistance (the contacts' surface rows, WideSurface).
  std::vector<float> tangent_speed, rolling_resistance;
  // Chain segments: the neighbouring chain points relative to the centre of mass (like lx, ly),
  // and whether they exist (bit 0: before vertex 0, bit 1: after vertex 1).
  std::vector<Vec2> ghost_prev, ghost_next;
  std::vector<std::uint8_t> ghosts;
  std::vector<Aabb> aabb;  // tight box at the last step's start

  // Every column, as BodyArrays::for_each_column.
  template <class F>
  void for_each_column(F &&f) {
    f(slot), f(body), f(shape), f(kind), f(count), f(vertex_begin), f(radius), f(friction);
    f(static_friction), f(restitution), f(mix_rules), f(category), f(mask), f(group), f(sensor);
    f(callbacks), f(internal_edges), f(tangent_speed), f(rolling_resistance), f(ghost_prev),
        f(ghost_next);
    f(ghosts), f(aabb);
  }
  std::size_t size() const { return slot.size(); }
};

// ColliderArrays::mix_rules of a material.
inline std::uint8_t mix_rules_of(const Material &m) {
  return std::uint8_t(std::uint8_t(m.friction_mix) | std::uint8_t(m.restitution_mix) << 4);
}

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

// Distance constraint between two particles of one soft body (XPBD).
struct Strut {
  std::uint32_t a, b;  // particle indices
  float rest;
  float compliance;
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

// A shape as the program made it (World::add_shape, BodyDef), by shape slot.
struct ShapeRecord {
  std::uint32_t body = 0;  // body slot
  ShapeDef def;
  // Tile maps: the box's edges shared with neighbouring solid tiles (ColliderArrays::
  // internal_edges), kept here so that they survive a relayout of the body.
  std::uint16_t internal_edges = 0;
  template <class F>
  void for_each_field(F &&f) {
    f(body), f(def), f(internal_edges);
  }
};

// The floor tiles of one tile map (solver/shapes/tile_map.cpp), read by the floor friction stage
// (solver/step/floor_friction.cpp): per tile, row-major, the floor's kinetic friction
// coefficient, or -1 where the tile is no floor.
struct FloorGrid {
  Vec2 origin;  // top-left corner
  float tile_size = 1.0f;
  int rows = 0, cols = 0;
  float gravity = 10.0f;     // TileMapDef::floor_gravity
  float stop_speed = 0.01f;  // TileMapDef::floor_stop_speed
  std::vector<float> friction;
  template <class F>
  void for_each_field(F &&f) {
    f(origin), f(tile_size), f(rows), f(cols), f(gravity), f(stop_speed), f(friction);
  }
};

// The custom filter's answer for a pair of shapes (solver/step/custom_filter.cpp): the key of
// their shape slots, the first of the sweep's collider pairs that named them, and the answer
// (kAsk: not answered yet, or the filter threw).
struct FilterVerdict {
  enum : std::uint8_t { kReject = 0, kCollide = 1, kAsk = 2 };
  std::uint64_t key = 0;
  std::uint32_t first = 0;
  std::uint8_t verdict = kAsk;
  std::uint8_t unused[3] = {};  // no padding: snapshots store the bytes
};

// One chunk's narrow-phase output, merged in chunk order. The per-pair rows are valid up to
// `pairs`, the separations of reused points up to `reused_points`; the buffers only grow.
struct NarrowChunk {
  std::vector<ContactPoint> points;       // of pairs collided afresh
  std::vector<std::uint8_t> reused_pair;  // features came from the cache
  std::size_t pairs = 0;
  std::size_t point_count = 0;  // both kinds
  bool same_counts = false;     // every pair is last step's pair of the same index and count
  // Every pair collided afresh has its first point between the bodies of last step's first
  // point (colour_contacts keeps the colouring when, with same_counts, this holds).
  bool same_bodies = false;
  bool bouncy = false;  // a pair collided afresh has restitution on its first point
  std::vector<std::uint64_t> keys;
  std::vector<std::uint8_t> touching;
  std::vector<float> deepest;
  std::vector<std::uint32_t> counts;
  std::vector<std::uint32_t> previous;
  std::vector<PairCache> caches;
  std::size_t first_pair = 0, first_point = 0;  // where the chunk lands in the merged lists
  template <class F>
  void for_each_field(F &&f) {
    f(points), f(reused_pair), f(pairs), f(point_count), f(same_counts), f(same_bodies);
    f(bouncy), f(keys), f(touching), f(deepest), f(counts), f(previous), f(caches);
    f(first_pair), f(first_point);
  }
};

// A union-find over body indices (colour_contacts.cpp's push-out clusters) that is the identity
// between uses: a step touches only the bodies its pairs name, lists them in `touched`, and puts
// them back, so a step with a few joining pairs does not pay per body.
struct BodyClusters {
  std::vector<std::uint32_t> parent;
  std::vector<float> bodies;           // per root: its cluster's bodies (0 between uses)
  std::vector<std::uint8_t> listed;    // per index: in `touched` (0 between uses)
  std::vector<std::uint16_t> deep;     // per index: its deep pairs, saturating (0 between uses)
  std::vector<std::uint32_t> touched;  // indices united this use, in pair order
  template <class F>
  void for_each_field(F &&f) {
    f(parent), f(bodies), f(listed), f(deep), f(touched);
  }
};

// Per-step scratch, reused between steps so a steady-state step allocates
// nothing.
struct StepScratch {
  std::vector<float> ax, ay, alpha, damping, angular_damping;  // per body
  std::vector<float> pax, pay, pdamping;                       // per particle (soft bodies)
  // The bodies this step visits (solver/step/visited_bodies.hpp), as runs of dense indices; the
  // same plus the sleepers of this step's contact pairs, which the solver may move; the awake
  // moving rigid bodies among them, which integrate.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> body_runs, solver_runs, rigid_runs;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> collider_runs;  // of the body runs
  std::vector<std::uint32_t> touched_sleepers;  // find_solver_bodies' sleepers, sorted
  std::vector<std::uint32_t> woken;             // bodies woken after this step's solve
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sleep_runs;  // body runs and the woken
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edited_awake_runs;  // awake runs' update
  std::vector<std::uint32_t> soft_bodies;
  std::vector<float> strut_lambda;  // XPBD multipliers, reset every substep
  std::vector<std::uint32_t> island_parent;
  std::vector<float> island_min_time;      // indexed by root slot
  std::vector<std::uint32_t> island_wake;  // islands (root slots) to wake after this step's solve
  std::vector<std::uint8_t> moving;        // per body: may be written by the solver (set each step)
  std::uint64_t moving_version = 0;        // counts the changes of `moving`
  std::uint64_t coloured_moving_version = ~std::uint64_t{0};  // when contacts were last coloured
  std::uint64_t joints_coloured_moving_version = ~std::uint64_t{0};  // and joints
  std::vector<std::uint32_t> pair_a, pair_b, joint_a, joint_b;
  std::vector<float> crowded_pushes;  // per body: its pairs' pushes (empty: none can be crowded)
  std::vector<float> body_pushes;     // per body: push_out_scale's input (empty: every scale 1)
  BodyClusters free_clusters, crowd_clusters;  // push-out clusters (colour_contacts.cpp)
  // Per pair: a crowd pair (colour_contacts.cpp), this recolouring's and the one before's.
  std::vector<std::uint8_t> crowd_pair, old_crowd_pair;
  std::vector<std::uint32_t> deep_pair_list;    // colour_contacts.cpp: this step's new deep pairs
  std::vector<std::uint32_t> strut_a, strut_b;  // strut colouring input
  std::vector<std::uint32_t> strut_ids;         // strut colouring: strut index of each input
  std::vector<std::uint8_t> particle_moving;    // per particle: w > 0 (strut colouring)
  std::vector<NarrowChunk> narrow_chunks;
  std::vector<std::uint8_t> chunk_flags;  // one per chunk of a parallel check
  std::vector<std::uint8_t> old_still_touching;
  std::vector<std::uint8_t> woke_touching;     // contact_events.cpp: per sleeping touch, it woke
  std::vector<std::uint32_t> multi_pairs;      // prepare: a colour's pairs of several constraints
  std::vector<std::uint32_t> wide_lane_a;      // prepare: body a of each wide lane
  std::vector<std::uint32_t> wide_lane_ids;    // contact constraint of each wide lane, ~0 = padding
  std::vector<std::uint32_t> wide_lane_pairs;  // prepare: pair of each wide lane, ~0 = padding
  std::vector<float> fast_hit;                 // continuous pass: first hit fraction per body
  std::vector<std::uint8_t> fast_flag;         // continuous pass: fast (1) or pressed deep (2)
  // Body poses at the step start (contact anchors); p0x, p0y also hold the spare zero body's.
  std::vector<float> p0x, p0y, q0c, q0s;
  std::vector<PrepareBody> prepare_bodies;  // one per body plus a spare zero body (padding)
  // Bodies whose push scale raise_pushes set this colouring, and whose prepare rows hold one
  // other than 1 since the last prepare; body_pushes copied from crowded_pushes (every body may
  // have one), this step and the last.
  std::vector<std::uint32_t> pushed_bodies, scaled_bodies;
  bool dense_pushes = false, dense_pushes_left = false;
  std::vector<SolverBody> solver_bodies;  // one per body plus a spare zero body (wide padding)
  std::vector<TaskSystem::Stage> contact_stages;
  std::vector<TaskSystem::Stage> substep_stages;
  std::vector<std::uint32_t> chunk_counts;  // per-chunk counts of a parallel compaction
  // SoA tight boxes (bounds kernel), per dense collider.
  std::vector<float> tight_lx, tight_ly, tight_ux, tight_uy;
  std::vector<float> fat_lx, fat_ly, fat_ux, fat_uy;  // broad-phase boxes
  // Each collider's body's sweep and spread (BodyStore::sweep_x, ...).
  std::vector<float> collider_sweep_x, collider_sweep_y, collider_spread;
  // Enlarged boxes of the last sweep per dense collider, and the flags the bodies had then.
  std::vector<float> enlarged_lx, enlarged_ly, enlarged_ux, enlarged_uy;
  std::vector<std::uint8_t> enlarged_flags;
  std::vector<std::uint8_t> pair_class;  // per broad-phase pair: dropped, contact or sensor
  // The enlarged pairs' counting sort by first collider (step/candidate_pairs.cpp): offsets per
  // collider, and the sorted list before it is swapped in.
  std::vector<std::uint32_t> pair_group_begin;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> grouped_pairs;
  std::vector<FilterVerdict> next_verdicts;  // the custom filter's answers of this sweep
  // Collider-pair keys whose contacts the pre-solve callback disabled this step, sorted (the
  // continuous pass skips them).
  std::vector<std::uint64_t> pre_solve_disabled;

  // Every member but the stage lists, which each step builds afresh and which hold functions.
  template <class F>
  void for_each_field(F &&f) {
    f(ax), f(ay), f(alpha), f(damping), f(angular_damping), f(pax), f(pay), f(pdamping);
    f(body_runs), f(solver_runs), f(rigid_runs), f(collider_runs), f(touched_sleepers), f(woken);
    f(sleep_runs), f(edited_awake_runs), f(soft_bodies), f(strut_lambda), f(island_parent);
    f(island_min_time), f(island_wake), f(moving), f(moving_version), f(coloured_moving_version);
    f(joints_coloured_moving_version), f(pair_a), f(pair_b), f(joint_a), f(joint_b);
    f(crowded_pushes), f(body_pushes), f(free_clusters), f(crowd_clusters), f(crowd_pair);
    f(old_crowd_pair), f(deep_pair_list), f(strut_a), f(strut_b), f(strut_ids);
    f(particle_moving), f(narrow_chunks), f(chunk_flags), f(old_still_touching), f(woke_touching);
    f(multi_pairs);
    f(wide_lane_a), f(wide_lane_ids), f(wide_lane_pairs), f(fast_hit), f(fast_flag), f(p0x);
    f(p0y), f(q0c), f(q0s), f(prepare_bodies), f(pushed_bodies), f(scaled_bodies);
    f(dense_pushes), f(dense_pushes_left), f(solver_bodies), f(chunk_counts), f(tight_lx);
    f(tight_ly), f(tight_ux), f(tight_uy), f(fat_lx), f(fat_ly), f(fat_ux), f(fat_uy);
    f(collider_sweep_x), f(collider_sweep_y), f(collider_spread), f(enlarged_lx), f(enlarged_ly);
    f(enlarged_ux), f(enlarged_uy), f(enlarged_flags), f(pair_class), f(pair_group_begin);
    f(grouped_pairs), f(next_verdicts), f(pre_solve_disabled);
  }
};

// Soft constraint coefficients (see make_softness).
struct Softness {
  float bias_rate = 0;
  float mass_scale = 1;
  float impulse_scale = 0;
};

// Throws strut::Error naming the first setting out of range (World's constructor, snapshots).
void validate_config(const WorldConfig &config);

// The world's state is a handful of stores, each owned by one subsystem. A store that has SoA
// columns is those columns (its base, whose for_each_column adding and compacting go through)
// plus its ids and bookkeeping.

// Where the stepping stands.
struct StepTiming {
  float last_h = 1.0f / 240.0f;  // substep length of the last step: implicit velocities use it
  int last_substeps = 0;  // substeps of the last step (World::body_contacts' impulses per step)
  std::uint64_t step_index = 0;
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
};

// Colliders (the convex pieces of shapes, each a broad-phase proxy), the shapes they come from,
// and tile maps' floors.
struct ColliderStore : ColliderArrays {
  // Collider slots key the broad-phase proxies and contact pairs. A removed collider's slot is
  // retired, not released: last step's contacts still name it, so it is reused only after the
  // next narrow phase has replaced those contacts. Its dense index is into the columns.
  IdPool slots{"collider"};
  IdPool shape_slots{"shape"};      // no dense index: a shape's data is shapes[slot]
  std::vector<ShapeRecord> shapes;  // by shape slot
  // Colliders with a tangent speed or rolling resistance, removed ones until the compaction:
  // while 0, the contact prepare fills no surface rows and the passes read none
  // (prepare_contacts.cpp, ContactSet::wide_surface).
  std::uint32_t surface_count = 0;
  // Colliders whose shape sets ShapeDef::custom_filter or pre_solve (callbacks), removed ones
  // until the compaction: while 0, no step looks for pairs to ask about.
  std::uint32_t custom_filter_count = 0, pre_solve_count = 0;
  std::vector<FloorGrid> floor_grids;  // tile maps with floor tiles, in creation order
};

// Soft bodies' distance constraints and how they are solved.
struct SoftStore {
  std::vector<Strut> struts;
  // Coloured struts (only when there are enough of them, see colour_struts): colour c is
  // groups[group_begin[c] .. group_begin[c + 1]), kWideLanes struts a group.
  Colouring colours;
  std::vector<WideStrut> groups;
  std::vector<std::uint32_t> group_begin;
  // Small soft bodies solved one per lane (strut_lanes.hpp); the struts they leave are the ones
  // coloured above or looped over in creation order. It caches strut ends, rest lengths and
  // compliances: code that edits `struts` or renumbers particles sets lanes.dirty.
  StrutLanes lanes;
};

// Joints, their ids and user data, and how they are solved.
struct JointStore {
  std::vector<Joint> dense;
  IdPool slots{"joint"};  // dense index into `dense`
  // User data by slot, with the generation it was set for (a reused slot reads 0).
  struct UserData {
    std::uint32_t generation = 0;
    std::uint64_t value = 0;
  };
  std::vector<UserData> user_data;
  // Live joints with a finite force or torque threshold: while 0, a step looks at no joint for
  // joint events (solver/joint_events.cpp).
  std::uint32_t threshold_count = 0;
  // Joint slots of each body slot, so destroying a body finds its joints without a scan of all
  // joints (rain destroys hundreds of ragdoll bones among 10,000 joints every few steps).
  std::vector<std::vector<std::uint32_t>> of_body;
  bool need_compaction = false;  // dead joints wait in `dense` until the next step
  Colouring colours;
  PointMotion point_motion;  // velocity passes of joint points (solver/joints/point_motion.hpp)
};

// The broad phase and the pairs it finds.
struct PairStore {
  std::vector<std::uint64_t> ignored;  // sorted slot-pair keys of non-colliding joints
  bool ignored_dirty = true;
  broadphase::SweepAndPrune broadphase;  // proxies keyed by collider slot
  std::vector<broadphase::Pair> broadphase_pairs;
  std::size_t cached = 0;  // pairs of the last narrow phase that reused their features
  // Dense collider pairs, lower first, that may touch this step (no sensors).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> candidates;
  // Dense collider pairs (sensor, visitor) whose boxes overlap this step.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sensor_candidates;
  // Pairs of the enlarged boxes last swept (find_candidate_pairs), dense, lower first, and the
  // broad phase's version then: kept while every awake body stays inside its enlarged box.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> enlarged;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> enlarged_sensor;  // sensor first
  std::uint64_t enlarged_version = ~std::uint64_t{0};
  std::size_t sweeps = 0;  // steps whose broad phase swept (tests, profiling)
};

// Contacts: the pairs' points and constraints (ContactSet), their softness and colouring.
struct ContactStore : ContactSet {
  Softness softness, static_softness;
  Colouring colours;  // of contact pairs
};

// Islands that fell asleep.
struct IslandStore {
  // The slots of the bodies that fell asleep in each sleeping island (by its root slot), so that
  // waking an island visits its own bodies; some may have been destroyed or moved to an island
  // of their own since, and are skipped.
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> sleepers;
};

// Events, and what deciding them needs between steps.
struct EventStore {
  // Each list accumulated since the program last read it (contact_events.cpp); `read` has a bit
  // per list read since the last step (List), whose list the next step starts afresh.
  std::vector<ContactEvent> begin, end;
  std::vector<ContactHitEvent> hit;
  std::vector<SensorEvent> sensor_begin, sensor_end;
  std::vector<JointEvent> joint;  // solver/joint_events.cpp
  enum List : std::uint8_t {
    kBeginList = 1,
    kEndList = 2,
    kHitList = 4,
    kSensorBeginList = 8,
    kSensorEndList = 16,
    kJointList = 32,
  };
  mutable std::uint8_t read = 0;
  // Touching pairs (collider slot keys and generations) whose island fell asleep (their contacts
  // are dropped while asleep): no end event then, and no begin event when they wake still
  // touching (contact_events.cpp).
  struct SleepingTouch {
    std::uint64_t key;
    std::uint32_t generation_a, generation_b;
  };
  std::vector<SleepingTouch> sleeping_touches;  // sorted by key
  // Bodies woken and collider slots retired so far, and its value when record_contact_events last
  // checked the sleeping touches. Only a wake or a retired slot can end or forget a touch while
  // the pairs stay as they were, so while the two agree a settled world skips the check.
  // ~0: never checked.
  std::uint64_t wakes_and_retires = 0, touches_checked_at = ~std::uint64_t(0);
  // (sensor shape slot << 32 | visitor shape slot) of the overlaps found last step, sorted.
  std::vector<std::uint64_t> sensor_overlaps;
  // End events of overlaps whose sensor or visitor was removed since the last step.
  std::vector<SensorEvent> removed_sensor_ends;
};

// The program's contact callbacks (strut/contact_callbacks.hpp) and the custom filter's answers.
struct CallbackStore {
  // The callbacks belong to the World object, not its state: snapshots leave them out and
  // restore keeps the world's own (world.cpp).
  CustomFilter custom_filter;
  PreSolve pre_solve;
  std::exception_ptr error;  // the first a callback threw this step, rethrown after it
  // The custom filter's answers for the shape pairs of the last sweep's pairs, sorted by key
  // (solver/step/custom_filter.cpp).
  std::vector<FilterVerdict> filter_verdicts;
};

// Queries (queries.cpp): rebuilt when step_index or BodyStore::edits changed since built.
struct QueryStore {
  mutable QueryIndex index;
  // Static colliders only, for the continuous pass (continuous.cpp), built for BodyStore::edits.
  QueryIndex static_index;
};

struct ProfileStore {
  StepProfile sum;  // sums; profile() divides
  mutable StepProfile mean;
};

namespace detail {

// Everything a world holds (World keeps it behind a pointer, so the public header shows none of
// it): its stores. The engine's stages and the facade in solver/world*.cpp read and write it.
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
  // The body and shape of a live collider slot.
  BodyId body_of_collider(std::uint32_t collider_slot) const {
    return id_of_dense(colliders.body[colliders.slots[collider_slot].dense]);
  }
  ShapeId shape_of_collider(std::uint32_t collider_slot) const {
    return colliders.shape_slots.id_of<ShapeId>(
        colliders.shape[colliders.slots[collider_slot].dense]);
  }
  BodyId id_of_dense(std::uint32_t dense) const {
    return bodies.slots.id_of<BodyId>(bodies.slot[dense]);
  }
  bool is_rigid(std::uint32_t b) const { return (bodies.flags[b] & kSoft) == 0; }
  bool is_moving(std::uint32_t b) const { return (bodies.flags[b] & (kStatic | kDead)) == 0; }
};

}  // namespace detail

using detail::state_of;
using detail::WorldState;

}  // namespace strut
