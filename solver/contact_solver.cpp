// The contact solver.
//
// Every contact point is a feature pair, vertex V against edge E1 E2 (or against another vertex),
// re-evaluated from the current positions whenever it is solved: no collision detection between
// substeps. With n the edge's outward normal and t the projection parameter of V on the edge,
// the separation is C = n . (V - (E1 + t (E2 - E1))) - radii, and C >= 0 is the constraint. An
// impulse along n moves V's body by w_V and the edge point's by w_E, where for particles
// w_E = (1-t)^2 w_E1 + t^2 w_E2 (the seed's lambda rule for unequal masses) and for a rigid body
// the generalised inverse mass 1/m + (r x n)^2 / I (point_ref.hpp).
//
// How the constraint is enforced follows Box2D v3's soft step, measured against the plain
// position projection it replaced: with 4 substeps of 1 iteration the projection could not keep
// a stack of ten boxes standing (it fell in 3 s; corrected by position only, it crept 9 cm in
// 10 s; warm-started, it slid). Per substep:
//   1. velocities integrate (gravity, forces);
//   2. warm start: last substep's accumulated impulses are applied again;
//   3. solve: impulses drive the normal velocity to -bias, where the bias closes a speculative
//      gap exactly (C > 0: the approach may use up the gap, never more, so fast bodies do not
//      tunnel) and pushes overlap out softly (a 30 Hz spring with damping ratio 10, at most
//      3 m/s), the accumulated normal impulse staying >= 0; then Coulomb friction;
//   4. positions integrate;
//   5. joints and struts project positions;
//   6. relax: the same solve without bias, so the push-out does not stay as velocity.
// After the last substep, restitution. Impulses persist across steps by feature (narrow phase).
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

// Velocity of the vertex point relative to the other point, from the substep motion.
Vec2 relative_velocity(const World::Impl& w, const ContactGeometry& g, float inv_h) {
  return inv_h * (point_motion(w, g.v) - point_motion(w, g.o));
}

void apply_impulse_pair(World::Impl& w, const ContactGeometry& g, Vec2 P, float h) {
  apply_velocity_impulse(w, g.v, P, h);
  apply_velocity_impulse(w, g.o, -P, h);
}

// Slip speed above which a contact point counts as sliding (dynamic friction).
constexpr float kSlideSpeed = 0.01f;

bool touches_fixed(const World::Impl& w, const ContactPoint& cp) {
  return w.bodies.inv_mass[cp.body_v] == 0 || w.bodies.inv_mass[cp.body_o] == 0;
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
    // The edge point is held at the parameter found at the step start and the normal is the
    // one found then: both anchors stay material points for the step, as in Box2D. Re-projected
    // at every evaluation, the contact point slid along the edge as a box rocked and a stack of
    // ten swayed twice as far.
    const float t = cp.edge_t;
    g.n = cp.normal;
    g.c = dot(g.n, V - (e1 + t * d)) - cp.radius;
    g.o.body = cp.body_o;
    if (w.is_rigid(cp.body_o)) {
      const std::uint32_t p0 = w.bodies.particle_begin[cp.body_o];
      const Vec2 l1{w.particles.lx[p0 + i], w.particles.ly[p0 + i]};
      const Vec2 l2{w.particles.lx[p0 + j], w.particles.ly[p0 + j]};
      g.o.rigid = true;
      g.o.local = l1 + t * (l2 - l1);
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
    const float dist = length(d);
    g.n = dist > 1e-9f ? (1.0f / dist) * d : cp.fallback_normal;
    g.c = dist - cp.radius;
    to_surface(w, g.o, g.n);
  }
  to_surface(w, g.v, -g.n);
  return g;
}

Softness make_softness(float hertz, float damping_ratio, float h) {
  // A spring-damper of the given frequency and damping, implicit in h (Box2D's b2MakeSoft).
  if (hertz <= 0) return {0.0f, 1.0f, 0.0f};
  const float omega = 2.0f * float(M_PI) * hertz;
  const float a1 = 2.0f * damping_ratio + h * omega;
  const float a2 = h * omega * a1;
  const float a3 = 1.0f / (1.0f + a2);
  return {omega / a1, a2 * a3, a3};
}

