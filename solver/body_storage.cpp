// Creating, destroying and compacting bodies. Bodies live in dense arrays in creation order;
// a destroyed body is flagged dead and removed by a stable compaction at the start of the next
// step, so the order (and with it every result) never depends on the history of removals.
#include "solver/body_storage.hpp"

#include <algorithm>
#include <cmath>

#include "solver/collide_phase.hpp"
#include "solver/polygon_geometry.hpp"
#include "solver/shapes/shape_ops.hpp"

namespace strut {
namespace {

template <class T>
void push(std::vector<T>& v, T x) {
  v.push_back(x);
}

std::uint32_t new_collider_slot(World::Impl& w) {
  if (!w.free_collider_slots.empty()) {
    const std::uint32_t s = w.free_collider_slots.back();
    w.free_collider_slots.pop_back();
    return s;
  }
  w.collider_slots.push_back(ColliderSlot{});
  return std::uint32_t(w.collider_slots.size() - 1);
}

}  // namespace

std::vector<ShapeDef> shape_defs_of(const BodyDef& def) {
  if (!def.shapes.empty()) return def.shapes;
  ShapeDef one;
  one.shape = def.shape;
  one.material = def.material;
  one.filter = ShapeFilter{def.category, def.mask, def.group};
  one.sensor = def.sensor;
  return {one};
}

std::uint32_t new_shape_slot(World::Impl& w) {
  if (!w.free_shape_slots.empty()) {
    const std::uint32_t s = w.free_shape_slots.back();
    w.free_shape_slots.pop_back();
    w.shapes[s].internal_edges = 0;  // a tile's seams are not the next shape's
    return s;
  }
  w.shapes.push_back(ShapeRecord{});
  return std::uint32_t(w.shapes.size() - 1);
}

std::uint32_t add_body(World::Impl& w, const BodyDef& def, std::uint32_t slot,
                       std::span<const std::uint32_t> shape_slots) {
  auto& b = w.bodies;
  auto& q = w.particles;
  auto& c = w.colliders;
  const std::uint32_t k = static_cast<std::uint32_t>(b.size());
  const bool is_static = def.is_static;
  const bool kinematic = def.is_kinematic;
  const bool soft = def.soft > 0 && !is_static && !kinematic;
  const std::vector<ShapeDef> shape_defs = shape_defs_of(def);
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

  push(b.slot, slot);
  push(b.flags, flags);
  push(b.particle_begin, static_cast<std::uint32_t>(q.size()));
  push(b.collider_begin, static_cast<std::uint32_t>(c.size()));
  push(b.px, com.x);
  push(b.py, com.y);
  push(b.qc, rot.c);
  push(b.qs, rot.s);
  // Velocity is implicit: the previous pose is placed one substep back along it.
  const float h = w.last_h;
  push(b.dx, def.velocity.x * h);
  push(b.dy, def.velocity.y * h);
  const Rot spin = make_rot(def.angular_velocity * h);
  push(b.da, def.fixed_rotation ? 0.0f : def.angular_velocity * h);
  push(b.mass, mass);
  push(b.inertia, inertia);
  push(b.reach, 0.0f);  // once the particles exist (below)
  push(b.inv_mass, moves && mass > 0 ? 1.0f / mass : 0.0f);
  push(b.inv_inertia, moves && inertia > 0 && !def.fixed_rotation ? 1.0f / inertia : 0.0f);
  push(b.gravity_scale, def.gravity_scale);
  push(b.drag, def.linear_drag);
  push(b.angular_drag, def.angular_drag);
  push(b.fx, 0.0f);
  push(b.fy, 0.0f);
  push(b.torque, 0.0f);
  push(b.sleep_time, 0.0f);
  push(b.before_step, Transform{com, def.angle});
  push(b.aabb, Aabb{});
  push(b.island, slot);

  // Particles: every collider's vertices (the contact features), then for a soft body the
  // interior particle that carries the rest of the mass.
  auto add_particle = [&](Vec2 local, float inv_mass, std::int8_t next) {
    const Vec2 x = com + rotate(rot, local);
    const Vec2 arm_now = rotate(rot, local);
    const Vec2 motion = h * def.velocity + (arm_now - inv_rotate(spin, arm_now));
    push(q.x, x.x);
    push(q.y, x.y);
    push(q.dx, motion.x);
    push(q.dy, motion.y);
    push(q.w, inv_mass);
    push(q.lx, local.x);
    push(q.ly, local.y);
    push(q.body, k);
    push(q.next, next);
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
      const std::uint32_t cs = new_collider_slot(w);
      w.collider_slots[cs].dense = std::uint32_t(c.size());
      w.collider_slots[cs].alive = true;
      push(c.slot, cs);
      push(c.body, k);
      push(c.shape, shape_slots[s]);
      push(c.kind, piece.kind);
      push(c.count, std::uint8_t(piece.count));
      push(c.vertex_begin, std::uint32_t(q.size() - p0));
      push(c.radius, piece.radius);
      push(c.friction, sd.material.friction);
      push(c.static_friction, static_friction_of(sd.material));
      push(c.restitution, sd.material.restitution);
      push(c.category, sd.filter.category);
      push(c.mask, sd.filter.mask);
      push(c.group, sd.filter.group);
      push(c.sensor, std::uint8_t(sd.sensor));
      push(c.internal_edges, w.shapes[shape_slots[s]].internal_edges);
      push(c.ghost_prev, piece.ghost_prev - com_offset);
      push(c.ghost_next, piece.ghost_next - com_offset);
      push(c.ghosts, std::uint8_t((piece.has_prev ? 1 : 0) | (piece.has_next ? 2 : 0)));
      push(c.aabb, Aabb{});
      for (int i = 0; i < piece.count; ++i) {
        const std::int8_t next = piece.count == 1      ? 0
                                 : i + 1 < piece.count ? 1
                                                       : -(piece.count - 1);
        add_particle(piece.vertices[i] - com_offset, vertex_inv_mass, next);
      }
    }
  }
  push(b.collider_count, static_cast<std::uint32_t>(c.size() - b.collider_begin[k]));
  std::uint32_t strut_begin = static_cast<std::uint32_t>(w.struts.size());
  if (soft) {
    add_particle(split.centre, split.centre_mass > 0 ? 1.0f / split.centre_mass : 0.0f, 0);
    // Braces: the hull edges plus spokes to the interior particle triangulate the polygon, so
    // rigid struts alone hold its shape; compliance makes it soft.
    const std::uint32_t n = static_cast<std::uint32_t>(pieces[0][0].count);
    auto add_strut = [&](std::uint32_t i, std::uint32_t j) {
      const float rest = length(Vec2{q.lx[i] - q.lx[j], q.ly[i] - q.ly[j]});
      w.struts.push_back(Strut{i, j, rest, def.soft});
    };
    for (std::uint32_t i = 0; i < n; ++i) add_strut(p0 + i, p0 + (i + 1) % n);
    for (std::uint32_t i = 0; i < n; ++i) add_strut(p0 + n, p0 + i);
    w.strut_lanes.dirty = true;
  }
  push(b.particle_count, static_cast<std::uint32_t>(q.size() - p0));
  push(b.strut_begin, strut_begin);
  push(b.strut_count, static_cast<std::uint32_t>(w.struts.size() - strut_begin));
  b.reach[k] = local_reach(w, k);

