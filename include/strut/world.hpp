// The simulation world: the whole public surface of the engine. All internal types are hidden
// behind an opaque implementation; bodies and joints are addressed by generation-checked ids.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "strut/body.hpp"
#include "strut/character_mover.hpp"
#include "strut/contact_callbacks.hpp"
#include "strut/error.hpp"
#include "strut/ids.hpp"
#include "strut/joint.hpp"
#include "strut/math.hpp"
#include "strut/tile_map.hpp"

namespace strut {

class DebugDraw;

struct WorldConfig {
  Vec2 gravity{0.0f, -10.0f};
  int substeps = 4;
  int iterations = 1;  // solver iterations per substep
  // Velocity passes per substep (each of solve and relax) for revolute joint points between
  // rigid bodies and the rows weld, prismatic and wheel joints hold rigidly: more hold long
  // jointed structures tighter at a cost (a 10-box welded cantilever: 16 passes halve its sag).
  // 8 is the fewest that keep joint_grid's widest gap under 0.1 m; the passes run in SIMD lanes
  // (solver/joints/point_lanes.hpp), which keeps them cheap (docs/architecture.md).
  int joint_passes = 8;
  // 0 = all cores, 1 = run inline on the calling thread, at most limits::kMaxThreads (256; more
  // throws). At most 8 threads a core run: more would only take turns at every stage's barrier
  // (same results, since no count changes a bit).
  int threads = 0;
  // A tbb::task_arena owned by the embedding program, set through strut/task_arena.hpp. When
  // set, strut runs its parallel phases inside it and `threads` is ignored.
  void* external_arena = nullptr;
  bool enable_sleep = true;
  float sleep_time = 0.5f;             // s of stillness before an island sleeps
  float sleep_speed = 0.05f;           // m/s: a point moving slower than this counts as still
  float restitution_threshold = 1.0f;  // m/s: slower impacts do not bounce
  float contact_slop = 0.005f;         // m: speculative margin added to every body's motion
  float contact_hertz = 45.0f;  // stiffness of contact push-out (capped at 0.1875 x substep rate)
  float contact_damping_ratio = 10.0f;
  float contact_push_max = 3.0f;  // m/s: fastest speed at which overlap is pushed out
  // Reuse a polygon pair's contact features while the two bodies have moved less, relative to
  // each other, than the extra margin they were found with (see solver/step/collide_pair.cpp). Off:
  // every pair runs SAT and clipping every step, as Box2D does.
  bool contact_cache = true;
  // m/s: a pair that begins touching while closing faster than this makes a hit event.
  float hit_event_threshold = 1.0f;
  // Record contact events. They pile up until read, so a program that never reads them should
  // turn them off (or its memory grows with every contact that begins).
  bool contact_events = true;
};

// Mean time per step of each phase, in milliseconds, over the last `steps` steps
// (reset by World::reset_profile). broad_phase includes the bounds pass; islands is marking
// touched sleeping islands, building islands and colouring; solve is contact preparation, warm
// start and the biased contact pass plus joints and struts; velocity is the relax pass,
// continuous collision and restitution; sleep is waking the marked islands, the sleep pass and
// contact events. Phases inside the substeps' parallel region are timed by the thread that
// finishes each stage's last chunk, so they add up to wall time.
struct StepProfile {
  double integrate = 0, broad_phase = 0, narrow_phase = 0, islands = 0, solve = 0, velocity = 0,
         sleep = 0, total = 0;
  std::uint64_t steps = 0;
};

// A blast (World::explode): every solid shape of a dynamic rigid body within radius + falloff of
// `position` is pushed straight away from it, at its point nearest the centre, by
// impulse_per_length (N s per metre) times the shape's width seen from the centre; full
// strength out to `radius`, then falling linearly to 0 at radius + falloff. Negative
// impulse_per_length pulls (an implosion). Only shapes whose category meets `mask` are pushed.
struct ExplosionDef {
  Vec2 position;
  float radius = 1.0f;
  float falloff = 0.0f;
  float impulse_per_length = 1.0f;
  std::uint32_t mask = 0xFFFFFFFFu;
};

struct RayHit {
  BodyId body;
  Vec2 point;
  Vec2 normal;
  float fraction = 0.0f;  // along the ray, 0 at `from`, 1 at `to`
  ShapeId shape;          // the body's shape that was hit
};

// A pair of bodies that began or stopped touching. Begin events carry the manifold at the end of
// the step it began in: up to two points (world coordinates, on the surface of b) and the normal
// from a to b. End events carry only the bodies (point_count 0).
struct ContactEvent {
  BodyId a;
  BodyId b;
  ShapeId shape_a;  // the two shapes that touch (a body may have several)
  ShapeId shape_b;
  Vec2 normal;
  int point_count = 0;
  Vec2 points[2];
};

// A pair that began touching while closing faster than WorldConfig::hit_event_threshold: the
// point that closed fastest, the normal from a to b, and the speed of approach along it before
// the impact (m/s, positive).
struct ContactHitEvent {
  BodyId a;
  BodyId b;
  Vec2 point;
  Vec2 normal;
  float approach_speed = 0.0f;
};

// One point of a touching pair now (World::body_contacts): where it is (world coordinates, on
// the surface of b), its separation at the current poses (m; negative: overlap) and the impulses
// the solver applied there in the last step (N s): normal_impulse pushes b away from a along
// the pair's normal, tangent_impulse acts on b along (normal.y, -normal.x); a applies the
// opposite. The solver keeps each point's impulse of the last substep (accumulated over that
// substep and warm-started from the one before); these are that impulse times the step's
// substeps, so they are the step's total exactly while the contact is steady (a body at rest
// presses m g dt a step) and otherwise the last substep's rate over the whole step. A
// speculative point (not yet pressed) has a positive separation and zero impulses.
struct ContactPointData {
  Vec2 point;
  float separation = 0.0f;
  float normal_impulse = 0.0f;
  float tangent_impulse = 0.0f;
};

// A pair of shapes touching now, as the last step left it: the bodies and shapes (a is the one
// whose shape has the lower internal slot, as in ContactEvent; the body asked about may be
// either), the normal from a to b, and up to two points (a pair with more keeps the two with
// the largest normal impulse).
struct ContactData {
  BodyId a;
  BodyId b;
  ShapeId shape_a;
  ShapeId shape_b;
  Vec2 normal;
  int point_count = 0;
  ContactPointData points[2];
};

// A joint whose reaction in the last step exceeded a threshold (JointDef's force_threshold or
// torque_threshold, set_joint_force_threshold...): the reaction force on b (N) and torque
// (N m) of the step's last substep, as joint_reading gives them.
struct JointEvent {
  JointId joint;
  Vec2 force;
  float torque = 0.0f;
};

// What a body looks like right now, for rendering and output.
// One shape as it is now: world vertices (a circle: its centre; a capsule or segment: its two
// ends; a polygon: counter-clockwise; a chain: its points) and the radius around them.
struct ShapeState {
  ShapeId id;
  ShapeKind kind = ShapeKind::Polygon;
  float radius = 0.0f;
  bool sensor = false;
  bool loop = false;  // chains
  std::vector<Vec2> vertices;
};

struct BodyState {
  ShapeKind kind = ShapeKind::Polygon;
  bool is_static = false;
  bool sleeping = false;
  Transform transform;
  Vec2 velocity;
  float angular_velocity = 0.0f;
  // The first shape, as before compound bodies: its kind, radius and world vertices.
  float radius = 0.0f;
  std::vector<Vec2> vertices;
  std::vector<ShapeState> shapes;  // every shape, in the order they were added
};

class World;

namespace detail {
// The state a World owns. The library defines it; nothing in the public API shows it.
struct WorldState;
WorldState& state_of(World& world);
const WorldState& state_of(const World& world);
}  // namespace detail

class World {
 public:
  explicit World(const WorldConfig& config = {});
  ~World();
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  // A copy of the world as it is now, with everything a step reads (contacts and their warm
  // starts, joints' multipliers, sleep timers, pending forces, ids and their generations, user
  // data, unread events): stepped alike, the copy and the original continue bit-identically. For
  // searches that branch, resets to a saved state, rollback. The copy runs on the same threads.
  World copy() const;
  // This world becomes a copy of `state` (as copy() makes), reusing its own memory: a reset to a
  // saved state costs about what copying the state's data does.
  void restore(const World& state);
  // The world as bytes: what copy() keeps, so that a world made from them (from_snapshot, or
  // restore into any world) continues bit-identically to this one, at any thread count. The
  // format is this build's (its version and memory layout are checked when it is read); a
  // loaded world's profile starts from zero.
  std::vector<std::uint8_t> snapshot() const;
  // A world from snapshot bytes, running on `threads` (as WorldConfig::threads). Throws
  // strut::Error "bytes A-B: <field>: <problem>" for a damaged, truncated or foreign snapshot.
  static World from_snapshot(std::span<const std::uint8_t> bytes, int threads = 0);
  // This world becomes the snapshot's, keeping its own threads; unchanged when it throws.
  void restore(std::span<const std::uint8_t> bytes);

