// The position-based contact solver.
//
// Every contact point is a feature pair, vertex V against edge E1 E2 (or against another vertex),
// re-evaluated from the current positions in every iteration of every substep: no collision
// detection between substeps. With n the edge's outward normal and t the projection parameter
// of V on the edge, C = n . (V - (E1 + t (E2 - E1))) - radii must be >= 0. The projection moves
// V by +w_V s n and the edge point by -w_E s n with s = -C / (w_V + w_E): for particles
// w_E = (1-t)^2 w_E1 + t^2 w_E2 (the seed's lambda rule for unequal masses), for rigid bodies the
// generalised inverse mass 1/m + (r x n)^2 / I, so one projection moves and turns the body as a
// rigid body would (see point_ref.hpp).
//
// Friction is positional: the tangential slip of the contact point over the substep is undone
// while the friction impulse stays below mu_static times the normal impulse of the substep, and
// is reduced by at most mu_dynamic times it otherwise (Coulomb's cone on position impulses).
#include "solver/contact_solver.hpp"

#include <algorithm>
#include <cmath>

#include "solver/point_ref.hpp"

namespace strut {
namespace {

PointRef vertex_ref(const World::Impl& w, std::uint32_t body, std::uint32_t vertex) {
  PointRef p;
  p.body = body;
  p.rigid = w.is_rigid(body);
  const std::uint32_t particle = w.bodies.particle_begin[body] + vertex;
  p.local = {w.particles.lx[particle], w.particles.ly[particle]};
  p.i1 = p.i2 = particle;
  return p;
}

Vec2 particle_pos(const World::Impl& w, std::uint32_t body, std::uint32_t vertex) {
  const std::uint32_t i = w.bodies.particle_begin[body] + vertex;
  if (!w.is_rigid(body)) return {w.particles.x[i], w.particles.y[i]};
  return body_point(w.bodies, body, {w.particles.lx[i], w.particles.ly[i]});
}

// Moves a circle's contact point from its centre to its surface, so friction turns it.
void to_surface(const World::Impl& w, PointRef& p, Vec2 outward) {
  if (!(w.bodies.flags[p.body] & kCircle)) return;
  const float r = w.bodies.radius[p.body];
  p.local = inv_rotate(Rot{w.bodies.qc[p.body], w.bodies.qs[p.body]}, r * outward);
}

}  // namespace

ContactGeometry evaluate_contact(const World::Impl& w, const ContactPoint& cp) {
  ContactGeometry g;
  g.v = vertex_ref(w, cp.body_v, cp.vertex);
  const Vec2 V = particle_pos(w, cp.body_v, cp.vertex);
  if (cp.kind == ContactKind::VertexEdge) {
    const std::uint32_t n = w.bodies.hull_count[cp.body_o];
    const std::uint32_t i = cp.other, j = (cp.other + 1u) % n;
    const Vec2 e1 = particle_pos(w, cp.body_o, i);
    const Vec2 e2 = particle_pos(w, cp.body_o, j);
    const Vec2 d = e2 - e1;
    const float len2 = dot(d, d);
    g.n = len2 > 0 ? (1.0f / std::sqrt(len2)) * Vec2{d.y, -d.x} : cp.fallback_normal;
    const float t = len2 > 0 ? std::clamp(dot(V - e1, d) / len2, 0.0f, 1.0f) : 0.0f;
    g.c = dot(g.n, V - e1) - cp.radius;
    if (w.is_rigid(cp.body_o)) {
      const std::uint32_t p0 = w.bodies.particle_begin[cp.body_o];
      const Vec2 l1{w.particles.lx[p0 + i], w.particles.ly[p0 + i]};
      const Vec2 l2{w.particles.lx[p0 + j], w.particles.ly[p0 + j]};
      g.o.body = cp.body_o;
      g.o.rigid = true;
      g.o.local = l1 + t * (l2 - l1);
    } else {
      g.o.body = cp.body_o;
      g.o.rigid = false;
      g.o.i1 = w.bodies.particle_begin[cp.body_o] + i;
      g.o.i2 = w.bodies.particle_begin[cp.body_o] + j;
      g.o.t = t;
    }
  } else {
    g.o = vertex_ref(w, cp.body_o, cp.other);
    const Vec2 W = particle_pos(w, cp.body_o, cp.other);
    const Vec2 d = V - W;
    const float dist = length(d);
    g.n = dist > 1e-9f ? (1.0f / dist) * d : cp.fallback_normal;
    g.c = dist - cp.radius;
    to_surface(w, g.o, g.n);
  }
  to_surface(w, g.v, -g.n);
  return g;
}

static Vec2 relative_motion(const World::Impl& w, const ContactGeometry& g) {
  return point_motion(w, g.v) - point_motion(w, g.o);
}

void begin_contact_substep(World::Impl& w, float h) {
  for (ContactPoint& cp : w.contacts.points) {
    const ContactGeometry g = evaluate_contact(w, cp);
    cp.vn_pre = dot(relative_motion(w, g), g.n) / h;
    cp.lambda_n = 0;
    cp.lambda_t = 0;
    cp.touched = false;
  }
}

void solve_contact(World::Impl& w, ContactPoint& cp) {
  ContactGeometry g = evaluate_contact(w, cp);
  if (g.c < 0) {
    const float wsum = inv_mass_along(w, g.v, g.n) + inv_mass_along(w, g.o, g.n);
    if (wsum <= 0) return;
    const float s = -g.c / wsum;
    apply_position_impulse(w, g.v, s * g.n);
    apply_position_impulse(w, g.o, -s * g.n);
    cp.lambda_n += s;
    cp.touched = true;
  }
  if (cp.lambda_n <= 0) return;
  // Friction on the slip accumulated over the substep, after the normal correction.
  const Vec2 d = relative_motion(w, g);
  const Vec2 tang = d - dot(d, g.n) * g.n;
  const float slip = length(tang);
  if (slip <= 1e-9f) return;
  const Vec2 dir = (1.0f / slip) * tang;
  const float wt = inv_mass_along(w, g.v, dir) + inv_mass_along(w, g.o, dir);
  if (wt <= 0) return;
  float impulse = slip / wt;  // what would stop the slip completely
  if (cp.lambda_t + impulse > cp.static_friction * cp.lambda_n)
    impulse = std::min(impulse, std::max(0.0f, cp.friction * cp.lambda_n - cp.lambda_t));
  if (impulse <= 0) return;
  cp.lambda_t += impulse;
  apply_position_impulse(w, g.v, -impulse * dir);
  apply_position_impulse(w, g.o, impulse * dir);
}

void solve_contacts(World::Impl& w) {
  for (ContactPoint& cp : w.contacts.points) solve_contact(w, cp);
}

void apply_restitution(World::Impl& w, float h, float threshold) {
  for (ContactPoint& cp : w.contacts.points) {
    if (!cp.touched || cp.restitution <= 0 || cp.vn_pre >= -threshold) continue;
    const ContactGeometry g = evaluate_contact(w, cp);
    const float vn = dot(relative_motion(w, g), g.n) / h;
    const float dv = -cp.restitution * cp.vn_pre - vn;
    if (dv <= 0) continue;
    const float wsum = inv_mass_along(w, g.v, g.n) + inv_mass_along(w, g.o, g.n);
    if (wsum <= 0) continue;
    const float j = dv / wsum;
    apply_velocity_impulse(w, g.v, j * g.n, h);
    apply_velocity_impulse(w, g.o, -j * g.n, h);
  }
}

}  // namespace strut