namespace {

// Calls fn(pair) for every contact pair, colour after colour; the pairs of one colour share no
// moving body, so they run in parallel. Small colours run inline (a task costs more than they).
template <class F>
void for_each_pair_coloured(World::Impl& w, F&& fn) {
  const Colouring& c = w.contact_colours;
  for (int colour = 0; colour <= kOverflowColour; ++colour) {
    const std::uint32_t b = c.begin[colour], e = c.begin[colour + 1];
    if (b == e) continue;
    if (colour == kOverflowColour) {
      for (std::uint32_t i = b; i < e; ++i) fn(c.order[i]);
      continue;
    }
    w.tasks.parallel_for(int(e - b), 128, [&](int lo, int hi, int) {
      for (int i = lo; i < hi; ++i) fn(c.order[b + std::uint32_t(i)]);
    });
  }
}

}  // namespace

void colour_contacts(World::Impl& w) {
  const auto& set = w.contacts;
  auto& s = w.scratch;
  const std::size_t pairs = set.pair_keys.size();
  s.pair_a.resize(pairs), s.pair_b.resize(pairs);
  for (std::size_t p = 0; p < pairs; ++p) {
    const ContactPoint& cp = set.points[set.pair_begin[p]];
    s.pair_a[p] = cp.body_v, s.pair_b[p] = cp.body_o;
  }
  const auto& b = w.bodies;
  s.moving.resize(b.size());
  for (std::size_t k = 0; k < b.size(); ++k)
    s.moving[k] = b.inv_mass[k] > 0 || b.inv_inertia[k] > 0;
  colour_constraints(s.pair_a, s.pair_b, s.moving, b.size(), w.contact_colours);
}

// The anchors of a vertex-edge point for this step: where the vertex projects on the edge, and
// the edge's outward normal.
static void fix_anchors(const World::Impl& w, ContactPoint& cp) {
  if (cp.kind != ContactKind::VertexEdge) return;
  const std::uint32_t n = w.bodies.hull_count[cp.body_o];
  const Vec2 V = particle_pos(w, cp.body_v, cp.vertex);
  const Vec2 e1 = particle_pos(w, cp.body_o, cp.other);
  const Vec2 e2 = particle_pos(w, cp.body_o, (cp.other + 1u) % n);
  const Vec2 d = e2 - e1;
  const float len2 = dot(d, d);
  cp.normal = len2 > 0 ? (1.0f / std::sqrt(len2)) * Vec2{d.y, -d.x} : cp.fallback_normal;
  cp.edge_t = len2 > 0 ? std::clamp(dot(V - e1, d) / len2, 0.0f, 1.0f) : 0.0f;
}

void prepare_contacts(World::Impl& w) {
  // Relative normal velocity at the start of the step, for restitution.
  const float inv_h = 1.0f / w.last_h;
  auto& pts = w.contacts.points;
  w.tasks.parallel_for(int(pts.size()), 512, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i) {
      ContactPoint& cp = pts[std::size_t(i)];
      fix_anchors(w, cp);
      const ContactGeometry g = evaluate_contact(w, cp);
      cp.vn_pre = dot(relative_velocity(w, g, inv_h), g.n);
      cp.max_lambda_n = 0;
    }
  });
}

void warm_start_contacts(World::Impl& w, float h) {
  auto& set = w.contacts;
  for_each_pair_coloured(w, [&](std::uint32_t p) {
    for (std::uint32_t i = set.pair_begin[p]; i < set.pair_begin[p + 1]; ++i) {
      ContactPoint& cp = set.points[i];
      if (cp.lambda_n == 0 && cp.lambda_t == 0) continue;
      const ContactGeometry g = evaluate_contact(w, cp);
      apply_impulse_pair(w, g, cp.lambda_n * g.n + cp.lambda_t * Vec2{g.n.y, -g.n.x}, h);
    }
  });
}