  const WorldConfig& config() const;
  void set_gravity(Vec2 gravity);
  void set_substeps(int substeps);
  void set_iterations(int iterations);

  // Bodies. Every call validates its input and throws strut::Error (world unchanged) on bad
  // input or a stale id.
  BodyId create_body(const BodyDef& def);
  void destroy_body(BodyId id);
  bool is_valid(BodyId id) const;
  std::size_t body_count() const;
  std::vector<BodyId> bodies() const;  // in creation order

  // Shapes of a body: a body keeps at least one. Adding or removing one recomputes the body's
  // mass, centre of mass and inertia (its pose and velocity stay those of its origin and centre
  // of mass).
  ShapeId add_shape(BodyId body, const ShapeDef& def);
  void remove_shape(ShapeId id);
  bool is_valid(ShapeId id) const;
  BodyId body_of(ShapeId id) const;
  std::vector<ShapeId> shapes(BodyId id) const;  // in the order they were added
  ShapeDef definition(ShapeId id) const;
  void set_filter(ShapeId id, const ShapeFilter& filter);

  Transform transform(BodyId id) const;
  // The body's origin (BodyDef::center, the point its shapes are placed from) and angle, apart
  // from its centre of mass, which transform() gives: a chain whose points run from x = 10 to 20
  // has its origin where it was created and its centre at 15. local_center is the centre of mass
  // in the body's frame (the origin's offset to it). set_origin_transform teleports the body so
  // that its origin lands at `origin` (set_transform, which places the centre of mass).
  Transform origin_transform(BodyId id) const;
  Vec2 local_center(BodyId id) const;
  void set_origin_transform(BodyId id, Vec2 origin, float angle);
  // The centres of mass of many bodies at once (out[k] of ids[k]), without the angles' atan2:
  // every id is checked first (strut::Error naming ids[k]), then out is filled.
  void get_positions(std::span<const BodyId> ids, std::span<Vec2> out) const;
  // Transform interpolated between the previous and the current step: alpha 0 gives the pose
  // before the last step, 1 the current one (see FixedStepDriver).
  Transform interpolated_transform(BodyId id, float alpha) const;
  Vec2 linear_velocity(BodyId id) const;
  float angular_velocity(BodyId id) const;
  float mass(BodyId id) const;
  float inertia(BodyId id) const;  // about the centre of mass
  BodyState state(BodyId id) const;
  // The definition that recreates this body as it is now (pose and velocity included).
  BodyDef definition(BodyId id) const;

