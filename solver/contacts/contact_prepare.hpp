// Preparing contact points between rigid bodies for the step (Box2D's prepare): from a point's
// features (a vertex against an edge or another vertex) and the two bodies' poses, the normal,
// the anchors (offsets from the centres of mass, fixed in the bodies for the step), the
// separation at the step start, the effective masses and the approach speed for restitution.
//
// Written once as a template over the number type, like the wide contact kernel: with float it
// is the scalar twin (rows of pairs with many points, tests), with an xsimd batch it prepares a
// register's worth of points at once (kContactLanes to a wide constraint, dispatched at run time
// like the solve: contact_kernels.hpp). The points' features come from rows each wide
// constraint keeps (contact_features.hpp; gathered, in scalar code, only when the narrow phase
// chose new ones), the bodies by register transposes (body_lanes.hpp), and the arithmetic, with
// its square roots and divisions, is what the lanes share. Done per point in scalar code it was
// a sixth of a pyramid step. The kernel is inlined whole into each level's loop
// (contact_kernels.hpp): as a call per wide constraint its rows went through memory.
#pragma once

#include "solver/contacts/body_lanes.hpp"
#include "solver/contacts/contact_features.hpp"
#include "solver/contacts/contact_wide.hpp"
#include "solver/soft/strut_kernel.hpp"

