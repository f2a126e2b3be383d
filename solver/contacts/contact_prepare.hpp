// Preparing contact points between rigid bodies for the step (Box2D's prepare): from a point's
// features (a vertex against an edge or another vertex) and the two bodies' poses, the normal,
// the anchors (offsets from the centres of mass, fixed in the bodies for the step), the
// separation at the step start, the effective masses and the approach speed for restitution.
//
// Written once as a template over the number type, like the wide contact kernel: with float it
// is the scalar twin (rows of pairs with many points, tests), with xsimd::batch<float> it
// prepares kWideLanes points at once. Gathering the inputs stays scalar (the points' bodies are
// scattered in memory); the arithmetic, with its square root and three divisions, is what the
// lanes share. Done per point in scalar code it was a sixth of a pyramid step.
#pragma once

#include "solver/contacts/contact_wide.hpp"
#include "solver/strut_kernel.hpp"

namespace strut {

// One contact point per lane, as gathered from the contact points and the bodies. A rounded
// feature (a circle's centre, a capsule's segment, a rounded polygon) has its anchor on its
// surface, rv or ro out along the normal.
struct alignas(64) PrepareInput {
  float vx[kWideLanes], vy[kWideLanes];    // the vertex, world
  float vlx[kWideLanes], vly[kWideLanes];  // and in its body
  // VertexEdge: the edge's ends; VertexVertex: e1 is the other vertex (e2 unused).
  float e1x[kWideLanes], e1y[kWideLanes], e2x[kWideLanes], e2y[kWideLanes];
  float l1x[kWideLanes], l1y[kWideLanes], l2x[kWideLanes], l2y[kWideLanes];
  float edge[kWideLanes];                  // 1: VertexEdge, 0: VertexVertex
  float rv[kWideLanes], ro[kWideLanes];    // the features' radii
  float radius[kWideLanes];                // summed feature radii
  float fnx[kWideLanes], fny[kWideLanes];  // fallback normal when the features coincide
  float qvc[kWideLanes], qvs[kWideLanes], qoc[kWideLanes], qos[kWideLanes];  // rotations
  float mvx[kWideLanes], mvy[kWideLanes], mva[kWideLanes];  // motion of the last substep
  float mox[kWideLanes], moy[kWideLanes], moa[kWideLanes];
  float imv[kWideLanes], iiv[kWideLanes], imo[kWideLanes], iio[kWideLanes];  // inverse masses
};

// The prepared point, oriented from the other feature's body (a) to the vertex's body (b).
struct alignas(64) PrepareOutput {
  float nx[kWideLanes], ny[kWideLanes];
  float rax[kWideLanes], ray[kWideLanes], rbx[kWideLanes], rby[kWideLanes];
  float base[kWideLanes];  // separation minus n . (rb - ra) at the step start
  float normal_mass[kWideLanes], tangent_mass[kWideLanes];
  float vn_pre[kWideLanes];
};

namespace wide {

template <class F>
void prepare_points(const PrepareInput& in, PrepareOutput& out, int lane) {
  const F zero(0.0f), one(1.0f);
  const F vx = load<F>(in.vx + lane), vy = load<F>(in.vy + lane);
  const F e1x = load<F>(in.e1x + lane), e1y = load<F>(in.e1y + lane);
  const F fnx = load<F>(in.fnx + lane), fny = load<F>(in.fny + lane);
  const F radius = load<F>(in.radius + lane);
  const auto edge = load<F>(in.edge + lane) > F(0.5f);
  // Vertex against edge: the edge's outward normal, the vertex's projection t on it.
  const F dx = load<F>(in.e2x + lane) - e1x, dy = load<F>(in.e2y + lane) - e1y;
  const F len2 = dx * dx + dy * dy;
  const auto has_len = len2 > zero;
  const F safe_len2 = select(has_len, len2, one);
  const F inv_len = one / vsqrt(safe_len2);
  const F px = vx - e1x, py = vy - e1y;
  const F en_x = select(has_len, dy * inv_len, fnx),
          en_y = select(has_len, zero - dx * inv_len, fny);
  const F t = select(has_len, vmin(vmax((px * dx + py * dy) / safe_len2, zero), one), zero);
  // Vertex against vertex: along the line between them.
  const F dist = vsqrt(px * px + py * py);
  const auto apart = dist > F(1e-9f);
  const F inv_dist = one / select(apart, dist, one);
  const F vn_x = select(apart, px * inv_dist, fnx), vn_y = select(apart, py * inv_dist, fny);
  const F nx = select(edge, en_x, vn_x), ny = select(edge, en_y, vn_y);
  const F c = select(edge, nx * px + ny * py, dist) - radius;
  // Anchors in the bodies, then in the world: the edge point or the other vertex; the vertex.
  const F qoc = load<F>(in.qoc + lane), qos = load<F>(in.qos + lane);
  const F qvc = load<F>(in.qvc + lane), qvs = load<F>(in.qvs + lane);
  const F l1x = load<F>(in.l1x + lane), l1y = load<F>(in.l1y + lane);
  const F ro = load<F>(in.ro + lane), rv = load<F>(in.rv + lane);
  // inv_rotate(q, r n) and inv_rotate(q, -r n): from a feature to its surface.
  const F so_x = ro * nx, so_y = ro * ny;
  const F co_lx = qoc * so_x + qos * so_y, co_ly = qoc * so_y - qos * so_x;
  const F sv_x = zero - rv * nx, sv_y = zero - rv * ny;
  const F cv_lx = qvc * sv_x + qvs * sv_y, cv_ly = qvc * sv_y - qvs * sv_x;
  const F edge_lx = l1x + t * (load<F>(in.l2x + lane) - l1x);
  const F edge_ly = l1y + t * (load<F>(in.l2y + lane) - l1y);
  // Rounded features (radius > 0) have their anchor on the surface, out along the normal.
  const F lox = select(edge, edge_lx, l1x) + co_lx;
  const F loy = select(edge, edge_ly, l1y) + co_ly;
  const F lvx = load<F>(in.vlx + lane) + cv_lx;
  const F lvy = load<F>(in.vly + lane) + cv_ly;
  const F rax = qoc * lox - qos * loy, ray = qos * lox + qoc * loy;
  const F rbx = qvc * lvx - qvs * lvy, rby = qvs * lvx + qvc * lvy;
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

}  // namespace wide
}  // namespace strut
