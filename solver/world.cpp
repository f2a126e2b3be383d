// The public World API: id checks, validation, and reading/writing body state. Velocity is
// implicit in (pose - previous pose) / h, so every velocity-level call moves the previous pose.
#include "strut/world.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "solver/bodies/body_storage.hpp"
#include "solver/core/body_level_shape.hpp"
#include "solver/islands/islands.hpp"
#include "solver/joints/joint_solver.hpp"
#include "solver/shapes/shape_checks.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/step/integrate_stages.hpp"
#include "solver/step/step_internals.hpp"
#include "solver/step/visited_bodies.hpp"
#include "solver/world_state.hpp"
#include "strut/limits.hpp"

namespace strut {
namespace {

std::string id_text(BodyId id) {
  return "body " + std::to_string(id.index) + "/" + std::to_string(id.generation);
}

void require_finite(float v, const char* call, const char* arg) {
  if (!std::isfinite(v)) throw Error(std::string(call) + ": " + arg + " is not a finite number");
}
void require_finite(Vec2 v, const char* call, const char* arg) {
  if (!is_finite(v)) throw Error(std::string(call) + ": " + arg + " is not a finite number");
}

using shapes::number_text;
// |v| (largest component for a vector) must not exceed `limit`.
void require_at_most(float v, float limit, const char* call, const char* arg, const char* unit) {
  if (std::fabs(v) > limit)
    throw Error(std::string(call) + ": " + arg + " " + number_text(v) + " exceeds the limit of " +
                number_text(limit) + " " + unit + " (strut/limits.hpp)");
}
void require_at_most(Vec2 v, float limit, const char* call, const char* arg, const char* unit) {
  require_at_most(std::fabs(v.x) > std::fabs(v.y) ? v.x : v.y, limit, call, arg, unit);
}
void require_count(int n, int max, const char* call, const char* arg) {
  if (n <= 0 || n > max)
    throw Error(std::string(call) + ": " + arg + " must be in [1, " + std::to_string(max) +
                "], got " + std::to_string(n));
}

float rot_delta(const BodyArrays& b, std::uint32_t k) { return b.da[k]; }

}  // namespace

void validate_config(const WorldConfig& c) {
  require_finite(c.gravity, "WorldConfig", "gravity");
  require_at_most(c.gravity, limits::kMaxGravity, "WorldConfig", "gravity", "m/s^2");
  require_count(c.substeps, limits::kMaxSubsteps, "WorldConfig", "substeps");
  require_count(c.iterations, limits::kMaxIterations, "WorldConfig", "iterations");
  require_count(c.joint_passes, limits::kMaxIterations, "WorldConfig", "joint_passes");
  if (c.threads < 0 || c.threads > limits::kMaxThreads)
    throw Error("WorldConfig: threads must be in [0, " + std::to_string(limits::kMaxThreads) +
                "] (0 = all cores), got " + std::to_string(c.threads));
  for (auto [v, name] : {std::pair{c.sleep_time, "sleep_time"},
                         {c.sleep_speed, "sleep_speed"},
                         {c.restitution_threshold, "restitution_threshold"},
                         {c.contact_slop, "contact_slop"},
                         {c.contact_hertz, "contact_hertz"},
                         {c.contact_damping_ratio, "contact_damping_ratio"},
                         {c.contact_push_max, "contact_push_max"}}) {
    require_finite(v, "WorldConfig", name);
    if (v < 0) throw Error(std::string("WorldConfig: ") + name + " must not be negative");
  }
}

std::uint32_t WorldState::dense_of(BodyId id, const char* what) const {
  return bodies.slots[bodies.slots.slot_of(id, what)].dense;
}

void WorldState::require_movable(std::uint32_t k, const char* what) const {
  if (bodies.flags[k] & kStatic)
    throw Error(std::string(what) + ": " + id_text(bodies.id_of_dense(k)) +
                " is static and cannot move (make it kinematic)");
}

void WorldState::require_dynamic(std::uint32_t k, const char* what) const {
  if (bodies.flags[k] & (kStatic | kKinematic))
    throw Error(std::string(what) + ": " + id_text(bodies.id_of_dense(k)) + " is " +
                ((bodies.flags[k] & kStatic) ? "static" : "kinematic") +
                " and takes no forces or impulses (set its velocity instead)");
}

void WorldState::add_force(std::uint32_t k, Vec2 f, double t, const char* what) {
  check_force(k, f, t, what);
  add_checked_force(k, f, t);
}

void WorldState::add_checked_force(std::uint32_t k, Vec2 f, double t) {
  auto& b = bodies;
  b.fx[k] = float(double(b.fx[k]) + f.x);
  b.fy[k] = float(double(b.fy[k]) + f.y);
  b.torque[k] = float(double(b.torque[k]) + t);
}

void WorldState::check_force(std::uint32_t k, Vec2 f, double t, const char* what) const {
  const auto& b = bodies;
  const double fx = double(b.fx[k]) + f.x, fy = double(b.fy[k]) + f.y;
  const double torque = double(b.torque[k]) + t;
  const double accel = std::fmax(std::fabs(fx), std::fabs(fy)) * b.inv_mass[k];
  if (accel > limits::kMaxAcceleration)
    throw Error(std::string(what) + ": the force on " + id_text(bodies.id_of_dense(k)) +
                " would accelerate it at " + number_text(accel) + " m/s^2, above the limit of " +
                number_text(limits::kMaxAcceleration) + " m/s^2 (strut/limits.hpp)");
  const double angular = std::fabs(torque) * b.inv_inertia[k];
  if (angular > limits::kMaxAngularAcceleration)
    throw Error(std::string(what) + ": the torque on " + id_text(bodies.id_of_dense(k)) +
                " would accelerate it at " + number_text(angular) +
                " rad/s^2, above the limit of " + number_text(limits::kMaxAngularAcceleration) +
                " rad/s^2 (strut/limits.hpp)");
}

std::uint32_t WorldState::joint_dense_of(JointId id, const char* what) const {
  return joints.slots[joints.slots.slot_of(id, what)].dense;
}

World::World(const WorldConfig& config) {
  validate_config(config);
  state_ = std::make_unique<WorldState>(config);
}
World::World(std::unique_ptr<WorldState> impl) : state_(std::move(impl)) {}
World World::copy() const { return World(std::make_unique<WorldState>(*state_)); }
// The callbacks are the world object's own (World::set_custom_filter): kept across restores.
void World::restore(const World& state) {
  if (&state == this) return;
  CustomFilter filter = std::move(state_->callbacks.custom_filter);
  PreSolve pre_solve = std::move(state_->callbacks.pre_solve);
  *state_ = *state.state_;
  state_->callbacks.custom_filter = std::move(filter);
  state_->callbacks.pre_solve = std::move(pre_solve);
}
World::~World() = default;
WorldState& detail::state_of(World& world) { return *world.state_; }
const WorldState& detail::state_of(const World& world) { return *world.state_; }
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

const WorldConfig& World::config() const { return state_->config; }
void World::set_gravity(Vec2 g) {
  require_finite(g, "set_gravity", "gravity");
  require_at_most(g, limits::kMaxGravity, "set_gravity", "gravity", "m/s^2");
  state_->config.gravity = g;
}
void World::set_substeps(int n) {
  require_count(n, limits::kMaxSubsteps, "set_substeps", "substeps");
  state_->config.substeps = n;
}
void World::set_iterations(int n) {
  require_count(n, limits::kMaxIterations, "set_iterations", "iterations");
  state_->config.iterations = n;
}

bool World::is_valid(BodyId id) const { return state_->bodies.slots.is_live(id); }

std::size_t World::body_count() const { return state_->bodies.slots.live_count(); }

std::vector<BodyId> World::bodies() const {
  const auto& w = *state_;
  std::vector<BodyId> out;
  for (std::uint32_t k = 0; k < w.bodies.size(); ++k)
    if (!(w.bodies.flags[k] & kDead)) out.push_back(w.bodies.id_of_dense(k));
  return out;
}

Transform World::transform(BodyId id) const {
  const auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "transform");
  const auto& b = w.bodies;
  return Transform{{b.px[k], b.py[k]}, angle_of(Rot{b.qc[k], b.qs[k]})};
}