  void set_linear_velocity(BodyId id, Vec2 v);
  void set_angular_velocity(BodyId id, float w);
  void set_transform(BodyId id, Vec2 position, float angle);  // teleport, keeps velocity
  void apply_force(BodyId id, Vec2 force);                    // at the centre, until next step
  void apply_force_at(BodyId id, Vec2 force, Vec2 world_point);
  void apply_torque(BodyId id, float torque);
  void apply_impulse(BodyId id, Vec2 impulse, Vec2 world_point);
  // Pushes the shapes around a point (ExplosionDef; solver/world_explode.cpp) and wakes the
  // bodies it pushes. Throws strut::Error naming the bad field, or the body the blast would
  // give a speed above the limits, with no body changed.
  void explode(const ExplosionDef& def);
  void set_linear_drag(BodyId id, float drag);
  void set_gravity_scale(BodyId id, float scale);
  bool is_sleeping(BodyId id) const;
  bool is_awake(BodyId id) const { return !is_sleeping(id); }
  void wake(BodyId id);

  // ---- Driving bodies (solver/bodies/world_body_motion.cpp) ----
  void set_angular_drag(BodyId id, float drag);
  // Sets the body's velocities so that the next step of `dt` seconds ends at `target` (centre of
  // mass and angle, turning the short way round), as Box2D's SetTargetTransform: how kinematic
  // pushers and platforms follow a path. The body keeps those velocities afterwards.
  void set_target_transform(BodyId id, Transform target, float dt);
  // The body's motion locks (BodyDef::lock_x, lock_y, fixed_rotation), read back through
  // definition(id). A newly locked axis loses its velocity and is held where the centre of mass
  // is now; rotation true drops the angular velocity and makes the inertia infinite, false gives
  // a dynamic body its inertia back. Wakes the body. Throws strut::Error (body unchanged) for a
  // stale id or, when locking, a soft body.
  void set_motion_locks(BodyId id, bool x, bool y, bool rotation);

