// The contact solver.
//
// Every contact point is a feature pair, vertex V against edge E1 E2 (or
// against another vertex). With n the edge's outward normal and t the
// projection parameter of V on the edge, the separation is C = n . (V - (E1 + t
// (E2 - E1))) - radii, and C >= 0 is the constraint. An impulse along n moves
// V's body by w_V and the edge point's by w_E, where for particles w_E =
// (1-t)^2 w_E1 + t^2 w_E2 (the seed's lambda rule for unequal masses) and for a
// rigid body the generalised inverse mass 1/m + (r x n)^2 / I (point_ref.hpp).
//
// How the constraint is enforced follows Box2D v3's soft step, measured against
// the plain position projection it replaced: with 4 substeps of 1 iteration the
// projection could not keep a stack of ten boxes standing (it fell in 3 s;
// corrected by position only, it crept 9 cm in 10 s; warm-started, it slid).
// Per substep:
//   1. velocities integrate (gravity, forces);
//   2. warm start: last substep's accumulated impulses are applied again;
//   3. solve: impulses drive the normal velocity to -bias, where the bias
//   closes a speculative
//      gap exactly (C > 0: the approach may use up the gap, never more, so fast
//      bodies do not tunnel) and pushes overlap out softly (a 30 Hz spring with
//      damping ratio 10, at most 3 m/s), the accumulated normal impulse staying
//      >= 0; then Coulomb friction;
//   4. positions integrate;
//   5. joints and struts project positions;
//   6. relax: the same solve without bias, so the push-out does not stay as
//   velocity.
// After the last substep, restitution. Impulses persist across steps by feature
// (narrow phase).
//
// Units: the state stores motion per substep (d = v h), so velocities here are
// displacements per substep and impulses are momentum x h; the two scale
// together, so the formulas are Box2D's with h folded in.
//
// Two paths share this. Points between rigid bodies are prepared once per step
// as in Box2D: both anchors become material points fixed for the step (offsets
// from the centres of mass), with the normal and effective masses; a substep
// then needs only the bodies' pose change since the step began (the generic
// evaluation, re-deriving edges and normals on every touch, cost five times as
// much). Points touching a soft body are evaluated from particles every time.
#include "solver/contact_solver.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <span>

#include "solver/body_lanes.hpp"
#include "solver/colour_stages.hpp"
#include "solver/contact_prepare.hpp"
#include "solver/contact_wide.hpp"
#include "solver/point_ref.hpp"

