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

// One more row in every column; the caller fills it.
template <class Arrays>
std::uint32_t append_row(Arrays& arrays) {
  arrays.for_each_column([](auto& column) { column.emplace_back(); });
  return std::uint32_t(arrays.size() - 1);
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
  const std::uint32_t s = w.shape_slots.allocate();
  if (s == w.shapes.size()) w.shapes.emplace_back();
  w.shapes[s] = ShapeRecord{};  // a reused slot keeps nothing of its last shape (a tile's seams)
  return s;
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

  append_row(b);
  b.slot[k] = slot;
  b.flags[k] = flags;
  b.particle_begin[k] = static_cast<std::uint32_t>(q.size());
  b.collider_begin[k] = static_cast<std::uint32_t>(c.size());
  b.px[k] = com.x, b.py[k] = com.y;
  b.qc[k] = rot.c, b.qs[k] = rot.s;
  // Velocity is implicit: the previous pose is placed one substep back along it.
  const float h = w.last_h;
  b.dx[k] = def.velocity.x * h;
  b.dy[k] = def.velocity.y * h;
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
      const std::uint32_t cs = w.collider_slots.allocate();
      const std::uint32_t i = append_row(c);
      w.collider_slots[cs].dense = i;
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
      c.category[i] = sd.filter.category;
      c.mask[i] = sd.filter.mask;
      c.group[i] = sd.filter.group;
      c.sensor[i] = std::uint8_t(sd.sensor);
      c.internal_edges[i] = w.shapes[shape_slots[s]].internal_edges;
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
  b.particle_count[k] = static_cast<std::uint32_t>(q.size() - p0);
  b.strut_begin[k] = strut_begin;
  b.strut_count[k] = static_cast<std::uint32_t>(w.struts.size() - strut_begin);
  b.reach[k] = local_reach(w, k);

  BodyCold cold;
  cold.def = def;
  cold.com_offset = com_offset;
  cold.shapes.assign(shape_slots.begin(), shape_slots.end());
  w.cold.push_back(std::move(cold));
  return k;
}

namespace {

// Keeps rows keep[0], keep[1], ... (ascending) of every column, in that order.
template <class Arrays>
void keep_rows(Arrays& arrays, const std::vector<std::uint32_t>& keep) {
  arrays.for_each_column([&](auto& column) {
    for (std::size_t i = 0; i < keep.size(); ++i) column[i] = column[keep[i]];
    column.resize(keep.size());
  });
}

// The rows [begin[k], begin[k] + count[k]) of each surviving body k, in body order; sets
// begin[k] to where they will be after keep_rows (compacted with the bodies afterwards).
std::vector<std::uint32_t> rows_of_survivors(const std::vector<std::uint32_t>& remap,
                                             std::vector<std::uint32_t>& begin,
                                             const std::vector<std::uint32_t>& count) {
  std::vector<std::uint32_t> keep;
  for (std::uint32_t k = 0; k < remap.size(); ++k) {
    if (remap[k] == ~0u) continue;
    const std::uint32_t first = std::uint32_t(keep.size());
    for (std::uint32_t i = 0; i < count[k]; ++i) keep.push_back(begin[k] + i);
    begin[k] = first;
  }
  return keep;
}

// Keeps the colliders of surviving bodies, in order; `remap` takes a dense body to its new index
// (~0: removed).
void compact_colliders(World::Impl& w, const std::vector<std::uint32_t>& remap) {
  auto& c = w.colliders;
  keep_rows(c, rows_of_survivors(remap, w.bodies.collider_begin, w.bodies.collider_count));
  for (std::uint32_t i = 0; i < c.size(); ++i) {
    c.body[i] = remap[c.body[i]];
    w.collider_slots[c.slot[i]].dense = i;
  }
}

// Keeps the particles and struts of surviving bodies, in order, renumbering the struts' ends.
void compact_particles(World::Impl& w, const std::vector<std::uint32_t>& remap) {
  auto& b = w.bodies;
  auto& q = w.particles;
  // Struts first, while the old particle ranges are still readable.
  std::uint32_t sout = 0, pout = 0;
  for (std::uint32_t k = 0; k < b.size(); ++k) {
    if (remap[k] == ~0u) continue;
    const std::uint32_t pb = b.particle_begin[k], sb = b.strut_begin[k];
    b.strut_begin[k] = sout;
    for (std::uint32_t i = 0; i < b.strut_count[k]; ++i) {
      Strut s = w.struts[sb + i];
      s.a = s.a - pb + pout;
      s.b = s.b - pb + pout;
      w.struts[sout + i] = s;
    }
    sout += b.strut_count[k];
    pout += b.particle_count[k];
  }
  w.struts.resize(sout);
  keep_rows(q, rows_of_survivors(remap, b.particle_begin, b.particle_count));
  for (std::uint32_t i = 0; i < q.size(); ++i) q.body[i] = remap[q.body[i]];
}

}  // namespace

void compact_bodies(World::Impl& w) {
  if (!w.needs_compaction) return;
  w.needs_compaction = false;
  w.dense_moved = true;
  w.strut_lanes.dirty = true;  // particle and strut indices move
  auto& b = w.bodies;
  const std::size_t n = b.size();
  std::vector<std::uint32_t> remap(n, ~0u), keep;
  for (std::uint32_t k = 0; k < n; ++k) {
    if (b.flags[k] & kDead) continue;
    remap[k] = std::uint32_t(keep.size());
    keep.push_back(k);
  }
  compact_particles(w, remap);
  compact_colliders(w, remap);
  keep_rows(b, keep);
  for (std::size_t i = 0; i < keep.size(); ++i)
    if (keep[i] != i) w.cold[i] = std::move(w.cold[keep[i]]);
  w.cold.resize(keep.size());
  for (std::uint32_t k = 0; k < b.size(); ++k) w.slots[b.slot[k]].dense = k;
}

}  // namespace strut

namespace strut {

void kill_joint(World::Impl& w, Joint& j) {
  j.dead = true;
  for (const std::uint32_t body : {j.slot_a, j.slot_b})
    if (body < w.joints_of_body.size()) std::erase(w.joints_of_body[body], j.slot);
  w.joint_slots.release(j.slot);
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