  // Embedding (world_embedding.cpp). User data: the BodyDef's and ShapeDef's values, changeable
  // at any time (definition(id) reads them back; a body made from BodyDef::shape keeps its
  // shape's value in definition(ShapeId) only); joints start at 0. Copies and snapshots keep it.
  std::uint64_t user_data(BodyId id) const;
  void set_user_data(BodyId id, std::uint64_t value);
  std::uint64_t user_data(ShapeId id) const;
  void set_user_data(ShapeId id, std::uint64_t value);
  std::uint64_t user_data(JointId id) const;
  void set_user_data(JointId id, std::uint64_t value);
  // Sleep per body. Disabling wakes the body's island and keeps it awake; put_to_sleep puts the
  // body's whole island to sleep now (a dynamic body whose island allows sleep) until something
  // wakes it.
  void set_sleep_enabled(BodyId id, bool enabled);
  bool sleep_enabled(BodyId id) const;
  void put_to_sleep(BodyId id);
  // Run-time changes. A new material changes friction and restitution at once and, on a rigid
  // dynamic body, the mass (density x area, within the limits); a soft body keeps its density.
  // The filter changes which bodies it collides with from the next step. A type change keeps
  // the pose; a body made static loses its velocity; soft bodies keep their type.
  void set_material(BodyId id, const Material& material);
  void set_filter(BodyId id, std::uint32_t category, std::uint32_t mask);
  void set_type(BodyId id, BodyType type);
  BodyType type(BodyId id) const;

  // ---- Joints (definitions in strut/joint.hpp; implemented in solver/world_joints.cpp) ----
  // Any per-type definition converts to JointDef: create_joint(RevoluteJointDef{...}).
  JointId create_joint(const JointDef& def);
  void destroy_joint(JointId id);
  bool is_valid(JointId id) const;
  std::size_t joint_count() const;
  JointType joint_type(JointId id) const;
  // The definition as created, with the settings the setters below changed since.
  JointDef definition(JointId id) const;
  // Current distance between the joint's two anchor points.
  float joint_length(JointId id) const;
  // Angle, translation and speed now; reaction force and torque of the last substep.
  JointReading joint_reading(JointId id) const;
  // Run-time changes that keep the joint (and its bodies' motion); each wakes the joint's
  // bodies, and throws strut::Error for a joint type without the feature. A disabled joint
  // neither acts nor links its bodies into one island.
  void set_joint_enabled(JointId id, bool enabled);
  void set_joint_limit(JointId id, const JointLimit& limit);     // revolute, prismatic, wheel
  void set_joint_motor(JointId id, const JointMotor& motor);     // revolute, prismatic, wheel
  void set_joint_motor_speed(JointId id, float speed);           // the motor's speed alone
  void set_joint_spring(JointId id, const JointSpring& spring);  // + distance
  void set_mouse_target(JointId id, Vec2 target);
  // The thresholds of joint events (JointDef's force_threshold and torque_threshold: N and N m,
  // >= 0, infinity for none). They change no physics, so unlike the setters above they do not
  // wake the joint's bodies.
  void set_joint_force_threshold(JointId id, float threshold);
  void set_joint_torque_threshold(JointId id, float threshold);