void World::get_positions(std::span<const BodyId> ids, std::span<Vec2> out) const {
  const auto& w = *state_;
  if (out.size() != ids.size())
    throw Error("get_positions: out holds " + std::to_string(out.size()) + " positions for " +
                std::to_string(ids.size()) + " ids");
  for (std::size_t k = 0; k < ids.size(); ++k)
    if (!w.bodies.slots.is_live(ids[k]))
      throw Error("get_positions: ids[" + std::to_string(k) + "]: " + id_text(ids[k]) +
                  " is not a live body");
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const std::uint32_t d = w.bodies.slots[ids[k].index - 1].dense;
    out[k] = {w.bodies.px[d], w.bodies.py[d]};
  }
}

Transform World::interpolated_transform(BodyId id, float alpha) const {
  require_finite(alpha, "interpolated_transform", "alpha");
  if (alpha < 0 || alpha > 1)
    throw Error("interpolated_transform: alpha must be in [0, 1], got " + number_text(alpha));
  const auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "interpolated_transform");
  const StartPose& start = w.bodies.before_step[k];
  const Transform a{start.position, angle_of(start.rotation)};
  const Transform b = transform(id);
  float d = b.angle - a.angle;  // shortest way round
  if (d > float(M_PI)) d -= 2 * float(M_PI);
  if (d < -float(M_PI)) d += 2 * float(M_PI);
  if (alpha == 1.0f) return b;
  return Transform{a.position + alpha * (b.position - a.position), a.angle + alpha * d};
}

