// A contact point evaluated at the current positions, from its features (the soft path and the
// continuous pass; the rigid path prepares its points once per step instead).
#include <algorithm>
#include <cmath>

#include "solver/bodies/body_store.hpp"
#include "solver/contacts/contact_solver.hpp"
#include "solver/core/stores.hpp"

namespace strut {
namespace {

PointRef vertex_ref(Stores<ReadsBodies, ReadsParticles> w, std::uint32_t body,
                    std::uint32_t vertex) {
  PointRef p;
  p.body = body;
  p.rigid = w.bodies.is_rigid(body);
  const std::uint32_t particle = w.bodies.particle_begin[body] + vertex;
  p.local = {w.particles.lx[particle], w.particles.ly[particle]};
  p.i1 = p.i2 = particle;
  return p;
}

Vec2 particle_pos(Stores<ReadsBodies, ReadsParticles> w, std::uint32_t body, std::uint32_t vertex) {
  const std::uint32_t i = w.bodies.particle_begin[body] + vertex;
  if (!w.bodies.is_rigid(body)) return {w.particles.x[i], w.particles.y[i]};
  return body_point(w.bodies, body, {w.particles.lx[i], w.particles.ly[i]});
}

// Moves a rounded feature's contact point (a circle's centre, a capsule's or rounded polygon's
// vertex) out to its surface, so friction turns the body about the right point.
void to_surface(Stores<ReadsBodies> w, PointRef &p, float radius, Vec2 outward) {
  if (radius <= 0 || !p.rigid) return;
  p.local += inv_rotate(Rot{w.bodies.qc[p.body], w.bodies.qs[p.body]}, radius * outward);
}

}  // namespace

ContactGeometry evaluate_contact(Stores<ReadsBodies, ReadsParticles> w, const ContactPoint &cp) {
  ContactGeometry g;
  // Between rigid bodies the normal is the one the features were chosen with, and the
  // separation is measured along it from the other feature's point nearest the vertex, as the
  // rigid prepare takes them (contact_prepare.hpp); a soft body's edges turn as they bend.
  const bool held_normal = w.bodies.is_rigid(cp.body_v) && w.bodies.is_rigid(cp.body_o);
  g.v = vertex_ref(w, cp.body_v, cp.vertex);
  const Vec2 V = particle_pos(w, cp.body_v, cp.vertex);
  if (cp.kind == ContactKind::VertexEdge) {
    const std::uint32_t i = cp.other;
    const std::uint32_t j = i + w.particles.next[w.bodies.particle_begin[cp.body_o] + i];
    const Vec2 e1 = particle_pos(w, cp.body_o, i);
    const Vec2 e2 = particle_pos(w, cp.body_o, j);
    const Vec2 d = e2 - e1;
    const float len2 = dot(d, d);
    const float t = len2 > 0 ? std::clamp(dot(V - e1, d) / len2, 0.0f, 1.0f) : 0.0f;
    if (held_normal) {
      g.n = cp.normal();
      g.c = gap_along(g.n, V - e1, d, t) - cp.radius();
    } else {
      g.n = len2 > 0 ? (1.0f / std::sqrt(len2)) * Vec2{d.y, -d.x} : cp.normal();
      g.c = dot(g.n, V - e1) - cp.radius();
    }
    g.o.body = cp.body_o;
    if (w.bodies.is_rigid(cp.body_o)) {
      const std::uint32_t p0 = w.bodies.particle_begin[cp.body_o];
      const Vec2 l1{w.particles.lx[p0 + i], w.particles.ly[p0 + i]};
      const Vec2 l2{w.particles.lx[p0 + j], w.particles.ly[p0 + j]};
      g.o.rigid = true;
      g.o.local = l1 + t * (l2 - l1);
      to_surface(w, g.o, cp.radius_o, g.n);
    } else {
      g.o.rigid = false;
      g.o.i1 = w.bodies.particle_begin[cp.body_o] + i;
      g.o.i2 = w.bodies.particle_begin[cp.body_o] + j;
      g.o.t = t;
    }
  } else {
    g.o = vertex_ref(w, cp.body_o, cp.other);
    const Vec2 W = particle_pos(w, cp.body_o, cp.other);
    const Vec2 d = V - W;
    if (held_normal) {
      g.n = cp.normal();
      g.c = dot(g.n, d) - cp.radius();
    } else {
      const float dist = length(d);
      g.n = dist > 1e-9f ? (1.0f / dist) * d : cp.normal();
      g.c = dist - cp.radius();
    }
    to_surface(w, g.o, cp.radius_o, g.n);
  }
  to_surface(w, g.v, cp.radius_v, -g.n);
  return g;
}

}  // namespace strut