  // ---- Tile maps (strut/tile_map.hpp; solver/shapes/tile_map.cpp) ----
  // Builds a grid of tiles: the solid ones as box shapes of one new static body, whose edges
  // shared by two solid tiles never produce contacts (bodies slide across seams without
  // catching); the floor tiles as friction under the bodies moving over them, for as long as
  // the world lives (destroying the body removes the solid tiles only). Throws strut::Error
  // (nothing created) naming the bad field.
  TileMap create_tile_map(const TileMapDef& def);

  // ---- Contact callbacks (strut/contact_callbacks.hpp; solver/step/custom_filter.cpp,
  // solver/step/pre_solve.cpp) ----
  // Installs the custom filter or the pre-solve callback (an empty function removes it: every
  // pair collides, every contact acts). A new custom filter forgets every earlier answer, so
  // each pair is asked again at the next step. The callbacks belong to this World object, not to
  // its state: copy() gives the copy the same ones, restore (from a world or bytes) keeps this
  // world's own, and from_snapshot starts with none.
  void set_custom_filter(CustomFilter filter);
  void set_pre_solve(PreSolve callback);

  // Advance by dt seconds (substeps x iterations as configured). Rethrows, after the step, the
  // first exception a contact callback threw in it.
  void step(float dt);

  // Queries; each respects layers: a body is reported when (category & mask) != 0.
  std::vector<BodyId> query_aabb(Aabb box, std::uint32_t mask = 0xFFFFFFFFu) const;
  std::vector<BodyId> query_point(Vec2 point, std::uint32_t mask = 0xFFFFFFFFu) const;
  std::optional<RayHit> ray_cast(Vec2 from, Vec2 to, std::uint32_t mask = 0xFFFFFFFFu) const;
  std::vector<RayHit> ray_cast_all(Vec2 from, Vec2 to, std::uint32_t mask = 0xFFFFFFFFu) const;
  // Bodies whose shape overlaps `shape` placed with its centre (a polygon: the point its
  // vertices are relative to) at pose.position, turned by pose.angle; touching is not overlap.
  // The shape obeys the size limits of BodyDef.
  std::vector<BodyId> query_shape(const Shape& shape, Transform pose,
                                  std::uint32_t mask = 0xFFFFFFFFu) const;
  // Shapes, rather than bodies, that overlap `shape` at `pose` (placed as in query_shape), in
  // creation order. A shape is reported when `filter` lets the two collide (should_collide: both
  // categories against the other's mask, groups); sensors are not reported.
  std::vector<ShapeId> overlap_shape(const Shape& shape, Transform pose,
                                     const ShapeFilter& filter = {}) const;
  // The first shape that `shape`, placed at `pose` and moved by `translation` without turning,
  // touches (filtered as overlap_shape): `fraction` of the translation travelled (0 when it
  // overlaps at the start), the touching point on the hit shape and its outward normal there.
  // Ties go to the shape created first. The start and end poses obey the limits of query_shape.
  std::optional<RayHit> cast_shape(const Shape& shape, Transform pose, Vec2 translation,
                                   const ShapeFilter& filter = {}) const;
  // Moves a character's capsule by `translation` as far as the world lets it, sliding along
  // what it meets (strut/character_mover.hpp; solver/query/character_mover.cpp): every motion
  // is a cast, so it never passes through a shape however far it is asked to go. A query: the
  // world is unchanged, and the caller keeps the character's position and velocity (gravity
  // included). Throws strut::Error naming the bad field.
  MoveResult move_character(const Capsule& capsule, Vec2 translation,
                            const MoverSettings& settings = {}) const;