Vec2 World::linear_velocity(BodyId id) const {
  const auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "linear_velocity");
  const auto& b = w.bodies;
  return Vec2{b.dx[k] / w.timing.last_h, b.dy[k] / w.timing.last_h};
}

float World::angular_velocity(BodyId id) const {
  const auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "angular_velocity");
  return rot_delta(w.bodies, k) / w.timing.last_h;
}

float World::mass(BodyId id) const {
  const auto& w = *state_;
  return w.bodies.mass[w.dense_of(id, "mass")];
}
float World::inertia(BodyId id) const {
  const auto& w = *state_;
  return w.bodies.inertia[w.dense_of(id, "inertia")];
}

BodyState World::state(BodyId id) const {
  const auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "state");
  const auto& b = w.bodies;
  BodyState s;
  s.is_static = (b.flags[k] & kStatic) != 0;
  s.sleeping = (b.flags[k] & kSleeping) != 0;
  s.transform = transform(id);
  s.velocity = linear_velocity(id);
  s.angular_velocity = angular_velocity(id);
  // One ShapeState per shape: its colliders' vertices (a chain's links share their ends).
  const auto& c = w.colliders;
  for (const std::uint32_t slot : w.bodies.cold[k].shapes) {
    ShapeState shape;
    const ShapeRecord& r = w.colliders.shapes[slot];
    shape.id = w.colliders.shape_slots.id_of<ShapeId>(slot);
    shape.kind = kind_of(r.def.shape);
    shape.sensor = r.def.sensor;
    if (const auto* chain = std::get_if<ChainShape>(&r.def.shape)) shape.loop = chain->loop;
    for (std::uint32_t i = b.collider_begin[k]; i < b.collider_begin[k] + b.collider_count[k];
         ++i) {
      if (c.shape[i] != slot) continue;
      shape.radius = c.radius[i];
      const std::uint32_t p0 = b.particle_begin[k] + c.vertex_begin[i];
      const bool link = c.kind[i] == collide::ColliderKind::ChainSegment;
      // A chain: each link's first point, and the last link's end unless the chain loops.
      const std::uint32_t n =
          link ? 1u + std::uint32_t(!(c.ghosts[i] & 2) && !shape.loop) : std::uint32_t(c.count[i]);
      for (std::uint32_t v = 0; v < n; ++v)
        shape.vertices.push_back({w.particles.x[p0 + v], w.particles.y[p0 + v]});
    }
    s.shapes.push_back(std::move(shape));
  }
  if (!s.shapes.empty()) {
    s.kind = s.shapes[0].kind;
    s.radius = s.shapes[0].radius;
    s.vertices = s.shapes[0].vertices;
  }
  return s;
}

