#include "solver/strut_kernel.hpp"

namespace strut {
namespace {

// Writes one lane's result back. Only particles this lane owns are written: active lanes with a
// movable end (colouring gives that end to this lane alone within the colour).
inline void scatter_lane(const StrutSpans& p, std::int32_t a, std::int32_t b, float wa, float wb,
                         float xa, float ya, float xb, float yb, float ax, float ay, float bx,
                         float by) {
  if (wa > 0) {
    p.x[a] = xa, p.y[a] = ya;
    p.dx[a] = p.dx[a] - ax, p.dy[a] = p.dy[a] - ay;
  }
  if (wb > 0) {
    p.x[b] = xb, p.y[b] = yb;
    p.dx[b] = p.dx[b] + bx, p.dy[b] = p.dy[b] + by;
  }
}

}  // namespace

void solve_strut_group_wide(const StrutSpans& p, WideStrut& g, float inv_h2) {
  using F = WideFloat;
  using I = xsimd::batch<std::int32_t>;
  static_assert(I::size == F::size);
  wide::StrutEnds<F> e;
  if (g.a[kWideLanes - 1] != kStrutPadding) {
    // A full group: every lane's particles are its own or pinned, so hardware gathers may read
    // them all.
    const I ia = I::load_aligned(g.a), ib = I::load_aligned(g.b);
    e = {F::gather(p.x, ia), F::gather(p.y, ia), F::gather(p.w, ia),
         F::gather(p.x, ib), F::gather(p.y, ib), F::gather(p.w, ib)};
  } else {
    // The colour's last group: padding lanes must not read a particle (another chunk may be
    // writing it), so they get zeros, which the kernel skips as a degenerate strut.
    alignas(64) float g6[6][kWideLanes];
    for (int i = 0; i < kWideLanes; ++i) {
      const std::int32_t a = g.a[i], b = g.b[i];
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
  const wide::StrutMove<F> m = wide::project_struts(e, g, 0, inv_h2);
  alignas(64) float r[11][kWideLanes];
  m.xa.store_aligned(r[0]), m.ya.store_aligned(r[1]), m.xb.store_aligned(r[2]);
  m.yb.store_aligned(r[3]), m.ax.store_aligned(r[4]), m.ay.store_aligned(r[5]);
  m.bx.store_aligned(r[6]), m.by.store_aligned(r[7]), m.active.store_aligned(r[8]);
  e.wa.store_aligned(r[9]), e.wb.store_aligned(r[10]);
  for (int i = 0; i < kWideLanes; ++i) {
    if (r[8][i] == 0.0f) continue;  // skipped or padding
    scatter_lane(p, g.a[i], g.b[i], r[9][i], r[10][i], r[0][i], r[1][i], r[2][i], r[3][i], r[4][i],
                 r[5][i], r[6][i], r[7][i]);
  }
}

void solve_strut_group_scalar(const StrutSpans& p, WideStrut& g, float inv_h2) {
  for (int i = 0; i < kWideLanes; ++i) {
    const std::int32_t a = g.a[i], b = g.b[i];
    if (a == kStrutPadding) continue;
    const wide::StrutEnds<float> e{p.x[a], p.y[a], p.w[a], p.x[b], p.y[b], p.w[b]};
    const wide::StrutMove<float> m = wide::project_struts(e, g, i, inv_h2);
    if (m.active == 0.0f) continue;
    scatter_lane(p, a, b, e.wa, e.wb, m.xa, m.ya, m.xb, m.yb, m.ax, m.ay, m.bx, m.by);
  }
}

}  // namespace strut