namespace strut {

// The step-start positions (centres of mass) of the lanes' bodies a and b.
struct alignas(64) LanePositions {
  float ax[kContactLanes], ay[kContactLanes], bx[kContactLanes], by[kContactLanes];
};

// The bodies of one point per lane: the vertex's body (v) and the other feature's (o).
struct alignas(64) PrepareInput {
  float pvx[kContactLanes], pvy[kContactLanes], pox[kContactLanes], poy[kContactLanes];
  float qvc[kContactLanes], qvs[kContactLanes], qoc[kContactLanes],
      qos[kContactLanes];                                            // rotations
  float mvx[kContactLanes], mvy[kContactLanes], mva[kContactLanes];  // motion of the last substep
  float mox[kContactLanes], moy[kContactLanes], moa[kContactLanes];
  float imv[kContactLanes], iiv[kContactLanes], imo[kContactLanes],
      iio[kContactLanes];  // inverse masses
  // The rotations the arms are taken at (WideFeatures::arm_ac...), (0, 0) for the current one.
  float avc[kContactLanes], avs[kContactLanes], aoc[kContactLanes], aos[kContactLanes];
};

// The prepared point, oriented from the other feature's body (a) to the vertex's body (b).
struct alignas(64) PrepareOutput {
  float nx[kContactLanes], ny[kContactLanes];
  float rax[kContactLanes], ray[kContactLanes], rbx[kContactLanes], rby[kContactLanes];
  float base[kContactLanes];  // separation minus n . (rb - ra) at the step start
  float normal_mass[kContactLanes], tangent_mass[kContactLanes];
  float vn_pre[kContactLanes];
};

namespace wide {

template <class F>
[[gnu::always_inline]] inline void prepare_points(const FeatureRows& f, const PrepareInput& in,
                                                  PrepareOutput& out, int lane) {
  const F zero(0.0f), one(1.0f);
  const F qoc = load<F>(in.qoc + lane), qos = load<F>(in.qos + lane);
  const F qvc = load<F>(in.qvc + lane), qvs = load<F>(in.qvs + lane);
  const F l1x = load<F>(f.l1x + lane), l1y = load<F>(f.l1y + lane);
  const F l2x = load<F>(f.l2x + lane), l2y = load<F>(f.l2y + lane);
  const F vlx = load<F>(f.vlx + lane), vly = load<F>(f.vly + lane);
  // The features in the world: position + rotate(q, local), the bits of the particles that
  // sync_particles places (solver/step/sync_particles.cpp).
  const F pvx = load<F>(in.pvx + lane), pvy = load<F>(in.pvy + lane);
  const F pox = load<F>(in.pox + lane), poy = load<F>(in.poy + lane);
  const F vx = pvx + (qvc * vlx - qvs * vly), vy = pvy + (qvs * vlx + qvc * vly);
  const F e1x = pox + (qoc * l1x - qos * l1y), e1y = poy + (qos * l1x + qoc * l1y);
  const F e2x = pox + (qoc * l2x - qos * l2y), e2y = poy + (qos * l2x + qoc * l2y);
  const F fnx = load<F>(f.fnx + lane), fny = load<F>(f.fny + lane);
  const F ro = load<F>(f.ro + lane), rv = load<F>(f.rv + lane);
  const F radius = rv + ro;
  const auto edge = load<F>(f.edge + lane) > F(0.5f);
  // The normal is the one the features were chosen with (ContactPoint::nx, ny), and the
  // separation is the gap along it (gap_along in contact.hpp, operation for operation).
  const F nx = fnx, ny = fny;
  const F dx = e2x - e1x, dy = e2y - e1y;
  const F len2 = dx * dx + dy * dy;
  const auto has_len = len2 > zero;
  const F safe_len2 = select(has_len, len2, one);
  const F px = vx - e1x, py = vy - e1y;
  const F t = select(has_len, vmin(vmax((px * dx + py * dy) / safe_len2, zero), one), zero);
  const F mx = dy, my = zero - dx;
  const F mn = mx * nx + my * ny;
  const auto to_line = mn * mn > F(0.25f) * (dx * dx + dy * dy);
  const F gap = select(to_line, (mx * px + my * py) / select(to_line, mn, one),
                       nx * (px - t * dx) + ny * (py - t * dy));
  const F c = gap - radius;
  // Anchors in the bodies, then in the world: the edge point or the other vertex; the vertex.
  // inv_rotate(q, r n) and inv_rotate(q, -r n): from a feature to its surface.
  const F so_x = ro * nx, so_y = ro * ny;
  const F co_lx = qoc * so_x + qos * so_y, co_ly = qoc * so_y - qos * so_x;
  const F sv_x = zero - rv * nx, sv_y = zero - rv * ny;
  const F cv_lx = qvc * sv_x + qvs * sv_y, cv_ly = qvc * sv_y - qvs * sv_x;
  const F edge_lx = l1x + t * (l2x - l1x);
  const F edge_ly = l1y + t * (l2y - l1y);
  // Rounded features (radius > 0) have their anchor on the surface, out along the normal.
  const F lox = select(edge, edge_lx, l1x) + co_lx;
  const F loy = select(edge, edge_ly, l1y) + co_ly;
  const F lvx = vlx + cv_lx;
  const F lvy = vly + cv_ly;
  // The arms at the rotations the features were chosen at (WideFeatures::arm_ac...): as Box2D
  // v3 keeps a recycled manifold's anchors, so that neither the normal nor the arms turn with
  // the bodies while the features are kept (arms that turned tipped a leaning column over).
  const auto current_v = (load<F>(in.avc + lane) == zero) & (load<F>(in.avs + lane) == zero);
  const auto current_o = (load<F>(in.aoc + lane) == zero) & (load<F>(in.aos + lane) == zero);
  const F avc = select(current_v, qvc, load<F>(in.avc + lane));
  const F avs = select(current_v, qvs, load<F>(in.avs + lane));
  const F aoc = select(current_o, qoc, load<F>(in.aoc + lane));
  const F aos = select(current_o, qos, load<F>(in.aos + lane));
  const F rax = aoc * lox - aos * loy, ray = aos * lox + aoc * loy;
  const F rbx = avc * lvx - avs * lvy, rby = avs * lvx + avc * lvy;
  store(out.nx + lane, nx), store(out.ny + lane, ny);
  store(out.rax + lane, rax), store(out.ray + lane, ray);
  store(out.rbx + lane, rbx), store(out.rby + lane, rby);
  store(out.base + lane, c - ((rbx - rax) * nx + (rby - ray) * ny));
  // Effective masses along the normal and the tangent (ny, -nx).
  const F ima = load<F>(in.imo + lane), iia = load<F>(in.iio + lane);
  const F imb = load<F>(in.imv + lane), iib = load<F>(in.iiv + lane);
  const F rna = rax * ny - ray * nx, rnb = rbx * ny - rby * nx;
  const F rta = zero - (rax * nx + ray * ny), rtb = zero - (rbx * nx + rby * ny);
  const F kn = ima + imb + iia * rna * rna + iib * rnb * rnb;
  const F kt = ima + imb + iia * rta * rta + iib * rtb * rtb;
  store(out.normal_mass + lane, select(kn > zero, one / select(kn > zero, kn, one), zero));
  store(out.tangent_mass + lane, select(kt > zero, one / select(kt > zero, kt, one), zero));
  // Approach before the step, for restitution: each anchor's motion over the last substep,
  // d + (r - rot(-da) r) with rot(-da) from rot_of_small_angle's series.
  auto motion = [&](F mx, F my, F a, F r_x, F r_y, F& ox, F& oy) {
    const F a2 = a * a;
    const F qc = one - a2 * (F(0.5f) - a2 * F(1.0f / 24.0f));
    const F qs = a * (one - a2 * (F(1.0f / 6.0f) - a2 * F(1.0f / 120.0f)));
    ox = mx + (r_x - (qc * r_x + qs * r_y));
    oy = my + (r_y - (qc * r_y - qs * r_x));
  };
  F mbx, mby, max_, may;
  motion(load<F>(in.mvx + lane), load<F>(in.mvy + lane), load<F>(in.mva + lane), rbx, rby, mbx,
         mby);
  motion(load<F>(in.mox + lane), load<F>(in.moy + lane), load<F>(in.moa + lane), rax, ray, max_,
         may);
  store(out.vn_pre + lane, (mbx - max_) * nx + (mby - may) * ny);
}

// The bodies' rows of the prepare input at lanes [lane, lane + width of F): v the vertex's body,
// o the other's (PrepareBody's fields, in its order, and the positions pv, po). A point that is
// not there (here false) gets zero masses, so it prepares to a point that does nothing. The
// arms' rotations (avc...) are the caller's to set. M is F's mask type.
template <class F, class M>
[[gnu::always_inline]] inline void put_bodies(const F* v, const F* o, const F pv[2], const F po[2],
                                              const M& here, PrepareInput& in, int lane) {
  const F zero(0.0f);
  store(in.pvx + lane, pv[0]), store(in.pvy + lane, pv[1]);
  store(in.pox + lane, po[0]), store(in.poy + lane, po[1]);
  store(in.qvc + lane, v[0]), store(in.qvs + lane, v[1]);
  store(in.qoc + lane, o[0]), store(in.qos + lane, o[1]);
  store(in.mvx + lane, v[2]), store(in.mvy + lane, v[3]), store(in.mva + lane, v[4]);
  store(in.mox + lane, o[2]), store(in.moy + lane, o[3]), store(in.moa + lane, o[4]);
  store(in.imv + lane, select(here, v[5], zero)), store(in.iiv + lane, select(here, v[6], zero));
  store(in.imo + lane, select(here, o[5], zero)), store(in.iio + lane, select(here, o[6], zero));
}

// Lanes [lane, lane + width of F) of wide constraint c, whose features are f and whose bodies a
// and b are set: the bodies' rows from `bodies` (body_lanes.hpp) and their positions, the points
// prepared, then oriented into the lanes. A flipped point (its vertex on a) is the same
// constraint seen from the other side: its anchors swap and its normal changes sign. Leaves the
// accumulated impulses to the caller.
template <class F>
[[gnu::always_inline]] inline void prepare_lanes(const PrepareBody* bodies,
                                                 const LanePositions& positions, WideFeatures& f,
                                                 WideConstraint& c, int lane) {
  F A[8], B[8];  // field f of body a in A[f], of body b in B[f] (PrepareBody's order)
  gather_rows8(&bodies[0].qc, c.a + lane, A);
  gather_rows8(&bodies[0].qc, c.b + lane, B);
  const F pa[2] = {load<F>(positions.ax + lane), load<F>(positions.ay + lane)};
  const F pb[2] = {load<F>(positions.bx + lane), load<F>(positions.by + lane)};
  const F zero(0.0f);
  store(c.ima + lane, A[5]), store(c.iia + lane, A[6]);
  store(c.imb + lane, B[5]), store(c.iib + lane, B[6]);
  {  // the features' radii by body, from the first point (a pair's points share colliders)
    const auto flipped = load<F>(f.p[0].flip + lane) > F(0.5f);
    const F rv = load<F>(f.p[0].rv + lane), ro = load<F>(f.p[0].ro + lane);
    store(c.radius_a + lane, select(flipped, rv, ro));
    store(c.radius_b + lane, select(flipped, ro, rv));
  }
  const F push = vmin(A[7], B[7]);
  store(c.push + lane, select(A[5] == zero || B[5] == zero, zero - push, push));
  for (int k = 0; k < 2; ++k) {
    FeatureRows& rows = f.p[k];
    const auto flipped = load<F>(rows.flip + lane) > F(0.5f);
    F v[8], o[8];  // the vertex's body is a where the point is flipped
    for (int i = 0; i < 8; ++i)
      v[i] = select(flipped, A[i], B[i]), o[i] = select(flipped, B[i], A[i]);
    F pv[2], po[2];
    for (int i = 0; i < 2; ++i)
      pv[i] = select(flipped, pa[i], pb[i]), po[i] = select(flipped, pb[i], pa[i]);
    PrepareInput in;  // lanes [lane, lane + width) only
    put_bodies<F>(v, o, pv, po, load<F>(rows.present + lane) > F(0.5f), in, lane);
    {
      const F ac = load<F>(f.arm_ac + lane), as = load<F>(f.arm_as + lane);
      const F bc = load<F>(f.arm_bc + lane), bs = load<F>(f.arm_bs + lane);
      store(in.avc + lane, select(flipped, ac, bc)), store(in.avs + lane, select(flipped, as, bs));
      store(in.aoc + lane, select(flipped, bc, ac)), store(in.aos + lane, select(flipped, bs, as));
    }
    PrepareOutput out;
    prepare_points<F>(rows, in, out, lane);
    WidePoint& p = c.p[k];
    const F sign = select(flipped, F(-1.0f), F(1.0f));
    const F rax = load<F>(out.rax + lane), ray = load<F>(out.ray + lane);
    const F rbx = load<F>(out.rbx + lane), rby = load<F>(out.rby + lane);
    store(p.nx + lane, sign * load<F>(out.nx + lane));
    store(p.ny + lane, sign * load<F>(out.ny + lane));
    store(p.rax + lane, select(flipped, rbx, rax)), store(p.ray + lane, select(flipped, rby, ray));
    store(p.rbx + lane, select(flipped, rax, rbx)), store(p.rby + lane, select(flipped, ray, rby));
    store(p.base + lane, load<F>(out.base + lane));
    store(p.normal_mass + lane, load<F>(out.normal_mass + lane));
    store(p.tangent_mass + lane, load<F>(out.tangent_mass + lane));
    store(rows.vn_pre + lane, load<F>(out.vn_pre + lane));
    store(p.max_lambda_n + lane, zero);
  }
}

}  // namespace wide
}  // namespace strut