BodyDef World::definition(BodyId id) const {
  const auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "definition");
  const auto& b = w.bodies;
  // with_shapes: a body restored from a snapshot written before bodies were stored with
  // `shapes` only has its single shape on the body.
  BodyDef d = with_shapes(w.bodies.cold[k].def);
  // The shapes as they are now (set_filter and set_material may have changed them).
  d.shapes.clear();
  for (const std::uint32_t s : w.bodies.cold[k].shapes)
    d.shapes.push_back(w.colliders.shapes[s].def);
  const Rot r{b.qc[k], b.qs[k]};
  d.angle = angle_of(r);
  d.center = Vec2{b.px[k], b.py[k]} - rotate(r, w.bodies.cold[k].com_offset);
  // A polygon given by vertices is stored as given, relative to def.center, so its centre
  // is recovered through the same offset.
  d.velocity = linear_velocity(id);
  d.angular_velocity = angular_velocity(id);
  d.gravity_scale = b.gravity_scale[k];
  d.linear_drag = b.drag[k];
  d.angular_drag = b.angular_drag[k];
  // Created asleep and woken since: it would now be created awake (and may be moving).
  if (!(b.flags[k] & kSleeping)) d.awake = true;
  return d;
}

namespace {
// A velocity (Vec2 or float) for body id: finite, within `limit`, and the body movable.
template <class V>
std::uint32_t check_velocity(const WorldState& w, BodyId id, V v, float limit, const char* call,
                             const char* arg, const char* unit) {
  require_finite(v, call, arg);
  require_at_most(v, limit, call, arg, unit);
  const std::uint32_t k = w.dense_of(id, call);
  w.require_movable(k, call);
  return k;
}
}  // namespace

std::uint32_t WorldState::check_linear_velocity(BodyId id, Vec2 v, const char* call) const {
  return check_velocity(*this, id, v, limits::kMaxSpeed, call, "velocity", "m/s");
}

std::uint32_t WorldState::check_angular_velocity(BodyId id, float omega, const char* call) const {
  return check_velocity(*this, id, omega, limits::kMaxAngularSpeed, call, "angular_velocity",
                        "rad/s");
}

std::uint32_t WorldState::check_central_force(BodyId id, Vec2 f, const char* call) const {
  require_finite(f, call, "force");
  const std::uint32_t k = dense_of(id, call);
  require_dynamic(k, call);
  check_force(k, f, 0.0, call);
  return k;
}

void World::set_linear_velocity(BodyId id, Vec2 v) {
  auto& w = *state_;
  const std::uint32_t k = w.check_linear_velocity(id, v, "set_linear_velocity");
  auto& b = w.bodies;
  const Vec2 old = linear_velocity(id);
  b.dx[k] = v.x * w.timing.last_h;
  b.dy[k] = v.y * w.timing.last_h;
  drop_locked_motion(w, k);
  if (!w.bodies.is_rigid(k)) {
    auto& q = w.particles;
    for (std::uint32_t i = b.particle_begin[k]; i < b.particle_begin[k] + b.particle_count[k];
         ++i) {
      q.dx[i] += (v.x - old.x) * w.timing.last_h;
      q.dy[i] += (v.y - old.y) * w.timing.last_h;
    }
  }
  wake(id);
}

void World::set_angular_velocity(BodyId id, float omega) {
  auto& w = *state_;
  const std::uint32_t k = w.check_angular_velocity(id, omega, "set_angular_velocity");
  auto& b = w.bodies;
  if (w.bodies.cold[k].def.fixed_rotation) return;  // it never turns
  const float old = angular_velocity(id);
  b.da[k] = omega * w.timing.last_h;
  if (!w.bodies.is_rigid(k)) {
    // Add (omega - old) x r to every particle's velocity.
    auto& q = w.particles;
    const float dw = (omega - old) * w.timing.last_h;
    for (std::uint32_t i = b.particle_begin[k]; i < b.particle_begin[k] + b.particle_count[k];
         ++i) {
      const float rx = q.x[i] - b.px[k], ry = q.y[i] - b.py[k];
      q.dx[i] -= dw * ry;
      q.dy[i] += dw * rx;
    }
  }
  wake(id);
}

