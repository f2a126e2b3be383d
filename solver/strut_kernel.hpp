// The strut (particle distance constraint) projection, written once as a template over the number
// type like the wide contact kernel (contact_wide.hpp): instantiated with float it is the scalar
// twin, with xsimd::batch<float> the SIMD kernel that solves kWideLanes struts of one colour at
// once. Both run the same operations in the same order (-ffp-contract=off), so they give the
// same bits, which tests/strut_kernel_test.cpp checks.
#pragma once

#include <cmath>
#include <cstdint>
#include <xsimd/xsimd.hpp>

#include "solver/contacts/contact_wide.hpp"

namespace strut {

// The particle arrays a strut projection reads (w: inverse mass, 0 = pinned) and writes.
struct StrutSpans {
  float *x, *y, *dx, *dy;
  const float* w;
};

// Marks the unused lanes at the end of a colour's last group.
inline constexpr std::int32_t kStrutPadding = -1;

// kWideLanes struts of one colour, SoA, so a group loads its constants with aligned loads.
// Struts of one colour share no movable particle, so the lanes are independent.
struct alignas(64) WideStrut {
  std::int32_t a[kWideLanes], b[kWideLanes];  // particles; kStrutPadding in unused lanes
  float rest[kWideLanes], compliance[kWideLanes];
  float lambda[kWideLanes];         // XPBD multiplier, accumulated over a substep's iterations
  std::uint32_t strut[kWideLanes];  // index in World::Impl::struts (tests, debugging)
};

namespace wide {

// Both ends of the struts in a lane group, as gathered from the particles.
template <class F>
struct StrutEnds {
  F xa, ya, wa, xb, yb, wb;
};

// What a projection does: the ends' new positions and the corrections that produced them (the
// motion over the substep moves by the same amount). active is 1 where the strut was projected,
// 0 where it was skipped (degenerate length, no mass, padding): nothing may be written there.
template <class F>
struct StrutMove {
  F xa, ya, xb, yb;
  F ax, ay, bx, by;
  F active;
};

// XPBD projection of the lanes' struts, the same arithmetic as solve_struts' creation-order
// loop. The skips of that loop (length < 1e-9, no mass) become a mask that selects the old
// values, so a lane that skips leaves its multiplier and its particles' bits alone in both
// instantiations. The negated constraint is written rest - len, not -(len - rest): xsimd negates
// a batch as 0 - x, which differs from a scalar negation in the sign of zero.
template <class F>
StrutMove<F> project_struts(const StrutEnds<F>& e, WideStrut& g, int lane, float inv_h2) {
  const F zero(0.0f), one(1.0f);
  const F dx = e.xb - e.xa, dy = e.yb - e.ya;
  const F len = vsqrt(dx * dx + dy * dy);
  const F alpha = load<F>(g.compliance + lane) * F(inv_h2);
  const F wsum = (e.wa + e.wb) + alpha;
  const auto active = !(len < F(1e-9f)) && !(wsum <= zero);
  const F lambda = load<F>(g.lambda + lane);
  const F dl = ((load<F>(g.rest + lane) - len) - alpha * lambda) / wsum;
  store(g.lambda + lane, select(active, lambda + dl, lambda));
  const F s = dl / len;
  StrutMove<F> m;
  m.ax = select(active, e.wa * s * dx, zero), m.ay = select(active, e.wa * s * dy, zero);
  m.bx = select(active, e.wb * s * dx, zero), m.by = select(active, e.wb * s * dy, zero);
  m.xa = select(active, e.xa - m.ax, e.xa), m.ya = select(active, e.ya - m.ay, e.ya);
  m.xb = select(active, e.xb + m.bx, e.xb), m.yb = select(active, e.yb + m.by, e.yb);
  m.active = select(active, one, zero);
  return m;
}

}  // namespace wide

// One group through the SIMD kernel: gathers both ends of every lane, projects, and scatters the
// corrections of active lanes to particles of nonzero inverse mass only. Pinned particles may be
// shared by several lanes and by concurrent chunks, so writing them, even with the same value,
// would be a data race. Padding lanes read and write nothing.
void solve_strut_group_wide(const StrutSpans& p, WideStrut& g, float inv_h2);
// The scalar twin: lane by lane in lane order, reading and writing the particles directly, so it
// is also correct for a group whose lanes share particles (the overflow colour).
void solve_strut_group_scalar(const StrutSpans& p, WideStrut& g, float inv_h2);

}  // namespace strut