  BodyCold cold;
  cold.def = def;
  cold.com_offset = com_offset;
  cold.shapes.assign(shape_slots.begin(), shape_slots.end());
  w.cold.push_back(std::move(cold));
  return k;
}

namespace {

// Keeps the colliders of surviving bodies, in order; `remap` takes a dense body to its new index
// (~0: removed). Sets each body's new collider_begin (compacted with the bodies afterwards).
void compact_colliders(World::Impl& w, const std::vector<std::uint32_t>& remap) {
  auto& b = w.bodies;
  auto& c = w.colliders;
  std::vector<std::uint32_t> keep;
  keep.reserve(c.size());
  for (std::uint32_t k = 0; k < b.size(); ++k) {
    if (remap[k] == ~0u) continue;
    const std::uint32_t first = std::uint32_t(keep.size());
    for (std::uint32_t i = 0; i < b.collider_count[k]; ++i) keep.push_back(b.collider_begin[k] + i);
    b.collider_begin[k] = first;
  }
  auto gather = [&](auto& v) {
    for (std::size_t i = 0; i < keep.size(); ++i) v[i] = v[keep[i]];
    v.resize(keep.size());
  };
  gather(c.slot), gather(c.body), gather(c.shape), gather(c.kind), gather(c.count);
  gather(c.vertex_begin), gather(c.radius), gather(c.friction), gather(c.static_friction);
  gather(c.restitution), gather(c.category), gather(c.mask), gather(c.group), gather(c.sensor);
  gather(c.internal_edges), gather(c.ghost_prev), gather(c.ghost_next), gather(c.ghosts);
  gather(c.aabb);
  for (std::uint32_t i = 0; i < c.size(); ++i) {
    c.body[i] = remap[c.body[i]];
    w.collider_slots[c.slot[i]].dense = i;
  }
}

}  // namespace