void World::set_transform(BodyId id, Vec2 position, float angle) {
  require_finite(position, "set_transform", "position");
  require_at_most(position, limits::kMaxCoordinate, "set_transform", "position", "m");
  require_finite(angle, "set_transform", "angle");
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "set_transform");
  auto& b = w.bodies;
  // The motion (velocity) is kept; a soft body is reset to its rest shape at the new pose.
  const Rot r = make_rot(angle);
  b.px[k] = position.x, b.py[k] = position.y, b.qc[k] = r.c, b.qs[k] = r.s;
  b.lock_at[k] = position;  // a teleport moves where the locks hold the body
  b.before_step[k] = StartPose{position, r};
  auto& q = w.particles;
  const Rot dq = make_rot(b.da[k]);
  for (std::uint32_t i = b.particle_begin[k]; i < b.particle_begin[k] + b.particle_count[k]; ++i) {
    const Vec2 arm_now = rotate(r, {q.lx[i], q.ly[i]});
    const Vec2 x = position + arm_now;
    const Vec2 motion = Vec2{b.dx[k], b.dy[k]} + (arm_now - inv_rotate(dq, arm_now));
    q.x[i] = x.x, q.y[i] = x.y, q.dx[i] = motion.x, q.dy[i] = motion.y;
  }
  refresh_body_boxes(w, k);
  ++w.bodies.edits;
  wake(id);
}

// Forces accumulate until the end of the next step; the accumulated force and torque are checked
// against the acceleration limits before anything is stored, so a rejected call adds nothing.
void World::apply_force(BodyId id, Vec2 f) {
  auto& w = *state_;
  const std::uint32_t k = w.check_central_force(id, f, "apply_force");
  w.add_checked_force(k, f, 0.0);
  wake(id);
}

void World::apply_force_at(BodyId id, Vec2 f, Vec2 point) {
  require_finite(f, "apply_force_at", "force");
  require_finite(point, "apply_force_at", "point");
  require_at_most(point, limits::kMaxCoordinate, "apply_force_at", "point", "m");
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "apply_force_at");
  w.require_dynamic(k, "apply_force_at");
  const Vec2 arm = point - Vec2{w.bodies.px[k], w.bodies.py[k]};
  // In double: the arm times a large force may overflow a float.
  const double torque = double(arm.x) * f.y - double(arm.y) * f.x;
  w.add_force(k, f, torque, "apply_force_at");
  wake(id);
}

void World::apply_torque(BodyId id, float t) {
  require_finite(t, "apply_torque", "torque");
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "apply_torque");
  w.require_dynamic(k, "apply_torque");
  w.add_force(k, {}, t, "apply_torque");
  wake(id);
}

void World::apply_impulse(BodyId id, Vec2 j, Vec2 point) {
  require_finite(j, "apply_impulse", "impulse");
  require_finite(point, "apply_impulse", "point");
  require_at_most(point, limits::kMaxCoordinate, "apply_impulse", "point", "m");
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "apply_impulse");
  w.require_dynamic(k, "apply_impulse");
  const auto& b = w.bodies;
  // The new velocities in double, checked against the speed limits before either is set.
  const Vec2 v0 = linear_velocity(id);
  const Vec2 arm = point - Vec2{b.px[k], b.py[k]};
  const double vx = v0.x + double(b.inv_mass[k]) * j.x, vy = v0.y + double(b.inv_mass[k]) * j.y;
  const double omega =
      angular_velocity(id) + double(b.inv_inertia[k]) * (double(arm.x) * j.y - double(arm.y) * j.x);
  const double speed = std::fmax(std::fabs(vx), std::fabs(vy));
  if (speed > limits::kMaxSpeed)
    throw Error("apply_impulse: impulse would give " + id_text(id) + " a speed of " +
                number_text(speed) + " m/s, above the limit of " + number_text(limits::kMaxSpeed) +
                " m/s (strut/limits.hpp)");
  if (std::fabs(omega) > limits::kMaxAngularSpeed)
    throw Error("apply_impulse: impulse would give " + id_text(id) + " an angular speed of " +
                number_text(omega) + " rad/s, above the limit of " +
                number_text(limits::kMaxAngularSpeed) + " rad/s (strut/limits.hpp)");
  set_linear_velocity(id, Vec2{float(vx), float(vy)});
  set_angular_velocity(id, float(omega));
}

void World::set_linear_drag(BodyId id, float drag) {
  require_finite(drag, "set_linear_drag", "drag");
  if (drag < 0) throw Error("set_linear_drag: drag must not be negative");
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "set_linear_drag");
  w.bodies.drag[k] = drag;
  mark_body_edited(w, k);
}

void World::set_gravity_scale(BodyId id, float s) {
  require_finite(s, "set_gravity_scale", "scale");
  require_at_most(s, limits::kMaxGravityScale, "set_gravity_scale", "scale", "");
  auto& w = *state_;
  w.bodies.gravity_scale[w.dense_of(id, "set_gravity_scale")] = s;
  wake(id);
}

