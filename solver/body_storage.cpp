// Creating, destroying and compacting bodies. Bodies live in dense arrays in creation order;
// a destroyed body is flagged dead and removed by a stable compaction at the start of the next
// step, so the order (and with it every result) never depends on the history of removals.
#include "solver/body_storage.hpp"

#include <algorithm>
#include <cmath>

#include "solver/polygon_geometry.hpp"

namespace strut {
namespace {

template <class T>
void push(std::vector<T>& v, T x) {
  v.push_back(x);
}

// Polygon vertices of a shape, counter-clockwise, relative to def.center in body coordinates.
std::vector<Vec2> shape_vertices(const Shape& shape) {
  if (const auto* box = std::get_if<BoxShape>(&shape)) {
    const Vec2 h = box->half_extents;
    return {{-h.x, -h.y}, {h.x, -h.y}, {h.x, h.y}, {-h.x, h.y}};
  }
  return make_convex_ccw(std::get<PolygonShape>(shape).vertices, "vertices");
}

}  // namespace

std::uint32_t add_body(World::Impl& w, const BodyDef& def, std::uint32_t slot) {
  auto& b = w.bodies;
  auto& q = w.particles;
  const std::uint32_t k = static_cast<std::uint32_t>(b.size());
  const bool is_static = def.is_static;
  const bool kinematic = def.is_kinematic;
  const bool circle = std::holds_alternative<CircleShape>(def.shape);
  const bool soft = def.soft > 0 && !is_static && !kinematic;
  std::uint8_t flags = 0;
  if (is_static) flags |= kStatic;
  if (kinematic) flags |= kKinematic;
  if (soft) flags |= kSoft;
  if (def.bullet) flags |= kBullet;
  if (circle) flags |= kCircle;
  if (!def.enable_sleep) flags |= kNoSleep;

  // Geometry and mass in body coordinates, origin at the centre of mass.
  std::vector<Vec2> hull;  // relative to the centre of mass
  Vec2 com_offset;
  float mass = 0, inertia = 0, radius = 0;
  if (circle) {
    radius = std::get<CircleShape>(def.shape).radius;
    mass = def.material.density * float(M_PI) * radius * radius;
    inertia = 0.5f * mass * radius * radius;
  } else {
    hull = shape_vertices(def.shape);
    const PolygonMass pm = polygon_mass(hull);
    com_offset = pm.centroid;
    for (Vec2& v : hull) v -= pm.centroid;
    mass = def.material.density * pm.area;
    inertia = def.material.density * pm.inertia;
  }
  const bool moves = !is_static && !kinematic;
  const Rot rot = make_rot(def.angle);
  const Vec2 com = def.center + rotate(rot, com_offset);

  push(b.slot, slot);
  push(b.flags, flags);
  push(b.particle_begin, static_cast<std::uint32_t>(q.size()));
  push(b.hull_count, static_cast<std::uint8_t>(hull.size()));
  push(b.radius, radius);
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
  push(b.inv_mass, moves && mass > 0 ? 1.0f / mass : 0.0f);
  push(b.inv_inertia, moves && inertia > 0 && !def.fixed_rotation ? 1.0f / inertia : 0.0f);
  push(b.gravity_scale, def.gravity_scale);
  push(b.drag, def.linear_drag);
  push(b.angular_drag, def.angular_drag);
  push(b.fx, 0.0f);
  push(b.fy, 0.0f);
  push(b.torque, 0.0f);
  push(b.friction, def.material.friction);
  push(b.static_friction, static_friction_of(def.material));
  push(b.restitution, def.material.restitution);
  push(b.category, def.category);
  push(b.mask, def.mask);
  push(b.internal_edges, std::uint16_t{0});
  push(b.sleep_time, 0.0f);
  push(b.before_step, Transform{com, def.angle});
  push(b.aabb, Aabb{});
  push(b.island, slot);

  // Particles: hull vertices first (they are the contact features), then for a soft body the
  // interior particle that carries the rest of the mass.
  auto add_particle = [&](Vec2 local, float inv_mass) {
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
  };
  std::uint32_t strut_begin = static_cast<std::uint32_t>(w.struts.size());
  if (circle) {
    add_particle({0, 0}, 0.0f);
  } else if (!soft) {
    for (Vec2 v : hull) add_particle(v, 0.0f);
  } else {
    const ParticleMassSplit split = split_polygon_mass(hull, mass, inertia);
    for (Vec2 v : hull) add_particle(v, 1.0f / split.vertex_mass);
    add_particle(split.centre, split.centre_mass > 0 ? 1.0f / split.centre_mass : 0.0f);
    // Braces: the hull edges plus spokes to the interior particle triangulate the polygon, so
    // rigid struts alone hold its shape; compliance makes it soft.
    const std::uint32_t p0 = b.particle_begin[k];
    const std::uint32_t n = static_cast<std::uint32_t>(hull.size());
    auto add_strut = [&](std::uint32_t i, std::uint32_t j) {
      const float rest = length(Vec2{q.lx[i] - q.lx[j], q.ly[i] - q.ly[j]});
      w.struts.push_back(Strut{i, j, rest, def.soft});
    };
    for (std::uint32_t i = 0; i < n; ++i) add_strut(p0 + i, p0 + (i + 1) % n);
    for (std::uint32_t i = 0; i < n; ++i) add_strut(p0 + n, p0 + i);
    w.strut_lanes.dirty = true;
  }
  push(b.particle_count, static_cast<std::uint8_t>(q.size() - b.particle_begin[k]));
  push(b.strut_begin, strut_begin);
  push(b.strut_count, static_cast<std::uint32_t>(w.struts.size() - strut_begin));

  BodyCold cold;
  cold.def = def;
  cold.com_offset = com_offset;
  w.cold.push_back(std::move(cold));
  return k;
}

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
  q.body.resize(pout);
  w.struts.resize(sout);
  b.particle_begin = new_pbegin;
  b.strut_begin = new_sbegin;

  compact(b.slot), compact(b.flags), compact(b.particle_begin), compact(b.hull_count);
  compact(b.particle_count), compact(b.strut_begin), compact(b.strut_count), compact(b.radius);
  compact(b.px), compact(b.py), compact(b.qc), compact(b.qs);
  compact(b.dx), compact(b.dy), compact(b.da);
  compact(b.inv_mass), compact(b.inv_inertia), compact(b.mass), compact(b.inertia);
  compact(b.gravity_scale), compact(b.drag), compact(b.angular_drag), compact(b.fx), compact(b.fy),
      compact(b.torque);
  compact(b.friction), compact(b.static_friction), compact(b.restitution);
  compact(b.category), compact(b.mask), compact(b.internal_edges), compact(b.sleep_time);
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
