// Creating, destroying and compacting bodies. Bodies live in dense arrays in creation order;
// a destroyed body is flagged dead and removed by a stable compaction at the start of the next
// step, so the order (and with it every result) never depends on the history of removals.
#include "solver/bodies/body_storage.hpp"

#include <algorithm>
#include <cmath>

#include "solver/bodies/body_store.hpp"
#include "solver/bodies/collider_store.hpp"
#include "solver/core/stores.hpp"
#include "solver/joints/joint_store.hpp"
#include "solver/shapes/polygon_geometry.hpp"
#include "solver/shapes/shape_ops.hpp"
#include "solver/soft/soft_store.hpp"
#include "solver/step/collide_phase.hpp"
#include "solver/step/visited_bodies.hpp"

namespace strut {
namespace {

// One more row in every column; the caller fills it.
template <class Arrays>
std::uint32_t append_row(Arrays& arrays) {
  arrays.for_each_column([](auto& column) { column.emplace_back(); });
  return std::uint32_t(arrays.size() - 1);
}

}  // namespace

std::uint32_t new_shape_slot(WorldState& w) {
  const std::uint32_t s = w.colliders.shape_slots.allocate();
  if (s == w.colliders.shapes.size()) w.colliders.shapes.emplace_back();
  w.colliders.shapes[s] =
      ShapeRecord{};  // a reused slot keeps nothing of its last shape (a tile's seams)
  return s;
}

std::uint32_t add_body(WorldState& w, const BodyDef& def, std::uint32_t slot,
                       std::span<const std::uint32_t> shape_slots) {
  auto& b = w.bodies;
  auto& q = w.particles;
  auto& c = w.colliders;
  const std::uint32_t k = static_cast<std::uint32_t>(b.size());
  const bool is_static = def.is_static;
  const bool kinematic = def.is_kinematic;
  const bool soft = def.soft > 0 && !is_static && !kinematic;
  const std::vector<ShapeDef>& shape_defs = def.shapes;
  std::uint8_t flags = 0;
  if (is_static) flags |= kStatic;
  if (kinematic) flags |= kKinematic;
  if (soft) flags |= kSoft;
  if (def.bullet) flags |= kBullet;
  if (!def.enable_sleep) flags |= kNoSleep;
  if (std::all_of(shape_defs.begin(), shape_defs.end(), [](const ShapeDef& s) { return s.sensor; }))
    flags |= kSensorOnly;

  // Colliders and mass in the body's frame (origin at def.center), then about the centre of mass.
  std::vector<std::vector<shapes::LocalCollider>> pieces;
  std::vector<shapes::MassData> masses;
  for (const ShapeDef& s : shape_defs) {
    pieces.push_back(shapes::make_colliders(s));
    for (const shapes::LocalCollider& piece : pieces.back())
      masses.push_back(shapes::mass_of(piece, s.material.density));
  }
  const shapes::MassData total = shapes::combine(masses);
  const Vec2 com_offset = total.center;
  const float mass = total.mass, inertia = total.inertia;
  const bool moves = !is_static && !kinematic;
  const Rot rot = make_rot(def.angle);
  const Vec2 com = def.center + rotate(rot, com_offset);

  append_row(b);
  b.slot[k] = slot;
  b.flags[k] = flags;
  b.particle_begin[k] = static_cast<std::uint32_t>(q.size());
  b.collider_begin[k] = static_cast<std::uint32_t>(c.size());
  b.px[k] = com.x, b.py[k] = com.y;
  b.qc[k] = rot.c, b.qs[k] = rot.s;
  // Velocity is implicit: the previous pose is placed one substep back along it.
  const float h = w.timing.last_h;
  b.dx[k] = def.lock_x ? 0.0f : def.velocity.x * h;
  b.dy[k] = def.lock_y ? 0.0f : def.velocity.y * h;
  const Rot spin = make_rot(def.angular_velocity * h);
  b.da[k] = def.fixed_rotation ? 0.0f : def.angular_velocity * h;
  b.mass[k] = mass;
  b.inertia[k] = inertia;
  b.inv_mass[k] = moves && mass > 0 ? 1.0f / mass : 0.0f;
  b.inv_inertia[k] = moves && inertia > 0 && !def.fixed_rotation ? 1.0f / inertia : 0.0f;
  b.gravity_scale[k] = def.gravity_scale;
  b.drag[k] = def.linear_drag;
  b.angular_drag[k] = def.angular_drag;
  b.before_step[k] = StartPose{com, rot};
  b.island[k] = slot;
  b.locks[k] = std::uint8_t((def.lock_x ? kLockX : 0) | (def.lock_y ? kLockY : 0));
  b.lock_at[k] = com;
  if (b.locks[k]) ++w.bodies.locked_count;
  // Forces, sleep time and box start at zero; counts and reach once the colliders exist (below).

  // Particles: every collider's vertices (the contact features), then for a soft body the
  // interior particle that carries the rest of the mass.
  auto add_particle = [&](Vec2 local, float inv_mass, std::int8_t next) {
    const Vec2 x = com + rotate(rot, local);
    const Vec2 arm_now = rotate(rot, local);
    const Vec2 motion = h * def.velocity + (arm_now - inv_rotate(spin, arm_now));
    const std::uint32_t i = append_row(q);
    q.x[i] = x.x, q.y[i] = x.y;
    q.dx[i] = motion.x, q.dy[i] = motion.y;
    q.w[i] = inv_mass;
    q.lx[i] = local.x, q.ly[i] = local.y;
    q.body[i] = k;
    q.next[i] = next;
  };
  const std::uint32_t p0 = b.particle_begin[k];
  float vertex_inv_mass = 0.0f;
  ParticleMassSplit split;
  if (soft) {
    // One polygon (validation): its hull about the centre of mass.
    const shapes::LocalCollider& hull = pieces[0][0];
    std::vector<Vec2> local;
    for (int i = 0; i < hull.count; ++i) local.push_back(hull.vertices[i] - com_offset);
    split = split_polygon_mass(local, mass, inertia);
    vertex_inv_mass = 1.0f / split.vertex_mass;
  }
  for (std::size_t s = 0; s < shape_defs.size(); ++s) {
    const ShapeDef& sd = shape_defs[s];
    for (const shapes::LocalCollider& piece : pieces[s]) {
      const std::uint32_t cs = w.colliders.slots.allocate();
      const std::uint32_t i = append_row(c);
      w.colliders.slots[cs].dense = i;
      c.slot[i] = cs;
      c.body[i] = k;
      c.shape[i] = shape_slots[s];
      c.kind[i] = piece.kind;
      c.count[i] = std::uint8_t(piece.count);
      c.vertex_begin[i] = std::uint32_t(q.size() - p0);
      c.radius[i] = piece.radius;
      c.friction[i] = sd.material.friction;
      c.static_friction[i] = static_friction_of(sd.material);
      c.restitution[i] = sd.material.restitution;
      c.mix_rules[i] = mix_rules_of(sd.material);
      c.category[i] = sd.filter.category;
      c.mask[i] = sd.filter.mask;
      c.group[i] = sd.filter.group;
      c.sensor[i] = std::uint8_t(sd.sensor);
      c.callbacks[i] =
          std::uint8_t((sd.custom_filter ? kCustomFilter : 0) | (sd.pre_solve ? kPreSolve : 0));
      w.colliders.custom_filter_count += sd.custom_filter;
      w.colliders.pre_solve_count += sd.pre_solve;
      c.internal_edges[i] = w.colliders.shapes[shape_slots[s]].internal_edges;
      c.tangent_speed[i] = sd.tangent_speed;
      c.rolling_resistance[i] = sd.rolling_resistance;
      if (sd.tangent_speed != 0 || sd.rolling_resistance != 0) ++w.colliders.surface_count;
      c.ghost_prev[i] = piece.ghost_prev - com_offset;
      c.ghost_next[i] = piece.ghost_next - com_offset;
      c.ghosts[i] = std::uint8_t((piece.has_prev ? 1 : 0) | (piece.has_next ? 2 : 0));
      for (int i = 0; i < piece.count; ++i) {
        const std::int8_t next = piece.count == 1      ? 0
                                 : i + 1 < piece.count ? 1
                                                       : -(piece.count - 1);
        add_particle(piece.vertices[i] - com_offset, vertex_inv_mass, next);
      }
    }
  }
  b.collider_count[k] = static_cast<std::uint32_t>(c.size() - b.collider_begin[k]);
  std::uint32_t strut_begin = static_cast<std::uint32_t>(w.soft.struts.size());
  if (soft) {
    add_particle(split.centre, split.centre_mass > 0 ? 1.0f / split.centre_mass : 0.0f, 0);
    // Braces: the hull edges plus spokes to the interior particle triangulate the polygon, so
    // rigid struts alone hold its shape; compliance makes it soft.
    const std::uint32_t n = static_cast<std::uint32_t>(pieces[0][0].count);
    auto add_strut = [&](std::uint32_t i, std::uint32_t j) {
      const float rest = length(Vec2{q.lx[i] - q.lx[j], q.ly[i] - q.ly[j]});
      w.soft.struts.push_back(Strut{i, j, rest, def.soft});
    };
    for (std::uint32_t i = 0; i < n; ++i) add_strut(p0 + i, p0 + (i + 1) % n);
    for (std::uint32_t i = 0; i < n; ++i) add_strut(p0 + n, p0 + i);
    w.soft.lanes.dirty = true;
  }
  b.particle_count[k] = static_cast<std::uint32_t>(q.size() - p0);
  b.strut_begin[k] = strut_begin;
  b.strut_count[k] = static_cast<std::uint32_t>(w.soft.struts.size() - strut_begin);
  b.reach[k] = local_reach(w, k);

  BodyCold cold;
  cold.def = def;
  cold.com_offset = com_offset;
  cold.shapes.assign(shape_slots.begin(), shape_slots.end());
  w.bodies.cold.push_back(std::move(cold));
  return k;
}

namespace {

// Keeps rows keep[0], keep[1], ... (ascending, all >= first) of every column at first, first +
// 1, ...; the rows before `first` stay where they are.
template <class Arrays>
void keep_rows(Arrays& arrays, std::uint32_t first, const std::vector<std::uint32_t>& keep) {
  arrays.for_each_column([&](auto& column) {
    for (std::size_t i = 0; i < keep.size(); ++i) column[first + i] = column[keep[i]];
    column.resize(first + keep.size());
  });
}

// The bodies from `first` on, renumbered: remap[k - first] is body k's new index, ~0 if removed.
struct Tail {
  std::uint32_t first;
  std::vector<std::uint32_t> remap;
  std::uint32_t operator()(std::uint32_t k) const { return remap[k - first]; }
};

// The rows [begin[k], begin[k] + count[k]) of each surviving body k of the tail, in body order
// (the rows of the bodies before it come first and stay); sets begin[k] to where they will be
// after keep_rows(.., start, ..). `rows` is the column's size.
std::vector<std::uint32_t> rows_of_survivors(const Tail& tail, std::vector<std::uint32_t>& begin,
                                             const std::vector<std::uint32_t>& count,
                                             std::uint32_t rows, std::uint32_t& start) {
  start = tail.first < begin.size() ? begin[tail.first] : rows;
  std::vector<std::uint32_t> keep;
  for (std::uint32_t k = tail.first; k < tail.first + tail.remap.size(); ++k) {
    if (tail(k) == ~0u) continue;
    const std::uint32_t at = start + std::uint32_t(keep.size());
    for (std::uint32_t i = 0; i < count[k]; ++i) keep.push_back(begin[k] + i);
    begin[k] = at;
  }
  return keep;
}

// Keeps the colliders of surviving bodies, in order.
void compact_colliders(Stores<WritesBodies, WritesColliders> w, const Tail& tail) {
  auto& c = w.colliders;
  std::uint32_t start = 0;
  const auto keep = rows_of_survivors(tail, w.bodies.collider_begin, w.bodies.collider_count,
                                      std::uint32_t(c.size()), start);
  // The counted colliders among the removed ones (ColliderStore::surface_count,
  // custom_filter_colliders, pre_solve_colliders), each counted only while some exist.
  const auto count_from = [&c](std::uint32_t from, std::uint32_t counter, auto&& counts) {
    std::uint32_t n = 0;
    if (counter != 0)
      for (std::uint32_t i = from; i < c.size(); ++i) n += counts(i);
    return n;
  };
  const auto surface = [&c](std::uint32_t i) {
    return c.tangent_speed[i] != 0 || c.rolling_resistance[i] != 0;
  };
  const auto filtered = [&c](std::uint32_t i) { return (c.callbacks[i] & kCustomFilter) != 0; };
  const auto pre_solved = [&c](std::uint32_t i) { return (c.callbacks[i] & kPreSolve) != 0; };
  const std::uint32_t surfaces = count_from(start, w.colliders.surface_count, surface);
  const std::uint32_t filters = count_from(start, w.colliders.custom_filter_count, filtered);
  const std::uint32_t pre_solves = count_from(start, w.colliders.pre_solve_count, pre_solved);
  keep_rows(c, start, keep);
  w.colliders.surface_count -= surfaces - count_from(start, surfaces, surface);
  w.colliders.custom_filter_count -= filters - count_from(start, filters, filtered);
  w.colliders.pre_solve_count -= pre_solves - count_from(start, pre_solves, pre_solved);
  for (std::uint32_t i = start; i < c.size(); ++i) {
    c.body[i] = tail(c.body[i]);
    w.colliders.slots[c.slot[i]].dense = i;
  }
}

// Keeps the particles and struts of surviving bodies, in order, renumbering the struts' ends.
void compact_particles(Stores<WritesBodies, WritesParticles, WritesSoft> w, const Tail& tail) {
  auto& b = w.bodies;
  auto& q = w.particles;
  const std::uint32_t n = tail.first + std::uint32_t(tail.remap.size());
  // Struts first, while the old particle ranges are still readable.
  std::uint32_t sout =
      tail.first < n ? b.strut_begin[tail.first] : std::uint32_t(w.soft.struts.size());
  std::uint32_t pout = tail.first < n ? b.particle_begin[tail.first] : std::uint32_t(q.size());
  for (std::uint32_t k = tail.first; k < n; ++k) {
    if (tail(k) == ~0u) continue;
    const std::uint32_t pb = b.particle_begin[k], sb = b.strut_begin[k];
    b.strut_begin[k] = sout;
    for (std::uint32_t i = 0; i < b.strut_count[k]; ++i) {
      Strut s = w.soft.struts[sb + i];
      s.a = s.a - pb + pout;
      s.b = s.b - pb + pout;
      w.soft.struts[sout + i] = s;
    }
    sout += b.strut_count[k];
    pout += b.particle_count[k];
  }
  w.soft.struts.resize(sout);
  std::uint32_t start = 0;
  const auto keep =
      rows_of_survivors(tail, b.particle_begin, b.particle_count, std::uint32_t(q.size()), start);
  keep_rows(q, start, keep);
  for (std::uint32_t i = start; i < q.size(); ++i) q.body[i] = tail(q.body[i]);
}

}  // namespace

// Only the bodies from the first destroyed one on move (with their colliders, particles and
// struts), so destroying recent bodies (a game's bullets) costs what was created after them, not
// the whole world, and the next step does not visit the idle bodies (BM_IdleBodiesWithChurn).
void compact_bodies(
    Stores<WritesBodies, WritesColliders, WritesParticles, WritesSoft, WritesJoints> w) {
  if (!w.bodies.needs_compaction) return;
  w.bodies.needs_compaction = false;
  w.bodies.dense_moved = true;
  w.soft.lanes.dirty = true;  // particle and strut indices move
  w.joints.mark_changed();    // and the joints' bodies
  auto& b = w.bodies;
  const std::uint32_t n = std::uint32_t(b.size());
  Tail tail{std::min(w.bodies.first_dead, n), {}};
  w.bodies.first_dead = ~0u;
  tail.remap.assign(n - tail.first, ~0u);
  std::vector<std::uint32_t> keep;
  for (std::uint32_t k = tail.first; k < n; ++k) {
    if (b.flags[k] & kDead) {
      if (b.locks[k]) --w.bodies.locked_count;
      continue;
    }
    tail.remap[k - tail.first] = tail.first + std::uint32_t(keep.size());
    keep.push_back(k);
  }
  compact_particles(w, tail);
  compact_colliders(w, tail);
  keep_rows(b, tail.first, keep);
  for (std::size_t i = 0; i < keep.size(); ++i)
    if (keep[i] != tail.first + i)
      w.bodies.cold[tail.first + i] = std::move(w.bodies.cold[keep[i]]);
  w.bodies.cold.resize(tail.first + keep.size());
  for (std::uint32_t k = tail.first; k < b.size(); ++k) w.bodies.slots[b.slot[k]].dense = k;
  forget_visits_from(w, tail.first);
}

}  // namespace strut

namespace strut {

void kill_joint(WorldState& w, Joint& j) {
  if (!j.dead && has_event_threshold(j.def)) --w.joints.threshold_count;
  j.dead = true;
  for (const std::uint32_t body : {j.slot_a, j.slot_b})
    if (body < w.joints.of_body.size()) std::erase(w.joints.of_body[body], j.slot);
  w.joints.slots.release(j.slot);
  w.joints.need_compaction = true;
  w.joints.mark_changed();
  w.pairs.ignored_dirty = true;
}

void compact_joints(Stores<WritesJoints> w) {
  if (!w.joints.need_compaction) return;
  std::erase_if(w.joints.dense, [](const Joint& j) { return j.dead; });
  w.joints.mark_changed();
  for (std::size_t k = 0; k < w.joints.dense.size(); ++k)
    w.joints.slots[w.joints.dense[k].slot].dense = std::uint32_t(k);
  w.joints.need_compaction = false;
}

}  // namespace strut