void compact_bodies(World::Impl& w) {
  if (!w.needs_compaction) return;
  w.needs_compaction = false;
  w.strut_lanes.dirty = true;  // particle and strut indices move
  auto& b = w.bodies;
  auto& q = w.particles;
  const std::size_t n = b.size();
  std::vector<std::uint32_t> remap(n, ~0u);
  std::uint32_t out = 0;
  for (std::uint32_t k = 0; k < n; ++k)
    if (!(b.flags[k] & kDead)) remap[k] = out++;

  auto compact = [&](auto& v) {
    std::uint32_t o = 0;
    for (std::uint32_t k = 0; k < n; ++k)
      if (remap[k] != ~0u) v[o++] = v[k];
    v.resize(o);
  };
  // Particles and struts first, while the old ranges are still readable.
  std::uint32_t pout = 0, sout = 0;
  std::vector<std::uint32_t> new_pbegin(n), new_sbegin(n);
  for (std::uint32_t k = 0; k < n; ++k) {
    if (remap[k] == ~0u) continue;
    const std::uint32_t pb = b.particle_begin[k], pc = b.particle_count[k];
    new_pbegin[k] = pout;
    for (std::uint32_t i = 0; i < pc; ++i) {
      const std::uint32_t s = pb + i, d = pout + i;
      q.x[d] = q.x[s];
      q.y[d] = q.y[s];
      q.dx[d] = q.dx[s];
      q.dy[d] = q.dy[s];
      q.w[d] = q.w[s];
      q.lx[d] = q.lx[s];
      q.ly[d] = q.ly[s];
      q.body[d] = remap[k];
      q.next[d] = q.next[s];
    }
    new_sbegin[k] = sout;
    for (std::uint32_t i = 0; i < b.strut_count[k]; ++i) {
      Strut s = w.struts[b.strut_begin[k] + i];
      s.a = s.a - pb + pout;
      s.b = s.b - pb + pout;
      w.struts[sout + i] = s;
    }
    pout += pc;
    sout += b.strut_count[k];
  }
  for (auto* v : {&q.x, &q.y, &q.dx, &q.dy, &q.w, &q.lx, &q.ly}) v->resize(pout);
  q.body.resize(pout), q.next.resize(pout);
  w.struts.resize(sout);
  b.particle_begin = new_pbegin;
  b.strut_begin = new_sbegin;

  compact_colliders(w, remap);
  compact(b.slot), compact(b.flags), compact(b.particle_begin), compact(b.collider_begin);
  compact(b.particle_count), compact(b.collider_count), compact(b.strut_begin),
      compact(b.strut_count);
  compact(b.px), compact(b.py), compact(b.qc), compact(b.qs);
  compact(b.dx), compact(b.dy), compact(b.da);
  compact(b.inv_mass), compact(b.inv_inertia), compact(b.mass), compact(b.inertia),
      compact(b.reach);
  compact(b.gravity_scale), compact(b.drag), compact(b.angular_drag), compact(b.fx), compact(b.fy),
      compact(b.torque);
  compact(b.sleep_time);
  compact(b.before_step), compact(b.aabb), compact(b.island);
  compact(w.cold);
  for (std::uint32_t k = 0; k < b.size(); ++k) w.slots[b.slot[k]].dense = k;
}

}  // namespace strut

namespace strut {

void kill_joint(World::Impl& w, Joint& j) {
  j.dead = true;
  for (const std::uint32_t body : {j.slot_a, j.slot_b})
    if (body < w.joints_of_body.size()) std::erase(w.joints_of_body[body], j.slot);
  w.joint_slots[j.slot].alive = false;
  w.joint_slots[j.slot].generation++;
  w.free_joint_slots.push_back(j.slot);
  w.joints_need_compaction = true;
  w.ignored_pairs_dirty = true;
}

void compact_joints(World::Impl& w) {
  if (!w.joints_need_compaction) return;
  std::erase_if(w.joints, [](const Joint& j) { return j.dead; });
  for (std::size_t k = 0; k < w.joints.size(); ++k)
    w.joint_slots[w.joints[k].slot].dense = std::uint32_t(k);
  w.joints_need_compaction = false;
}

}  // namespace strut
