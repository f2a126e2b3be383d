// The contact solver.
//
// Every contact point is a feature pair, vertex V against edge E1 E2 (or against another vertex).
// With n the edge's outward normal and t the projection parameter of V on the edge, the
// separation is C = n . (V - (E1 + t (E2 - E1))) - radii, and C >= 0 is the constraint. An
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
//
// Units: the state stores motion per substep (d = v h), so velocities here are displacements
// per substep and impulses are momentum x h; the two scale together, so the formulas are
// Box2D's with h folded in.
//
// Two paths share this. Points between rigid bodies are prepared once per step as in Box2D:
// both anchors become material points fixed for the step (offsets from the centres of mass),
// with the normal and effective masses; a substep then needs only the bodies' pose change since
// the step began (the generic evaluation, re-deriving edges and normals on every touch, cost five
// times as much). Points touching a soft body are evaluated from particles every time.
#include "solver/contact_solver.hpp"

#include <algorithm>
#include <cmath>

#include "solver/point_ref.hpp"

namespace strut {
namespace {

// Slip speed above which a contact point counts as sliding (dynamic friction), in m/s.
constexpr float kSlideSpeed = 0.01f;

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

bool touches_fixed(const World::Impl& w, std::uint32_t a, std::uint32_t b) {
  return w.bodies.inv_mass[a] == 0 || w.bodies.inv_mass[b] == 0;
}

// Coefficients of one solver pass, in displacement units.
struct Pass {
  float bias_rate = 0;  // per substep (bias_rate x h)
  float push_max = 0;   // push-out per substep
  Softness soft, soft_fixed;
  bool use_bias = true;
  float slide = 0;  // slip per substep above which a point slides
};

Pass make_pass(const World::Impl& w, float h, bool use_bias) {
  Pass p;
  p.use_bias = use_bias;
  p.soft = w.contact_softness;
  p.soft_fixed = w.static_softness;
  p.soft.bias_rate *= h;
  p.soft_fixed.bias_rate *= h;
  p.push_max = w.config.contact_push_max * h;
  p.slide = kSlideSpeed * h;
  return p;
}

// Normal row: returns the change of the accumulated impulse. s = separation, vn = normal
// motion of the vertex side relative to the other, m = effective mass.
float normal_impulse(const Pass& pass, bool fixed, float s, float vn, float m, float& lambda,
                     float& max_lambda) {
  float bias = 0, mass_scale = 1, impulse_scale = 0;
  if (s > 0) {
    bias = s;  // speculative: the gap may close in this substep, no more
  } else if (pass.use_bias) {
    const Softness& soft = fixed ? pass.soft_fixed : pass.soft;
    bias = std::max(soft.bias_rate * s, -pass.push_max);
    mass_scale = soft.mass_scale;
    impulse_scale = soft.impulse_scale;
  }
  const float impulse = -m * mass_scale * (vn + bias) - impulse_scale * lambda;
  const float total = std::max(lambda + impulse, 0.0f);
  const float change = total - lambda;
  lambda = total;
  max_lambda = std::max(max_lambda, total);
  return change;
}

// Friction row: Coulomb's cone with the static coefficient while the point sticks and the
// dynamic one while it slides. Whether it slides is read from its slip after the relax pass,
// not from the impulse it asks for mid-iteration: Gauss-Seidel makes the first point of a face
// briefly carry the whole load, which flipped boxes that should hold on a slope into sliding.
float friction_impulse(const ContactPoint& cp, float vt, float m, float& lambda) {
  const float bound = (cp.sliding ? cp.friction : cp.static_friction) * cp.lambda_n;
  const float total = std::clamp(lambda - m * vt, -bound, bound);
  const float change = total - lambda;
  lambda = total;
  return change;
}

// ---- generic path (points touching a soft body) ----

Vec2 relative_motion(const World::Impl& w, const ContactGeometry& g) {
  return point_motion(w, g.v) - point_motion(w, g.o);
}

void apply_pair(World::Impl& w, const ContactGeometry& g, Vec2 P) {
  apply_velocity_impulse(w, g.v, P, 1.0f);
  apply_velocity_impulse(w, g.o, -P, 1.0f);
}

void solve_generic(World::Impl& w, ContactPoint& cp, const Pass& pass) {
  const ContactGeometry g = evaluate_contact(w, cp);
  const float wn = inv_mass_along(w, g.v, g.n) + inv_mass_along(w, g.o, g.n);
  if (wn <= 0) return;
  const bool fixed = touches_fixed(w, cp.body_v, cp.body_o);
  const float dn = normal_impulse(pass, fixed, g.c, dot(relative_motion(w, g), g.n), 1.0f / wn,
                                  cp.lambda_n, cp.max_lambda_n);
  if (dn != 0) apply_pair(w, g, dn * g.n);
  const Vec2 t{g.n.y, -g.n.x};
  const float wt = inv_mass_along(w, g.v, t) + inv_mass_along(w, g.o, t);
  if (wt <= 0) return;
  const float dt = friction_impulse(cp, dot(relative_motion(w, g), t), 1.0f / wt, cp.lambda_t);
  if (dt != 0) apply_pair(w, g, dt * t);
  if (!pass.use_bias) cp.sliding = std::fabs(dot(relative_motion(w, g), t)) > pass.slide;
}

// ---- rigid path ----

Vec2 cross_sv(float s, Vec2 v) { return {-s * v.y, s * v.x}; }

// Pose change of body k since the step began: translation and rotation.
struct Delta {
  Vec2 dp;
  Rot dq;
};
Delta delta_of(const World::Impl& w, std::uint32_t k) {
  const auto& b = w.bodies;
  const auto& s = w.scratch;
  const float c = b.qc[k] * s.q0c[k] + b.qs[k] * s.q0s[k];
  const float sn = b.qs[k] * s.q0c[k] - b.qc[k] * s.q0s[k];
  return {{b.px[k] - s.p0x[k], b.py[k] - s.p0y[k]}, {c, sn}};
}

struct Motion {
  Vec2 d;
  float a;
};
Motion motion_of(const World::Impl& w, std::uint32_t k) {
  const auto& b = w.bodies;
  return {{b.dx[k], b.dy[k]}, b.da[k]};
}

void push(World::Impl& w, std::uint32_t k, Vec2 P, Vec2 r) {
  auto& b = w.bodies;
  const float im = b.inv_mass[k], ii = b.inv_inertia[k];
  if (im == 0 && ii == 0) return;  // shared between constraints of a colour: never written
  b.dx[k] += im * P.x;
  b.dy[k] += im * P.y;
  b.da[k] += ii * cross(r, P);
}

void solve_rigid(World::Impl& w, ContactPoint& cp, const RigidPoint& rp, const Pass& pass) {
  const std::uint32_t a = rp.a, b = rp.b;
  // Normal: separation from the pose change since the step began (Box2D's formula).
  const Delta da = delta_of(w, a), db = delta_of(w, b);
  const Vec2 d = (db.dp - da.dp) + (rotate(db.dq, rp.rb) - rotate(da.dq, rp.ra));
  const float s = dot(d, rp.n) + rp.base_separation;
  Motion ma = motion_of(w, a), mb = motion_of(w, b);
  Vec2 dv = (mb.d + cross_sv(mb.a, rp.rb)) - (ma.d + cross_sv(ma.a, rp.ra));
  const bool fixed = touches_fixed(w, a, b);
  const float dn = normal_impulse(pass, fixed, s, dot(dv, rp.n), rp.normal_mass, cp.lambda_n,
                                  cp.max_lambda_n);
  if (dn != 0) {
    const Vec2 P = dn * rp.n;
    push(w, a, -P, rp.ra);
    push(w, b, P, rp.rb);
  }
  // Friction.
  const Vec2 t{rp.n.y, -rp.n.x};
  ma = motion_of(w, a), mb = motion_of(w, b);
  dv = (mb.d + cross_sv(mb.a, rp.rb)) - (ma.d + cross_sv(ma.a, rp.ra));
  const float dt = friction_impulse(cp, dot(dv, t), rp.tangent_mass, cp.lambda_t);
  if (dt != 0) {
    const Vec2 P = dt * t;
    push(w, a, -P, rp.ra);
    push(w, b, P, rp.rb);
  }
  if (!pass.use_bias) {
    ma = motion_of(w, a), mb = motion_of(w, b);
    dv = (mb.d + cross_sv(mb.a, rp.rb)) - (ma.d + cross_sv(ma.a, rp.ra));
    cp.sliding = std::fabs(dot(dv, t)) > pass.slide;
  }
}

// Calls fn(pair) for every contact pair, colour after colour; the pairs of one colour share no
// moving body, so they run in parallel. Because they are independent, how a colour is cut into
// chunks cannot change a bit of the result, so chunks are sized to the thread count (two per
// thread): a step makes about a hundred of these calls and each task costs microseconds.
// Colours too small to share run inline.
template <class F>
void for_each_pair_coloured(World::Impl& w, F&& fn) {
  const Colouring& c = w.contact_colours;
  const int per_chunk_min = 256;
  const int chunks = 2 * w.tasks.thread_count();
  for (int colour = 0; colour <= kOverflowColour; ++colour) {
    const std::uint32_t b = c.begin[colour], e = c.begin[colour + 1];
    if (b == e) continue;
    if (colour == kOverflowColour) {
      for (std::uint32_t i = b; i < e; ++i) fn(c.order[i]);
      continue;
    }
    const int count = int(e - b);
    const int grain = std::max(per_chunk_min, (count + chunks - 1) / chunks);
    w.tasks.parallel_for(count, grain, [&](int lo, int hi, int) {
      for (int i = lo; i < hi; ++i) fn(c.order[b + std::uint32_t(i)]);
    });
  }
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

void prepare_contacts(World::Impl& w) {
  auto& b = w.bodies;
  auto& s = w.scratch;
  const std::size_t n = b.size();
  s.p0x.resize(n), s.p0y.resize(n), s.q0c.resize(n), s.q0s.resize(n);
  for (std::size_t k = 0; k < n; ++k)
    s.p0x[k] = b.px[k], s.p0y[k] = b.py[k], s.q0c[k] = b.qc[k], s.q0s[k] = b.qs[k];
  auto& pts = w.contacts.points;
  auto& prepared = w.contacts.rigid;
  prepared.resize(pts.size());
  w.tasks.parallel_for(int(pts.size()), 512, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i) {
      ContactPoint& cp = pts[std::size_t(i)];
      const ContactGeometry g = evaluate_contact(w, cp);
      cp.max_lambda_n = 0;
      cp.rigid = g.v.rigid && g.o.rigid;
      // Approach speed (per substep) for restitution.
      cp.vn_pre = dot(point_motion(w, g.v) - point_motion(w, g.o), g.n);
      if (!cp.rigid) continue;
      RigidPoint& rp = prepared[std::size_t(i)];
      rp.a = cp.body_o, rp.b = cp.body_v;  // normal from a to b
      rp.n = g.n;
      rp.ra = arm(w, g.o);
      rp.rb = arm(w, g.v);
      rp.base_separation = g.c - dot(rp.rb - rp.ra, g.n);
      const float ima = b.inv_mass[rp.a], imb = b.inv_mass[rp.b];
      const float iia = b.inv_inertia[rp.a], iib = b.inv_inertia[rp.b];
      const Vec2 t{g.n.y, -g.n.x};
      const float rna = cross(rp.ra, g.n), rnb = cross(rp.rb, g.n);
      const float rta = cross(rp.ra, t), rtb = cross(rp.rb, t);
      const float kn = ima + imb + iia * rna * rna + iib * rnb * rnb;
      const float kt = ima + imb + iia * rta * rta + iib * rtb * rtb;
      rp.normal_mass = kn > 0 ? 1.0f / kn : 0.0f;
      rp.tangent_mass = kt > 0 ? 1.0f / kt : 0.0f;
    }
  });
}

void warm_start_contacts(World::Impl& w, float) {
  auto& set = w.contacts;
  for_each_pair_coloured(w, [&](std::uint32_t p) {
    for (std::uint32_t i = set.pair_begin[p]; i < set.pair_begin[p + 1]; ++i) {
      ContactPoint& cp = set.points[i];
      if (cp.lambda_n == 0 && cp.lambda_t == 0) continue;
      if (cp.rigid) {
        const RigidPoint& rp = set.rigid[i];
        const Vec2 P = cp.lambda_n * rp.n + cp.lambda_t * Vec2{rp.n.y, -rp.n.x};
        push(w, rp.a, -P, rp.ra);
        push(w, rp.b, P, rp.rb);
      } else {
        const ContactGeometry g = evaluate_contact(w, cp);
        apply_pair(w, g, cp.lambda_n * g.n + cp.lambda_t * Vec2{g.n.y, -g.n.x});
      }
    }
  });
}

void solve_contacts(World::Impl& w, float h, bool use_bias) {
  auto& set = w.contacts;
  const Pass pass = make_pass(w, h, use_bias);
  for_each_pair_coloured(w, [&](std::uint32_t p) {
    for (std::uint32_t k = set.pair_begin[p]; k < set.pair_begin[p + 1]; ++k) {
      if (set.points[k].rigid) solve_rigid(w, set.points[k], set.rigid[k], pass);
      else solve_generic(w, set.points[k], pass);
    }
  });
}

void apply_restitution(World::Impl& w, float h, float threshold) {
  auto& set = w.contacts;
  const float threshold_d = threshold * h;
  for_each_pair_coloured(w, [&](std::uint32_t p) {
    for (std::uint32_t i = set.pair_begin[p]; i < set.pair_begin[p + 1]; ++i) {
      ContactPoint& cp = set.points[i];
      if (cp.restitution <= 0 || cp.vn_pre > -threshold_d || cp.max_lambda_n <= 0) continue;
      const ContactGeometry g = evaluate_contact(w, cp);
      const float wn = inv_mass_along(w, g.v, g.n) + inv_mass_along(w, g.o, g.n);
      if (wn <= 0) continue;
      const float vn = dot(relative_motion(w, g), g.n);
      const float total = std::max(cp.lambda_n - (vn + cp.restitution * cp.vn_pre) / wn, 0.0f);
      const float dn = total - cp.lambda_n;
      cp.lambda_n = total;
      if (dn != 0) apply_pair(w, g, dn * g.n);
    }
  });
}

}  // namespace strut