  // Contact events of every step since the program last read that list, however the steps
  // were run (World::step or FixedStepDriver::advance): reading a list marks it read, and the
  // next step starts that list afresh; the lists not read keep growing (Box2D hands a step's
  // events together; here no list loses what another's reading did not take). The spans stay valid
  // until that step. A pair that began and ended in between is in both lists; ids of bodies
  // destroyed since are stale.
  std::span<const ContactEvent> contact_begin_events() const;
  std::span<const ContactEvent> contact_end_events() const;
  std::span<const ContactHitEvent> contact_hit_events() const;
  // Sensor overlaps that began or ended, accumulated and read like the contact events. Removing
  // a sensor or a visitor shape (or destroying its body) ends its overlaps: their end events
  // come with the next step's, naming the removed shape and body by their now stale ids.
  std::span<const SensorEvent> sensor_begin_events() const;
  std::span<const SensorEvent> sensor_end_events() const;
  // Joints whose reaction force magnitude exceeded their force_threshold, or whose reaction
  // torque magnitude exceeded their torque_threshold, at the end of a step: one event per joint
  // and step, in creation order, accumulated and read like the contact events. Disabled joints and
  // joints of sleeping islands (which the step does not solve) make none. A breakable joint is
  // destroy_joint on its event.
  std::span<const JointEvent> joint_events() const;
  std::size_t contact_count() const;  // contact points of the last step

  // ---- What touches what now (solver/world_contacts.cpp) ----
  // The touching pairs of a body's shapes, or of one shape, as the last step left them (in the
  // order of the step's pairs), with each point's impulses (ContactData). Sleeping islands keep
  // no contacts in strut (Box2D keeps them): a pair with a sleeping body is not reported, so a
  // sleeping body has none, until it wakes and a step finds them again. Pairs whose shape or
  // body was removed or destroyed since the step are left out; the other pairs are those of the
  // last step, at the current poses. Each call looks through all of the last step's pairs (no
  // index per body), so a program asking for every body's contacts each step should read the
  // contact events instead. A vector, as the queries return: bodies have few pairs, so a span to
  // fill would save an allocation beside that scan and ask the program for a bound.
  std::vector<ContactData> body_contacts(BodyId id) const;
  std::vector<ContactData> shape_contacts(ShapeId id) const;
  // The shapes overlapping a sensor shape at the end of the last step (the overlaps its begin
  // and end events describe), in the order of their ids' index; a shape removed since is gone
  // at once. Throws strut::Error when the shape is not a sensor.
  std::vector<ShapeId> sensor_overlaps(ShapeId sensor) const;

  const StepProfile& profile() const;
  void reset_profile();
  // 64-bit hash of every particle position: identical for any thread count.
  std::uint64_t state_hash() const;

  // Reports shapes, joints, contacts and boxes to `draw` as its flags ask
  // (strut/debug_draw.hpp).
  void draw(DebugDraw& draw) const;

 private:
  explicit World(std::unique_ptr<detail::WorldState> state);
  std::unique_ptr<detail::WorldState> state_;
  // restore(bytes) reads into this and then swaps it with state_: the world is unchanged when the
  // bytes are refused, and the next restore reuses the memory of the state before.
  std::unique_ptr<detail::WorldState> spare_;
  friend detail::WorldState& detail::state_of(World& world);
  friend const detail::WorldState& detail::state_of(const World& world);
  friend class WorldBatch;  // checks a whole batch's inputs before it changes any world
};

// The fixed-step clock: real elapsed time in, the whole steps of `dt` due out, never more than
// `max_steps` per call (the rest of a backlog is dropped so a slow frame cannot spiral), and the
// fraction of a step left over for interpolation. FixedStepDriver runs a World on it; a program
// that steps a WorldBatch (or anything else at a fixed rate) uses it alone.
class StepClock {
 public:
  StepClock(float dt, int max_steps = 5);
  // Adds the elapsed seconds; returns the steps now due, which the caller runs.
  int take_due_steps(float elapsed_seconds);
  float alpha() const { return alpha_; }  // time left over, in steps (0 to 1)
  float dt() const { return dt_; }

 private:
  float dt_;
  int max_steps_;
  double accumulator_ = 0.0;
  float alpha_ = 0.0f;
};

// The classic fixed-step loop over a World: the steps a StepClock makes due, run by World::step;
// advance returns the interpolation factor for World::interpolated_transform.
class FixedStepDriver {
 public:
  FixedStepDriver(World& world, float dt, int max_steps = 5);
  float advance(float elapsed_seconds);
  int steps_last_advance() const { return steps_last_; }
  float alpha() const { return clock_.alpha(); }

 private:
  World* world_;
  StepClock clock_;
  int steps_last_ = 0;
};

}  // namespace strut
