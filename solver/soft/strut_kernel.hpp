// The strut (particle distance constraint) projection, written once as a template over the number
// type like the wide contact kernel (contact_wide.hpp): instantiated with float it is the scalar
// twin, with an xsimd batch the SIMD kernel that solves the kWideLanes (16) struts of a colour's
// group a register at a time, dispatched at run time (solver/simd/simd_dispatch.hpp): 1 x 16 lanes
// with AVX-512, 2 x 8 with AVX2, 4 x 4 with SSE4.2. Both run the same operations in the same
// order (-ffp-contract=off), so every level gives the twin's bits, which
// tests/strut_kernel_test.cpp and tests/simd_dispatch_test.cpp check.
#pragma once

#include <cmath>
#include <cstdint>
#include <xsimd/xsimd.hpp>

#include "solver/contacts/contact_wide.hpp"
#include "solver/simd/lane_gather.hpp"

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
  std::uint32_t strut[kWideLanes];  // index in SoftStore::struts (tests, debugging)
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

// One group in registers of F (a batch), a register of lanes at a time: gathers both ends of
// every lane, projects, and scatters the corrections of active lanes to particles of nonzero
// inverse mass only. Pinned particles may be shared by several lanes and by concurrent chunks,
// so writing them, even with the same value, would be a data race. Padding lanes (only at the
// end of a colour's last group) read and write nothing. Each SIMD level's file instantiates its
// own (strut_kernel_table_<level>.cpp, solver/simd/simd_dispatch.hpp).
template <class F>
void solve_strut_group_simd(const StrutSpans& p, WideStrut& g, float inv_h2) {
  constexpr int kWidth = kLanesOf<F>;
  for (int lane = 0; lane < kWideLanes; lane += kWidth) {
    StrutEnds<F> e;
    if (g.a[lane + kWidth - 1] != kStrutPadding) {
      // A full register: every lane's particles are its own or pinned, so the gathers may read
      // them all.
      const auto* ia = reinterpret_cast<const std::uint32_t*>(g.a + lane);
      const auto* ib = reinterpret_cast<const std::uint32_t*>(g.b + lane);
      e = {gather_column<F>(p.x, ia), gather_column<F>(p.y, ia), gather_column<F>(p.w, ia),
           gather_column<F>(p.x, ib), gather_column<F>(p.y, ib), gather_column<F>(p.w, ib)};
    } else {
      // Padding lanes must not read a particle (another chunk may be writing it), so they get
      // zeros, which the kernel skips as a degenerate strut.
      alignas(64) float g6[6][kWidth];
      for (int i = 0; i < kWidth; ++i) {
        const std::int32_t a = g.a[lane + i], b = g.b[lane + i];
        if (a == kStrutPadding) {
          for (auto& v : g6) v[i] = 0.0f;
          continue;
        }
        g6[0][i] = p.x[a], g6[1][i] = p.y[a], g6[2][i] = p.w[a];
        g6[3][i] = p.x[b], g6[4][i] = p.y[b], g6[5][i] = p.w[b];
      }
      e = {F::load_aligned(g6[0]), F::load_aligned(g6[1]), F::load_aligned(g6[2]),
           F::load_aligned(g6[3]), F::load_aligned(g6[4]), F::load_aligned(g6[5])};
    }
    const StrutMove<F> m = project_struts(e, g, lane, inv_h2);
    alignas(64) float r[11][kWidth];
    m.xa.store_aligned(r[0]), m.ya.store_aligned(r[1]), m.xb.store_aligned(r[2]);
    m.yb.store_aligned(r[3]), m.ax.store_aligned(r[4]), m.ay.store_aligned(r[5]);
    m.bx.store_aligned(r[6]), m.by.store_aligned(r[7]), m.active.store_aligned(r[8]);
    e.wa.store_aligned(r[9]), e.wb.store_aligned(r[10]);
    for (int i = 0; i < kWidth; ++i) {
      if (r[8][i] == 0.0f) continue;  // skipped or padding
      const std::int32_t a = g.a[lane + i], b = g.b[lane + i];
      if (r[9][i] > 0) {
        p.x[a] = r[0][i], p.y[a] = r[1][i];
        p.dx[a] = p.dx[a] - r[4][i], p.dy[a] = p.dy[a] - r[5][i];
      }
      if (r[10][i] > 0) {
        p.x[b] = r[2][i], p.y[b] = r[3][i];
        p.dx[b] = p.dx[b] + r[6][i], p.dy[b] = p.dy[b] + r[7][i];
      }
    }
  }
}

}  // namespace wide

// One group through the SIMD kernel of the level in use (wide::solve_strut_group_simd).
void solve_strut_group_wide(const StrutSpans& p, WideStrut& g, float inv_h2);
// The scalar twin: lane by lane in lane order, reading and writing the particles directly, so it
// is also correct for a group whose lanes share particles (the overflow colour).
void solve_strut_group_scalar(const StrutSpans& p, WideStrut& g, float inv_h2);

}  // namespace strut