bool World::is_sleeping(BodyId id) const {
  const auto& w = *state_;
  return (w.bodies.flags[w.dense_of(id, "is_sleeping")] & kSleeping) != 0;
}

void World::wake(BodyId id) {
  auto& w = *state_;
  const std::uint32_t k = w.dense_of(id, "wake");
  // Its whole island wakes (joint partners and the stack it rests in).
  if (w.bodies.flags[k] & kSleeping) wake_island(w, w.bodies.island[k]);
  w.bodies.sleep_time[k] = 0;
  mark_body_edited(w, k);  // every setter of pose, motion and forces wakes the body
}

// ---- results ----

std::span<const SensorEvent> World::sensor_begin_events() const {
  state_->events.read |= EventStore::kSensorBeginList;
  return state_->events.sensor_begin;
}
std::span<const SensorEvent> World::sensor_end_events() const {
  state_->events.read |= EventStore::kSensorEndList;
  return state_->events.sensor_end;
}

std::span<const ContactEvent> World::contact_begin_events() const {
  state_->events.read |= EventStore::kBeginList;
  return state_->events.begin;
}
std::span<const ContactEvent> World::contact_end_events() const {
  state_->events.read |= EventStore::kEndList;
  return state_->events.end;
}
std::span<const ContactHitEvent> World::contact_hit_events() const {
  state_->events.read |= EventStore::kHitList;
  return state_->events.hit;
}
std::size_t World::contact_count() const { return state_->contacts.points.size(); }

const StepProfile& World::profile() const {
  const auto& w = *state_;
  StepProfile& m = w.profile.mean;
  const StepProfile& s = w.profile.sum;
  const double n = s.steps > 0 ? double(s.steps) : 1.0;
  m.integrate = s.integrate / n, m.broad_phase = s.broad_phase / n;
  m.narrow_phase = s.narrow_phase / n, m.islands = s.islands / n, m.solve = s.solve / n;
  m.velocity = s.velocity / n, m.sleep = s.sleep / n, m.total = s.total / n;
  m.steps = s.steps;
  return m;
}

void World::reset_profile() { state_->profile.sum = StepProfile{}; }

std::uint64_t World::state_hash() const {
  // FNV-1a over the bits of every particle position, in body creation order.
  const auto& w = *state_;
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    for (int i = 0; i < 4; ++i) {
      h ^= (u >> (8 * i)) & 0xFFu;
      h *= 1099511628211ull;
    }
  };
  const auto& b = w.bodies;
  for (std::uint32_t k = 0; k < b.size(); ++k) {
    if (b.flags[k] & kDead) continue;
    for (std::uint32_t i = b.particle_begin[k]; i < b.particle_begin[k] + b.particle_count[k];
         ++i) {
      mix(w.particles.x[i]);
      mix(w.particles.y[i]);
    }
  }
  return h;
}

// ---- fixed-step driver ----

StepClock::StepClock(float dt, int max_steps) : dt_(dt), max_steps_(max_steps) {
  shapes::check_step_dt(dt, "fixed-step clock");
  if (max_steps <= 0)
    throw Error("fixed-step clock: max_steps must be positive, got " + std::to_string(max_steps));
}

int StepClock::take_due_steps(float elapsed) {
  if (!std::isfinite(elapsed) || elapsed < 0)
    throw Error("fixed-step clock: elapsed time must be finite and >= 0, got " +
                number_text(elapsed));
  accumulator_ += elapsed;
  int steps = 0;
  while (accumulator_ >= dt_ && steps < max_steps_) {
    accumulator_ -= dt_;
    ++steps;
  }
  // A frame too slow to keep up drops the backlog instead of spiralling into longer frames.
  if (accumulator_ >= dt_) accumulator_ = std::fmod(accumulator_, double(dt_));
  alpha_ = static_cast<float>(accumulator_ / dt_);
  return steps;
}

FixedStepDriver::FixedStepDriver(World& world, float dt, int max_steps)
    : world_(&world), clock_(dt, max_steps) {}

float FixedStepDriver::advance(float elapsed) {
  steps_last_ = clock_.take_due_steps(elapsed);
  for (int k = 0; k < steps_last_; ++k) world_->step(clock_.dt());
  return clock_.alpha();
}

}  // namespace strut