namespace {

void solve_normal(World::Impl& w, ContactPoint& cp, float h, bool use_bias) {
  const float inv_h = 1.0f / h;
  const ContactGeometry g = evaluate_contact(w, cp);
  const float wn = inv_mass_along(w, g.v, g.n) + inv_mass_along(w, g.o, g.n);
  if (wn <= 0) return;
  float bias = 0, mass_scale = 1, impulse_scale = 0;
  if (g.c > 0) {
    bias = g.c * inv_h;  // speculative: the gap may close, no more
  } else if (use_bias) {
    const Softness& s = touches_fixed(w, cp) ? w.static_softness : w.contact_softness;
    bias = std::max(s.bias_rate * g.c, -w.config.contact_push_max);
    mass_scale = s.mass_scale;
    impulse_scale = s.impulse_scale;
  }
  const float vn = dot(relative_velocity(w, g, inv_h), g.n);
  const float impulse = -mass_scale * (vn + bias) / wn - impulse_scale * cp.lambda_n;
  const float total = std::max(cp.lambda_n + impulse, 0.0f);
  const float dn = total - cp.lambda_n;
  cp.lambda_n = total;
  cp.max_lambda_n = std::max(cp.max_lambda_n, total);
  if (dn != 0) apply_impulse_pair(w, g, dn * g.n, h);
}

// Coulomb's cone with the static coefficient while the point sticks and the dynamic one while
// it slides. Whether it slides is read from its slip speed after the relax pass, not from the
// impulse it asks for mid-iteration: Gauss-Seidel makes the first point of a face briefly carry
// the whole load, which flipped boxes that should hold on a slope into sliding.
void solve_friction(World::Impl& w, ContactPoint& cp, float h, bool use_bias) {
  const float inv_h = 1.0f / h;
  const ContactGeometry g = evaluate_contact(w, cp);
  const Vec2 t{g.n.y, -g.n.x};
  const float wt = inv_mass_along(w, g.v, t) + inv_mass_along(w, g.o, t);
  if (wt <= 0) return;
  const float vt = dot(relative_velocity(w, g, inv_h), t);
  const float mu = cp.sliding ? cp.friction : cp.static_friction;
  const float bound = mu * cp.lambda_n;
  const float lt = std::clamp(cp.lambda_t - vt / wt, -bound, bound);
  const float dt_impulse = lt - cp.lambda_t;
  cp.lambda_t = lt;
  if (dt_impulse != 0) apply_impulse_pair(w, g, dt_impulse * t, h);
  if (!use_bias) {
    const float slip = dot(relative_velocity(w, g, inv_h), t);
    cp.sliding = std::fabs(slip) > kSlideSpeed;
  }
}

}  // namespace

// As in Box2D, a pair's normal rows are solved before its friction rows, so friction is bounded
// by this pass's normal impulses.
void solve_contacts(World::Impl& w, float h, bool use_bias) {
  auto& set = w.contacts;
  for_each_pair_coloured(w, [&](std::uint32_t p) {
    const std::uint32_t b = set.pair_begin[p], e = set.pair_begin[p + 1];
    for (std::uint32_t k = b; k < e; ++k) solve_normal(w, set.points[k], h, use_bias);
    for (std::uint32_t k = b; k < e; ++k) solve_friction(w, set.points[k], h, use_bias);
  });
}

void apply_restitution(World::Impl& w, float h, float threshold) {
  const float inv_h = 1.0f / h;
  auto& set = w.contacts;
  for_each_pair_coloured(w, [&](std::uint32_t p) {
  for (std::uint32_t i = set.pair_begin[p]; i < set.pair_begin[p + 1]; ++i) {
    ContactPoint& cp = set.points[i];
    if (cp.restitution <= 0 || cp.vn_pre > -threshold || cp.max_lambda_n <= 0) continue;
    const ContactGeometry g = evaluate_contact(w, cp);
    const float wn = inv_mass_along(w, g.v, g.n) + inv_mass_along(w, g.o, g.n);
    if (wn <= 0) continue;
    const float vn = dot(relative_velocity(w, g, inv_h), g.n);
    const float impulse = -(vn + cp.restitution * cp.vn_pre) / wn;
    const float total = std::max(cp.lambda_n + impulse, 0.0f);
    const float dn = total - cp.lambda_n;
    cp.lambda_n = total;
    if (dn != 0) apply_impulse_pair(w, g, dn * g.n, h);
  }
  });
}

}  // namespace strut