namespace strut {
namespace {

// Slip speed above which a contact point counts as sliding (dynamic friction),
// in m/s.
constexpr float kSlideSpeed = 0.01f;

PointRef vertex_ref(const World::Impl &w, std::uint32_t body, std::uint32_t vertex) {
  PointRef p;
  p.body = body;
  p.rigid = w.is_rigid(body);
  const std::uint32_t particle = w.bodies.particle_begin[body] + vertex;
  p.local = {w.particles.lx[particle], w.particles.ly[particle]};
  p.i1 = p.i2 = particle;
  return p;
}

Vec2 particle_pos(const World::Impl &w, std::uint32_t body, std::uint32_t vertex) {
  const std::uint32_t i = w.bodies.particle_begin[body] + vertex;
  if (!w.is_rigid(body)) return {w.particles.x[i], w.particles.y[i]};
  return body_point(w.bodies, body, {w.particles.lx[i], w.particles.ly[i]});
}

// Moves a circle's contact point from its centre to its surface, so friction
// turns it.
void to_surface(const World::Impl &w, PointRef &p, Vec2 outward) {
  if (!(w.bodies.flags[p.body] & kCircle)) return;
  const float r = w.bodies.radius[p.body];
  p.local = inv_rotate(Rot{w.bodies.qc[p.body], w.bodies.qs[p.body]}, r * outward);
}

bool touches_fixed(const World::Impl &w, std::uint32_t a, std::uint32_t b) {
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

Pass make_pass(const World::Impl &w, float h, bool use_bias) {
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

// Normal row: returns the change of the accumulated impulse. s = separation, vn
// = normal motion of the vertex side relative to the other, m = effective mass.
float normal_impulse(const Pass &pass, bool fixed, float s, float vn, float m, float &lambda,
                     float &max_lambda) {
  float bias = 0, mass_scale = 1, impulse_scale = 0;
  if (s > 0) {
    bias = s;  // speculative: the gap may close in this substep, no more
  } else if (pass.use_bias) {
    const Softness &soft = fixed ? pass.soft_fixed : pass.soft;
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

// Friction row: Coulomb's cone with the static coefficient while the point
// sticks and the dynamic one while it slides. Whether it slides is read from
// its slip after the relax pass, not from the impulse it asks for
// mid-iteration: Gauss-Seidel makes the first point of a face briefly carry the
// whole load, which flipped boxes that should hold on a slope into sliding.
float friction_impulse(const ContactPoint &cp, float vt, float m, float &lambda) {
  const float bound = (cp.sliding ? cp.friction : cp.static_friction) * cp.lambda_n;
  const float total = std::clamp(lambda - m * vt, -bound, bound);
  const float change = total - lambda;
  lambda = total;
  return change;
}

// ---- generic path (points touching a soft body) ----

Vec2 relative_motion(const World::Impl &w, const ContactGeometry &g) {
  return point_motion(w, g.v) - point_motion(w, g.o);
}

void apply_pair(World::Impl &w, const ContactGeometry &g, Vec2 P) {
  apply_velocity_impulse(w, g.v, P, 1.0f);
  apply_velocity_impulse(w, g.o, -P, 1.0f);
}

void solve_generic(World::Impl &w, ContactPoint &cp, const Pass &pass) {
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

}  // namespace

// Solver bodies: the motion of the substep and the pose change since the step began, 32 bytes
// per body in one array, so a constraint touches one cache line per body instead of ten arrays.
void gather_solver_bodies(World::Impl &w, int lo, int hi) {
  const auto &b = w.bodies;
  const auto &s = w.scratch;
  auto &out = w.scratch.solver_bodies;
  for (int k = lo; k < hi; ++k) {
    const std::size_t i = std::size_t(k);
    SolverBody &o = out[i];
    o.dx = b.dx[i], o.dy = b.dy[i], o.da = b.da[i];
    o.dpx = b.px[i] - s.p0x[i], o.dpy = b.py[i] - s.p0y[i];
    o.dqc = b.qc[i] * s.q0c[i] + b.qs[i] * s.q0s[i];
    o.dqs = b.qs[i] * s.q0c[i] - b.qc[i] * s.q0s[i];
  }
}

void scatter_solver_bodies(World::Impl &w, int lo, int hi) {
  auto &b = w.bodies;
  const auto &in = w.scratch.solver_bodies;
  const auto &moving = w.scratch.moving;  // finite mass: the solver may have changed it
  for (int k = lo; k < hi; ++k) {
    const std::size_t i = std::size_t(k);
    if (!moving[i]) continue;
    b.dx[i] = in[i].dx, b.dy[i] = in[i].dy, b.da[i] = in[i].da;
  }
}

bool solver_bodies_only(const World::Impl &w) {
  return w.joints.empty() && w.struts.empty() && w.contacts.generic_pairs.empty();
}

ContactGeometry evaluate_contact(const World::Impl &w, const ContactPoint &cp) {
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
  // A spring-damper of the given frequency and damping, implicit in h (Box2D's
  // b2MakeSoft).
  if (hertz <= 0) return {0.0f, 1.0f, 0.0f};
  const float omega = 2.0f * float(M_PI) * hertz;
  const float a1 = 2.0f * damping_ratio + h * omega;
  const float a2 = h * omega * a1;
  const float a3 = 1.0f / (1.0f + a2);
  return {omega / a1, a2 * a3, a3};
}

// A rigid pair's points are solved two at a time, as constraints of one wide lane each; a pair
// touching a soft body is one constraint of the generic path. Colouring is per pair: a pair
// with more than two points (a fast pair) keeps one colour and its constraints are solved one
// after another (split into constraints of their own colours, such pairs spilled into the
// overflow colour, and the ragdoll rain became half as slow again).
void colour_contacts(World::Impl &w) {
  auto &set = w.contacts;
  auto &s = w.scratch;
  const std::size_t pairs = set.pair_keys.size();
  set.pair_constraint_begin.resize(pairs + 1);
  s.pair_a.resize(pairs), s.pair_b.resize(pairs);
  // Constraints per pair (held in pair_constraint_begin until the offsets replace them), counted
  // and then written in fixed chunks at their offsets: the list is the same for any thread count.
  constexpr int kGrain = 2048;
  auto &chunk_first = s.chunk_counts;
  chunk_first.assign(std::size_t(TaskSystem::chunk_count(int(pairs), kGrain)) + 1, 0);
  const auto rigid_pair = [&](std::size_t p) {
    const ContactPoint &cp = set.points[set.pair_begin[p]];
    return w.is_rigid(cp.body_v) && w.is_rigid(cp.body_o);
  };
  std::atomic<bool> bouncy{false};  // any pair with restitution (else the pass is skipped)
  w.tasks.parallel_for(int(pairs), kGrain, [&](int lo, int hi, int) {
    std::uint32_t total = 0;
    bool chunk_bouncy = false;  // one shared store per chunk, not per pair
    for (std::size_t p = std::size_t(lo); p < std::size_t(hi); ++p) {
      const ContactPoint &cp = set.points[set.pair_begin[p]];
      chunk_bouncy |= cp.restitution > 0;
      const std::uint32_t points = set.pair_begin[p + 1] - set.pair_begin[p];
      const std::uint32_t n = rigid_pair(p) ? (points + 1) / 2 : 1;
      set.pair_constraint_begin[p] = n;
      total += n;
      s.pair_a[p] = cp.body_v, s.pair_b[p] = cp.body_o;
    }
    chunk_first[std::size_t(lo / kGrain) + 1] = total;
    if (chunk_bouncy) bouncy.store(true, std::memory_order_relaxed);
  });
  for (std::size_t c = 1; c < chunk_first.size(); ++c) chunk_first[c] += chunk_first[c - 1];
  set.constraint_first.resize(chunk_first.back());
  set.constraint_count.resize(chunk_first.back());
  w.tasks.parallel_for(int(pairs), kGrain, [&](int lo, int hi, int) {
    std::uint32_t at = chunk_first[std::size_t(lo / kGrain)];
    for (std::size_t p = std::size_t(lo); p < std::size_t(hi); ++p) {
      const std::uint32_t n = set.pair_constraint_begin[p];
      const std::uint32_t k0 = set.pair_begin[p], k1 = set.pair_begin[p + 1];
      const bool rigid = rigid_pair(p);
      set.pair_constraint_begin[p] = at;
      for (std::uint32_t i = 0; i < n; ++i, ++at) {
        const std::uint32_t k = rigid ? k0 + 2 * i : k0;
        set.constraint_first[at] = k;
        set.constraint_count[at] = std::uint8_t(rigid ? std::min(2u, k1 - k) : 0u);
      }
    }
  });
  set.pair_constraint_begin[pairs] = chunk_first.back();
  set.any_restitution = bouncy.load();
  colour_constraints(s.pair_a, s.pair_b, s.moving, w.bodies.size(), w.contact_colours);
}

namespace {

// Gathers the features of a point between two rigid bodies into lane `lane` of the prepare
// kernel's input. A rigid body's particles hold its pose applied to its vertices, so the world
// positions are read, not recomputed.
void gather_features(const World::Impl &w, const ContactPoint &cp, PrepareInput &in, int lane) {
  const auto &b = w.bodies;
  const auto &q = w.particles;
  const std::uint32_t bv = cp.body_v, bo = cp.body_o;
  const std::uint32_t iv = b.particle_begin[bv] + cp.vertex, o0 = b.particle_begin[bo];
  in.vx[lane] = q.x[iv], in.vy[lane] = q.y[iv], in.vlx[lane] = q.lx[iv], in.vly[lane] = q.ly[iv];
  const std::uint32_t i = o0 + cp.other;
  const std::uint32_t j = cp.kind == ContactKind::VertexVertex ? i
                          : cp.other + 1u == b.hull_count[bo]  ? o0
                                                               : i + 1;
  in.e1x[lane] = q.x[i], in.e1y[lane] = q.y[i], in.e2x[lane] = q.x[j], in.e2y[lane] = q.y[j];
  in.l1x[lane] = q.lx[i], in.l1y[lane] = q.ly[i], in.l2x[lane] = q.lx[j], in.l2y[lane] = q.ly[j];
  in.edge[lane] = cp.kind == ContactKind::VertexEdge ? 1.0f : 0.0f;
  in.radius[lane] = cp.radius;
  in.fnx[lane] = cp.fallback_normal.x, in.fny[lane] = cp.fallback_normal.y;
}

// A lane without a point (padding, or a constraint's missing second point): zero features.
void clear_features(PrepareInput &in, int lane) {
  for (float *row : {in.vx, in.vy, in.vlx, in.vly, in.e1x, in.e1y, in.e2x, in.e2y, in.l1x, in.l1y,
                     in.l2x, in.l2y, in.edge, in.radius, in.fnx, in.fny})
    row[lane] = 0.0f;
}

PrepareBody prepare_body(const World::Impl &w, std::uint32_t k) {
  const auto &b = w.bodies;
  return PrepareBody{
      b.qc[k], b.qs[k],       b.dx[k],          b.dy[k],
      b.da[k], b.inv_mass[k], b.inv_inertia[k], (b.flags[k] & kCircle) ? b.radius[k] : 0.0f};
}

// A PrepareBody's eight fields in order, as the rows put_bodies takes.
std::array<float, 8> fields(const PrepareBody &b) {
  return {b.qc, b.qs, b.dx, b.dy, b.da, b.inv_mass, b.inv_inertia, b.circle_radius};
}

// The bodies' rows of the prepare input from lane `lane` on: v the vertex's body, o the other's
// (PrepareBody's fields, in its order). A point that is not there (here false) gets zero masses,
// so it prepares to a point that does nothing. F = float for one point, WideFloat for a lane
// group; M its mask type.
template <class F, class M>
void put_bodies(const F *v, const F *o, const M &here, PrepareInput &in, int lane) {
  using wide::select, wide::store;
  const F zero(0.0f), one(1.0f);
  store(in.qvc + lane, v[0]), store(in.qvs + lane, v[1]);
  store(in.qoc + lane, o[0]), store(in.qos + lane, o[1]);
  store(in.mvx + lane, v[2]), store(in.mvy + lane, v[3]), store(in.mva + lane, v[4]);
  store(in.mox + lane, o[2]), store(in.moy + lane, o[3]), store(in.moa + lane, o[4]);
  store(in.imv + lane, select(here, v[5], zero)), store(in.iiv + lane, select(here, v[6], zero));
  store(in.imo + lane, select(here, o[5], zero)), store(in.iio + lane, select(here, o[6], zero));
  store(in.rv + lane, v[7]), store(in.ro + lane, o[7]);
  store(in.cv + lane, select(v[7] > zero, one, zero));
  store(in.co + lane, select(o[7] > zero, one, zero));
}

}  // namespace

PreparedPoint prepare_point(const World::Impl &w, const ContactPoint &cp) {
  PrepareInput in;
  PrepareOutput out;
  gather_features(w, cp, in, 0);
  const auto v = fields(prepare_body(w, cp.body_v)), o = fields(prepare_body(w, cp.body_o));
  put_bodies<float>(v.data(), o.data(), true, in, 0);
  wide::prepare_points<float>(in, out, 0);
  return PreparedPoint{{out.nx[0], out.ny[0]},
                       {out.rax[0], out.ray[0]},
                       {out.rbx[0], out.rby[0]},
                       out.base[0],
                       out.normal_mass[0],
                       out.tangent_mass[0],
                       out.vn_pre[0]};
}

namespace {

// Fills wide constraint c with the constraints ids[0 .. kWideLanes) (~0: an empty lane): gathers
// every lane's points, prepares them in SIMD (or through the scalar twin), writes the lanes.
// Lane `lane` runs from body a = a_bodies[lane] (~0: the first point's edge body) to the other;
// a point whose vertex is on a is the same constraint seen from the other side: its anchors swap
// and its normal and tangent impulse change sign. The lanes' bodies come in as two transposed
// rows of PrepareBody (body_lanes.hpp); point by point only the features are gathered.
void fill_constraint(const World::Impl &w, WideConstraint &c, const std::uint32_t *ids,
                     const std::uint32_t *a_bodies) {
  using F = WideFloat;
  const auto &set = w.contacts;
  const auto &b = w.bodies;
  PrepareInput in[2];
  PrepareOutput out[2];
  alignas(64) float flip[2][kWideLanes], present[2][kWideLanes];
  // The lanes' points lie anywhere in the point list (it is in pair order, lanes in colour
  // order): ask for all of them before reading any, so their cache misses overlap.
  for (int lane = 0; lane < kWideLanes; ++lane)
    if (ids[lane] != ~0u) {
      const char *first =
          reinterpret_cast<const char *>(&set.points[set.constraint_first[ids[lane]]]);
      __builtin_prefetch(first), __builtin_prefetch(first + sizeof(ContactPoint));
    }
  for (int lane = 0; lane < kWideLanes; ++lane) {
    const std::uint32_t id = ids[lane];
    if (id == ~0u) {
      c.a[lane] = c.b[lane] = std::uint32_t(b.size());  // the spare zero body
      c.friction[lane] = c.static_friction[lane] = c.restitution[lane] = 0;
      for (int k = 0; k < 2; ++k) {
        clear_features(in[k], lane);
        c.p[k].point[lane] = ~0u;
        flip[k][lane] = present[k][lane] = 0.0f;
      }
      continue;
    }
    const std::uint32_t k0 = set.constraint_first[id], n = set.constraint_count[id];
    const ContactPoint &cp = set.points[k0];
    const std::uint32_t a = a_bodies[lane] != ~0u ? a_bodies[lane] : cp.body_o;
    c.a[lane] = a, c.b[lane] = a == cp.body_o ? cp.body_v : cp.body_o;
    c.friction[lane] = cp.friction, c.static_friction[lane] = cp.static_friction;
    c.restitution[lane] = cp.restitution;
    for (std::uint32_t k = 0; k < 2; ++k) {
      if (k < n) {
        const ContactPoint &pk = set.points[k0 + k];
        gather_features(w, pk, in[k], int(lane));
        flip[k][lane] = pk.body_v == a ? 1.0f : 0.0f;
        present[k][lane] = 1.0f;
        c.p[k].point[lane] = k0 + k;
      } else {
        clear_features(in[k], int(lane));
        flip[k][lane] = present[k][lane] = 0.0f;
        c.p[k].point[lane] = ~0u;
      }
    }
  }
  // The lanes' bodies: field f of body a in A[f], of body b in B[f] (PrepareBody's order).
  F A[8], B[8];
  gather_rows8(&w.scratch.prepare_bodies[0].qc, c.a, A);
  gather_rows8(&w.scratch.prepare_bodies[0].qc, c.b, B);
  const F zero(0.0f), one(1.0f);
  A[5].store_aligned(c.ima), A[6].store_aligned(c.iia);
  B[5].store_aligned(c.imb), B[6].store_aligned(c.iib);
  xsimd::select(A[5] == zero || B[5] == zero, one, zero).store_aligned(c.fixed);
  // The vertex's body is a where the point is flipped.
  xsimd::batch_bool<float> flipped[2];
  for (int k = 0; k < 2; ++k) {
    flipped[k] = F::load_aligned(flip[k]) > F(0.5f);
    F v[8], o[8];
    for (int f = 0; f < 8; ++f)
      v[f] = xsimd::select(flipped[k], A[f], B[f]), o[f] = xsimd::select(flipped[k], B[f], A[f]);
    put_bodies<F>(v, o, F::load_aligned(present[k]) > F(0.5f), in[k], 0);
  }
  for (int k = 0; k < 2; ++k) {
    if (w.scalar_contacts)
      for (int lane = 0; lane < kWideLanes; ++lane)
        wide::prepare_points<float>(in[k], out[k], lane);
    else
      wide::prepare_points<WideFloat>(in[k], out[k], 0);
  }
  // Into the lanes (plain data movement, so in SIMD registers either way).
  for (int k = 0; k < 2; ++k) {
    WidePoint &p = c.p[k];
    const PrepareOutput &o = out[k];
    const auto &f = flipped[k];
    const F sign = xsimd::select(f, F(-1.0f), F(1.0f));
    const F rax = F::load_aligned(o.rax), ray = F::load_aligned(o.ray);
    const F rbx = F::load_aligned(o.rbx), rby = F::load_aligned(o.rby);
    (sign * F::load_aligned(o.nx)).store_aligned(p.nx);
    (sign * F::load_aligned(o.ny)).store_aligned(p.ny);
    xsimd::select(f, rbx, rax).store_aligned(p.rax),
        xsimd::select(f, rby, ray).store_aligned(p.ray);
    xsimd::select(f, rax, rbx).store_aligned(p.rbx),
        xsimd::select(f, ray, rby).store_aligned(p.rby);
    F::load_aligned(o.base).store_aligned(p.base);
    F::load_aligned(o.normal_mass).store_aligned(p.normal_mass);
    F::load_aligned(o.tangent_mass).store_aligned(p.tangent_mass);
    F::load_aligned(o.vn_pre).store_aligned(p.vn_pre);
    F(0.0f).store_aligned(p.max_lambda_n);
    // Lane by lane straight into the constraint: staged in a scratch row and reloaded as one
    // vector, the 16 scalar stores could not be forwarded to the load (a sixth of this function).
    for (int lane = 0; lane < kWideLanes; ++lane) {
      const bool flipped = flip[k][lane] > 0.5f;
      p.flipped[lane] = flipped;
      if (p.point[lane] == ~0u) {
        p.lambda_n[lane] = p.lambda_t[lane] = p.sliding[lane] = 0;
        continue;
      }
      const ContactPoint &cp = set.points[p.point[lane]];
      p.lambda_n[lane] = cp.lambda_n;
      p.lambda_t[lane] = flipped ? -cp.lambda_t : cp.lambda_t;  // the mirrored row's sign
      p.sliding[lane] = cp.sliding ? 1.0f : 0.0f;
    }
  }
}

}  // namespace

// Box2D's prepare, in two parts: a serial pass over the pairs in colour order that
// only decides where each constraint goes (a wide lane; lanes stacked in groups for
// pairs of several constraints; the generic list for pairs touching a soft body),
// then a parallel pass that fills the lanes from the bodies' poses.
void prepare_contacts(World::Impl &w) {
  auto &b = w.bodies;
  auto &s = w.scratch;
  const std::size_t n = b.size();
  s.p0x.resize(n), s.p0y.resize(n), s.q0c.resize(n), s.q0s.resize(n);
  s.solver_bodies.resize(n + 1);
  s.solver_bodies[n] = SolverBody{};  // the spare zero body that pads wide lanes
  s.prepare_bodies.resize(n + 1);
  s.prepare_bodies[n] = PrepareBody{};
  w.tasks.parallel_for(int(n), 4096, [&](int lo, int hi, int) {
    for (int k = lo; k < hi; ++k) {
      s.p0x[k] = b.px[k], s.p0y[k] = b.py[k], s.q0c[k] = b.qc[k], s.q0s[k] = b.qs[k];
      s.prepare_bodies[std::size_t(k)] = prepare_body(w, std::uint32_t(k));
    }
  });
  auto &set = w.contacts;
  const Colouring &c = w.contact_colours;
  auto &lanes = s.wide_lane_ids;  // constraint of each lane; ~0 pads a wide constraint
  auto &lane_a = s.wide_lane_a;   // body a of each lane (~0: the first point's edge body)
  lanes.clear();
  lane_a.clear();
  set.work.clear();
  set.colour_work_begin.assign(1, 0);
  set.generic_pairs.clear();
  auto pad = [&] {
    while (lanes.size() % kWideLanes != 0) lanes.push_back(~0u);
  };
  const auto wide_count = [&] { return std::uint32_t(lanes.size() / kWideLanes); };
  for (int colour = 0; colour <= kOverflowColour; ++colour) {
    // Pairs of one constraint, kWideLanes to a wide constraint solved in SIMD lanes.
    const std::uint32_t simd_first = wide_count();
    for (std::uint32_t i = c.begin[colour]; i < c.begin[colour + 1]; ++i) {
      const std::uint32_t p = c.order[i];
      const std::uint32_t first = set.pair_constraint_begin[p];
      if (set.constraint_count[first] == 0)
        set.generic_pairs.push_back(p);
      else if (set.pair_constraint_begin[p + 1] - first == 1)
        lanes.push_back(first);
    }
    pad();
    lane_a.resize(lanes.size(), ~0u);
    for (std::uint32_t k = simd_first; k < wide_count(); ++k) set.work.push_back({k, 1});
    // Pairs of several constraints (fast pairs), kWideLanes at a time: wide constraint k of a
    // group holds constraint k of each of its pairs, and the group is one work item, so a pair's
    // constraints are solved in order in one lane. Sorted by count, a group pads little.
    auto &multi = s.multi_pairs;
    multi.clear();
    for (std::uint32_t i = c.begin[colour]; i < c.begin[colour + 1]; ++i) {
      const std::uint32_t p = c.order[i];
      const std::uint32_t first = set.pair_constraint_begin[p];
      if (set.pair_constraint_begin[p + 1] - first >= 2 && set.constraint_count[first] != 0)
        multi.push_back(p);
    }
    const auto constraints = [&](std::uint32_t p) {
      return set.pair_constraint_begin[p + 1] - set.pair_constraint_begin[p];
    };
    std::stable_sort(multi.begin(), multi.end(), [&](std::uint32_t x, std::uint32_t y) {
      return constraints(x) > constraints(y);
    });
    for (std::size_t g = 0; g < multi.size(); g += kWideLanes) {
      const std::size_t n = std::min<std::size_t>(kWideLanes, multi.size() - g);
      const std::uint32_t depth = constraints(multi[g]), at = wide_count();
      for (std::uint32_t k = 0; k < depth; ++k)
        for (std::size_t lane = 0; lane < std::size_t(kWideLanes); ++lane) {
          const std::uint32_t p = lane < n ? multi[g + lane] : ~0u;
          lanes.push_back(p != ~0u && k < constraints(p) ? set.pair_constraint_begin[p] + k : ~0u);
          // Every layer of a lane runs between the same two bodies, in the same direction, so
          // the group gathers and scatters its bodies once.
          lane_a.push_back(p != ~0u ? set.points[set.pair_begin[p]].body_o : ~0u);
        }
      set.work.push_back({at, depth});
    }
    set.colour_work_begin.push_back(std::uint32_t(set.work.size()));
  }
  std::sort(set.generic_pairs.begin(), set.generic_pairs.end());
  set.wide.resize(wide_count());
  w.tasks.parallel_for(int(set.wide.size()), 16, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i)
      fill_constraint(w, set.wide[std::size_t(i)], lanes.data() + std::size_t(i) * kWideLanes,
                      lane_a.data() + std::size_t(i) * kWideLanes);
  });
  // Points touching a soft body are evaluated afresh by every pass; here only
  // their approach.
  for (std::uint32_t p : set.generic_pairs)
    for (std::uint32_t k = set.pair_begin[p]; k < set.pair_begin[p + 1]; ++k) {
      ContactPoint &cp = set.points[k];
      const ContactGeometry g = evaluate_contact(w, cp);
      cp.max_lambda_n = 0;
      cp.vn_pre = dot(point_motion(w, g.v) - point_motion(w, g.o), g.n);
    }
}

// Every point lives in exactly one lane, so the copies back are independent.
void finish_contacts(World::Impl &w) {
  auto &set = w.contacts;
  w.tasks.parallel_for(int(set.wide.size()), 64, [&](int lo, int hi, int) {
    for (int i = lo; i < hi; ++i)
      for (const WidePoint &p : set.wide[std::size_t(i)].p)
        for (int lane = 0; lane < kWideLanes; ++lane) {
          if (p.point[lane] == ~0u) continue;
          ContactPoint &cp = set.points[p.point[lane]];
          cp.lambda_n = p.lambda_n[lane];
          cp.lambda_t = p.flipped[lane] ? -p.lambda_t[lane] : p.lambda_t[lane];
          cp.max_lambda_n = p.max_lambda_n[lane];
          cp.vn_pre = p.vn_pre[lane];  // hit events read it
          cp.sliding = p.sliding[lane] > 0.5f;
        }
  });
  // Pressed points make their pair touching (islands, events).
  w.tasks.parallel_for(int(set.pair_keys.size()), 2048, [&](int lo, int hi, int) {
    for (int p = lo; p < hi; ++p)
      for (std::uint32_t k = set.pair_begin[p]; k < set.pair_begin[p + 1]; ++k)
        if (set.points[k].max_lambda_n > 0) set.pair_touching[p] = 1;
  });
}

namespace {

// A contact pass is a list of stages: gather the solver bodies, one stage per colour
// (add_colour_stages), scatter, then the points of pairs that touch a soft body,
// serially in pair order, on the body arrays.
using Stage = TaskSystem::Stage;

void add_gather(World::Impl &w, std::vector<Stage> &stages, int phase) {
  stages.push_back({int(w.bodies.size()), 4096,
                    [&w](int lo, int hi, int) { gather_solver_bodies(w, lo, hi); }, phase});
}

void add_scatter(World::Impl &w, std::vector<Stage> &stages, int phase) {
  stages.push_back({int(w.bodies.size()), 4096,
                    [&w](int lo, int hi, int) { scatter_solver_bodies(w, lo, hi); }, phase});
}

// One stage per colour over the gathered solver bodies (colour_stages.hpp). An item is `count`
// wide constraints solved in order, each in SIMD lanes; in the overflow colour, whose lanes may
// share a body, lane after lane through the scalar twin. fn(wide constraint, count, scalar).
template <class Fn>
void add_colour_stages(World::Impl &w, std::vector<Stage> &stages, int phase, Fn fn) {
  auto &set = w.contacts;
  strut::add_colour_stages(stages, set.colour_work_begin, w.tasks.thread_count(), 2, phase,
                           [&set, fn](std::uint32_t first, std::uint32_t last, bool overflow) {
                             for (std::uint32_t i = first; i < last; ++i) {
                               const ContactWork &item = set.work[i];
                               fn(&set.wide[item.first], item.count, overflow);
                             }
                           });
}

// Points touching a soft body, serially in pair order, on the body arrays.
template <class Fn>
void add_generic_stage(World::Impl &w, std::vector<Stage> &stages, int phase, Fn fn) {
  if (w.contacts.generic_pairs.empty()) return;
  stages.push_back({1, 1,
                    [&w, fn](int, int, int) {
                      auto &set = w.contacts;
                      for (std::uint32_t p : set.generic_pairs)
                        for (std::uint32_t k = set.pair_begin[p]; k < set.pair_begin[p + 1]; ++k)
                          fn(set.points[k]);
                    },
                    phase});
}

// A whole pass in its own parallel region (restitution, once per step).
template <class WideFn, class GenericFn>
void contact_pass(World::Impl &w, WideFn fn_wide, GenericFn fn_generic) {
  auto &stages = w.scratch.contact_stages;
  stages.clear();
  add_gather(w, stages, -1);
  add_colour_stages(w, stages, -1, fn_wide);
  add_scatter(w, stages, -1);
  add_generic_stage(w, stages, -1, fn_generic);
  w.tasks.run_stages(stages);
}

// Applies fn(A, B, c, lane) to every lane of the wide constraints cs[0 .. count), in order:
// through the SIMD kernel, the bodies gathered once for all of them (a group's layers share
// their lanes' bodies), or lane after lane through its scalar twin (lanes that may share a body;
// tests and benchmarks that ask for the twin).
template <class Fn>
void lanes(World::Impl &w, WideConstraint *cs, std::uint32_t count, bool scalar, Fn &&fn) {
  auto &bodies = w.scratch.solver_bodies;
  if (scalar || w.scalar_contacts) {
    for (std::uint32_t k = 0; k < count; ++k)
      run_scalar(bodies, cs[k], [&](wide::Body<float> &A, wide::Body<float> &B, int lane) {
        fn(A, B, cs[k], lane);
      });
  } else {
    run_wide(bodies, cs[0], [&](wide::Body<WideFloat> &A, wide::Body<WideFloat> &B) {
      for (std::uint32_t k = 0; k < count; ++k) fn(A, B, cs[k], 0);
    });
  }
}

WidePass make_wide_pass(const Pass &p) {
  return WidePass{p.soft.bias_rate,
                  p.soft.mass_scale,
                  p.soft.impulse_scale,
                  p.soft_fixed.bias_rate,
                  p.soft_fixed.mass_scale,
                  p.soft_fixed.impulse_scale,
                  p.push_max,
                  p.slide,
                  p.use_bias};
}

}  // namespace

void add_contact_solve_stages(World::Impl &w, std::vector<TaskSystem::Stage> &stages, float h,
                              int phase, bool own_gather) {
  const Pass pass = make_pass(w, h, true);
  const WidePass wide_pass = make_wide_pass(pass);
  const int iterations = w.config.iterations;
  if (own_gather) add_gather(w, stages, phase);
  // Warm start: last substep's accumulated impulses applied again.
  add_colour_stages(w, stages, phase, [&w](WideConstraint *cs, std::uint32_t n, bool scalar) {
    lanes(w, cs, n, scalar, [&](auto &A, auto &B, WideConstraint &c, int lane) {
      wide::warm_start_lanes(A, B, c, lane);
    });
  });
  for (int it = 0; it < iterations; ++it)
    add_colour_stages(w, stages, phase,
                      [&w, wide_pass](WideConstraint *cs, std::uint32_t n, bool scalar) {
                        lanes(w, cs, n, scalar, [&](auto &A, auto &B, WideConstraint &c, int lane) {
                          wide::solve_lanes(A, B, c, lane, wide_pass);
                        });
                      });
  if (own_gather) add_scatter(w, stages, phase);
  add_generic_stage(w, stages, phase, [&w](ContactPoint &cp) {
    if (cp.lambda_n != 0 || cp.lambda_t != 0) {
      const ContactGeometry g = evaluate_contact(w, cp);
      apply_pair(w, g, cp.lambda_n * g.n + cp.lambda_t * Vec2{g.n.y, -g.n.x});
    }
  });
  for (int it = 0; it < iterations; ++it)
    add_generic_stage(w, stages, phase,
                      [&w, pass](ContactPoint &cp) { solve_generic(w, cp, pass); });
}

void add_contact_relax_stages(World::Impl &w, std::vector<TaskSystem::Stage> &stages, float h,
                              int phase, bool own_gather) {
  const Pass pass = make_pass(w, h, false);
  const WidePass wide_pass = make_wide_pass(pass);
  if (own_gather) add_gather(w, stages, phase);
  add_colour_stages(w, stages, phase,
                    [&w, wide_pass](WideConstraint *cs, std::uint32_t n, bool scalar) {
                      lanes(w, cs, n, scalar, [&](auto &A, auto &B, WideConstraint &c, int lane) {
                        wide::solve_lanes(A, B, c, lane, wide_pass);
                      });
                    });
  if (own_gather) add_scatter(w, stages, phase);
  add_generic_stage(w, stages, phase, [&w, pass](ContactPoint &cp) { solve_generic(w, cp, pass); });
}

void apply_restitution(World::Impl &w, float h, float threshold) {
  if (!w.contacts.any_restitution) return;  // a pass that would change nothing
  const float threshold_d = threshold * h;
  contact_pass(
      w,
      [&w, threshold_d](WideConstraint *cs, std::uint32_t n, bool) {
        // Once per step: lane by lane through the scalar types.
        for (WideConstraint &c : std::span(cs, n))
          run_scalar(w.scratch.solver_bodies, c,
                     [&](wide::Body<float> &A, wide::Body<float> &B, int lane) {
                       for (WidePoint &p : c.p) {
                         if (c.restitution[lane] <= 0 || p.vn_pre[lane] > -threshold_d ||
                             p.max_lambda_n[lane] <= 0)
                           continue;
                         const Vec2 n{p.nx[lane], p.ny[lane]};
                         const Vec2 ra{p.rax[lane], p.ray[lane]}, rb{p.rbx[lane], p.rby[lane]};
                         const Vec2 va = Vec2{A.dx, A.dy} + cross_sv(A.da, ra);
                         const Vec2 vb = Vec2{B.dx, B.dy} + cross_sv(B.da, rb);
                         // (A mirrored point flips both its normal and its body order: vn is
                         // unchanged.)
                         const float vn = dot(vb - va, n);
                         const float total = std::max(
                             p.lambda_n[lane] -
                                 p.normal_mass[lane] * (vn + c.restitution[lane] * p.vn_pre[lane]),
                             0.0f);
                         const float dn = total - p.lambda_n[lane];
                         p.lambda_n[lane] = total;
                         wide::push(A, B, c.ima[lane], c.iia[lane], c.imb[lane], c.iib[lane],
                                    dn * n.x, dn * n.y, ra.x, ra.y, rb.x, rb.y);
                       }
                     });
      },
      [&w, threshold_d](ContactPoint &cp) {
        if (cp.restitution <= 0 || cp.vn_pre > -threshold_d || cp.max_lambda_n <= 0) return;
        const ContactGeometry g = evaluate_contact(w, cp);
        const float wn = inv_mass_along(w, g.v, g.n) + inv_mass_along(w, g.o, g.n);
        if (wn <= 0) return;
        const float vn = dot(relative_motion(w, g), g.n);
        const float total = std::max(cp.lambda_n - (vn + cp.restitution * cp.vn_pre) / wn, 0.0f);
        const float dn = total - cp.lambda_n;
        cp.lambda_n = total;
        if (dn != 0) apply_pair(w, g, dn * g.n);
      });
}

}  // namespace strut
