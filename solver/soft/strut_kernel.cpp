// The coloured strut groups' scalar twin, and the SIMD kernel of the level in use.
#include "solver/soft/strut_kernel.hpp"

#include "solver/soft/strut_kernel_table.hpp"

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
  strut_kernels().group(p, g, inv_h2);
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
